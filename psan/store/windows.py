"""Annotation windows: which slice of which document an account may see, and leases on it.

Why windows: an annotator never gets access to a whole document (thesis 3.4.3), only to a few
sentences around the first span that still needs a person (a *suspicious* span, else a private
span without a label).  The server remembers each account's window in ``annotation_window`` and
every text or decision request is checked against it.

Why leases: with 20 annotators on one collection, two of them must not be handed the same text
at the same time.  A window is a lease until ``expires_at``; choosing a window skips spans inside
other accounts' live leases and never lets the new window overlap them.  Windows are chosen under
one transaction-scoped advisory lock, so two concurrent requests cannot both see "free" text.

Performance: every query is an index range scan around the window (``token``/``sentence`` by
``(document_id, idx|first_token)``, annotations by ``(document_id, first_token …)``); nothing loads a
whole document, so the cost does not grow with the document's length.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psan import db
from psan.store.document_status import SUSPICIOUS_SQL, DocumentStatus, sql_value
from psan.tool.windows import plan_window

#: advisory lock key serializing window assignment ("psan" in ASCII)
WINDOW_LOCK_KEY = 0x7073616E

#: final decision PRIVATE (token decision wins, else the rule level) ...
PRIVATE_SQL = ("(a.token_decision = 'PRIVATE' OR (a.token_decision IS NULL "
               "AND a.rule_level <= p.private_threshold))")
#: ... and neither the person nor any rule gave it a label
UNLABELLED_SQL = ("a.token_label_id IS NULL AND NOT EXISTS (SELECT 1 FROM annotation_rule ar "
                  "JOIN rule r ON r.id = ar.rule_id WHERE ar.annotation_id = a.id AND r.label_id IS NOT NULL)")
#: the span does not touch another account's live lease
UNLEASED_SQL = ("NOT EXISTS (SELECT 1 FROM annotation_window w WHERE w.document_id = a.document_id "
                "AND w.account_id <> %(me)s AND w.expires_at > now() "
                "AND w.first_token < a.end_token AND w.end_token > a.first_token)")

# statements built from the constant fragments above only (no user input is ever formatted in)
_UNDECIDED_IN_RANGE = (
    "SELECT 1 FROM annotation a JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id "  # noqa: S608  # nosec B608
    "WHERE a.document_id = %s AND a.first_token >= %s AND a.first_token < %s AND a.end_token <= %s "
    f"AND {SUSPICIOUS_SQL} LIMIT 1")
_ANCHOR_QUERIES = tuple(
    "SELECT a.first_token, a.end_token FROM annotation a JOIN document d ON d.id = a.document_id "  # noqa: S608  # nosec B608
    f"JOIN project p ON p.id = d.project_id WHERE a.document_id = %(doc)s AND {condition} "
    f"AND {UNLEASED_SQL} ORDER BY a.first_token, a.end_token DESC LIMIT 1"
    for condition in (SUSPICIOUS_SQL, f"{PRIVATE_SQL} AND {UNLABELLED_SQL}"))

#: documents with spans waiting for a person
_UNFINISHED = sql_value(DocumentStatus.PRE_ANNOTATED)
#: how many random candidate documents one "next window" request inspects
CANDIDATE_DOCUMENTS = 25
#: largest window an admin may ask for (tokens)
MAX_ADMIN_WINDOW = 20_000
#: whole sentences may make a window this many tokens longer than its size; longer ones are cut
WINDOW_TOLERANCE = 50


@dataclass(frozen=True, slots=True)
class Window:
    """An account's current window, with the project data every check needs."""

    account_id: int
    document_id: int
    project_id: int
    first_token: int
    end_token: int
    expires_at: datetime
    live: bool
    decisions: int
    forced: bool
    public_threshold: float
    private_threshold: float
    #: the document's recognition stamp (:func:`psan.store.document_text.document_text` needs no lookup)
    recognized_at: datetime | None = None

    def contains(self, first_token: int, end_token: int) -> bool:
        return self.first_token <= first_token < end_token <= self.end_token


_WINDOW_SELECT = (
    "SELECT w.account_id, w.document_id, d.project_id, w.first_token, w.end_token, w.expires_at, "
    "w.expires_at > now() AS live, w.decisions, w.forced, p.public_threshold, p.private_threshold, "
    "d.recognized_at FROM annotation_window w JOIN document d ON d.id = w.document_id "
    "JOIN project p ON p.id = d.project_id WHERE w.account_id = %s")


def current_window(conn, account_id: int) -> Window | None:
    row = db.query_one(_WINDOW_SELECT, (account_id,), conn)
    return Window(**row) if row else None


def lost_to_other(conn, window: Window) -> bool:
    """An expired window whose text another account has leased since: it is no longer ours."""
    if window.live:
        return False
    return db.query_one(
        "SELECT 1 FROM annotation_window WHERE document_id = %s AND account_id <> %s AND expires_at > now() "
        "AND first_token < %s AND end_token > %s LIMIT 1",
        (window.document_id, window.account_id, window.end_token, window.first_token), conn) is not None


def renew(conn, account_id: int, lease_seconds: int, decided: bool = False) -> None:
    """Extend the lease (each request of the annotator proves they are still working)."""
    db.execute("UPDATE annotation_window SET expires_at = now() + make_interval(secs => %s), "
               "decisions = decisions + %s WHERE account_id = %s",
               (lease_seconds, 1 if decided else 0, account_id), conn)


def release(conn, account_id: int) -> None:
    db.execute("DELETE FROM annotation_window WHERE account_id = %s", (account_id,), conn)


def has_undecided(conn, window: Window) -> bool:
    """Whether a suspicious span is left inside the window (then leaving needs a decision first)."""
    return db.query_one(_UNDECIDED_IN_RANGE, (window.document_id, window.first_token, window.end_token,
                                              window.end_token), conn) is not None


def lock_assignment(conn) -> None:
    """Serialize window choices until the transaction ends (the new lease is committed with it)."""
    db.execute("SELECT pg_advisory_xact_lock(%s)", (WINDOW_LOCK_KEY,), conn)


def candidate_documents(conn, account_id: int, is_admin: bool, limit: int = CANDIDATE_DOCUMENTS) -> list[int]:
    """Random unfinished documents of projects the account may annotate."""
    if is_admin:
        rows = db.query("SELECT id FROM document WHERE status = " + _UNFINISHED + " ORDER BY random() LIMIT %s",  # noqa: S608  # nosec B608
                        (limit,), conn)
    else:
        rows = db.query("SELECT d.id FROM document d JOIN project_member m ON m.project_id = d.project_id "  # noqa: S608  # nosec B608
                        "AND m.account_id = %s WHERE d.status = " + _UNFINISHED + " ORDER BY random() LIMIT %s",
                        (account_id, limit), conn)
    return [r["id"] for r in rows]


def find_anchor(conn, document_id: int, account_id: int) -> tuple[int, int] | None:
    """First unleased suspicious span of a document, else its first unleased unlabelled private span.

    The SQL twin of :func:`psan.tool.windows.first_anchor` (same order; the simulator uses that one).
    """
    params = {"doc": document_id, "me": account_id}
    for sql in _ANCHOR_QUERIES:
        row = db.query_one(sql, params, conn)
        if row:
            return row["first_token"], row["end_token"]
    return None


def _lease_gap(conn, document_id: int, account_id: int, first: int, end: int, token_count: int) -> tuple[int, int]:
    """The free stretch around ``[first, end)`` between other accounts' live leases."""
    row = db.query_one(
        "SELECT coalesce(max(end_token) FILTER (WHERE end_token <= %(first)s), 0) AS lo, "
        "coalesce(min(first_token) FILTER (WHERE first_token >= %(end)s), %(count)s) AS hi "
        "FROM annotation_window WHERE document_id = %(doc)s AND account_id <> %(me)s AND expires_at > now()",
        {"first": first, "end": end, "count": token_count, "doc": document_id, "me": account_id}, conn)
    return int(row["lo"]), int(row["hi"])


def _sentences(conn, document_id: int, lo: int, hi: int) -> list[tuple[int, int]]:
    """Sentences overlapping ``[lo, hi)``, found by two index range scans (no scan from token 0)."""
    rows = db.query(
        "SELECT first_token, end_token FROM sentence WHERE document_id = %(doc)s "
        "AND first_token >= coalesce((SELECT max(first_token) FROM sentence WHERE document_id = %(doc)s "
        "AND first_token <= %(lo)s), 0) AND first_token < %(hi)s ORDER BY first_token",
        {"doc": document_id, "lo": lo, "hi": hi}, conn)
    return [(r["first_token"], r["end_token"]) for r in rows]


def _token_count(conn, document_id: int) -> int:
    row = db.query_one("SELECT token_count FROM document WHERE id = %s", (document_id,), conn)
    return int(row["token_count"]) if row else 0


def compute_window(conn, document_id: int, account_id: int, anchor: tuple[int, int], size: int,
                   centred: bool = True, respect_leases: bool = True) -> tuple[int, int]:
    """Window bounds around an anchor span; see :func:`plan_window`."""
    count = _token_count(conn, document_id)
    bounds = _lease_gap(conn, document_id, account_id, *anchor, count) if respect_leases else (0, count)
    lo = max(0, min(anchor[0], (anchor[0] + anchor[1]) // 2 - size))
    hi = max(anchor[1], anchor[0] + size) + size
    first, end = plan_window(_sentences(conn, document_id, lo, hi), anchor, size, bounds, centred)
    if end - first <= size + WINDOW_TOLERANCE:
        return first, end
    # an over-long sentence (a list, a transcript without punctuation): cut inside it
    near = (max(first, anchor[0] - size), min(end, anchor[1] + size))
    return cut_window(anchor, size, (first, end), _line_starts(conn, document_id, *near), centred)


def _line_starts(conn, document_id: int, first: int, end: int) -> list[int]:
    """Tokens in ``(first, end)`` that begin a line (a line break lies between them and the token before).

    Reads only the tokens of the range and the matching slice of the text (never the whole document).
    """
    tokens = db.query("SELECT idx, start_char, end_char FROM token WHERE document_id = %s AND idx >= %s "
                      "AND idx < %s ORDER BY idx", (document_id, first, end), conn)
    if len(tokens) < 2:
        return []
    base = tokens[0]["start_char"]
    row = db.query_one("SELECT substr(text, %s, %s) AS piece FROM document WHERE id = %s",
                       (base + 1, tokens[-1]["end_char"] - base, document_id), conn)
    piece = row["piece"] if row else ""
    return [cur["idx"] for prev, cur in zip(tokens, tokens[1:], strict=False)
            if "\n" in piece[prev["end_char"] - base:cur["start_char"] - base]
            or "\r" in piece[prev["end_char"] - base:cur["start_char"] - base]]


def cut_window(anchor: tuple[int, int], size: int, span: tuple[int, int], line_starts: list[int],
               centred: bool = True) -> tuple[int, int]:
    """At most ``size`` tokens of ``span`` around ``anchor``, cut at line breaks where possible.

    Why: :func:`plan_window` keeps sentences whole, but a newline-separated list or an unpunctuated
    transcript can be one "sentence" of the whole document; the annotator must still see no more
    than their window.  The window is first placed around the anchor (centred, or starting at it),
    then each edge moves inwards to the nearest line start that keeps the anchor inside; without a
    line break in reach the edge stays on a token boundary.  An anchor longer than ``size`` is shown
    alone (a person must see the span they decide).
    """
    a_first, a_end = anchor
    first, end = span
    if a_end - a_first >= size:
        return a_first, a_end
    if centred:
        lo = (a_first + a_end) // 2 - size // 2
    else:
        line = max((s for s in line_starts if s <= a_first), default=first)
        lo = line if a_first - line <= size // 2 else a_first
    lo = max(first, min(lo, a_first, end - size))
    hi = max(a_end, min(end, lo + size))
    lo = max(lo, hi - size)
    cut_lo = min((s for s in line_starts if lo <= s <= a_first), default=lo) if lo > first else first
    cut_hi = max((s for s in line_starts if a_end <= s <= hi), default=hi) if hi < end else end
    return cut_lo, cut_hi


def store_window(conn, account_id: int, document_id: int, first: int, end: int, lease_seconds: int,
                 forced: bool = False) -> None:
    db.execute(
        "INSERT INTO annotation_window (account_id, document_id, first_token, end_token, expires_at, created_at, "
        "decisions, forced) VALUES (%(me)s, %(doc)s, %(first)s, %(end)s, now() + make_interval(secs => %(lease)s), "
        "now(), 0, %(forced)s) ON CONFLICT (account_id) DO UPDATE SET document_id = EXCLUDED.document_id, "
        "first_token = EXCLUDED.first_token, end_token = EXCLUDED.end_token, expires_at = EXCLUDED.expires_at, "
        "created_at = EXCLUDED.created_at, decisions = 0, forced = EXCLUDED.forced",
        {"me": account_id, "doc": document_id, "first": first, "end": end, "lease": lease_seconds,
         "forced": forced}, conn)


def assign_next(conn, account_id: int, is_admin: bool, size: int, lease_seconds: int) -> Window | None:
    """Give the account a new window in a random unfinished document, or ``None`` if nothing is free."""
    lock_assignment(conn)
    release(conn, account_id)
    for document_id in candidate_documents(conn, account_id, is_admin):
        anchor = find_anchor(conn, document_id, account_id)
        if anchor is None:
            continue
        first, end = compute_window(conn, document_id, account_id, anchor, size)
        store_window(conn, account_id, document_id, first, end, lease_seconds)
        return current_window(conn, account_id)
    return None


def document_for_admin(conn, document_id: int) -> dict[str, Any] | None:
    return db.query_one("SELECT id, project_id, token_count, status::text AS status FROM document WHERE id = %s",
                        (document_id,), conn)


def open_at(conn, account_id: int, document_id: int, start: int, size: int, lease_seconds: int) -> Window:
    """An admin's window at any position (sentence-aligned, starting with the sentence of ``start``).

    Admins are not bound by other leases (they may inspect anything), but their window is a lease
    like any other, so annotators are not handed the same text meanwhile.
    """
    lock_assignment(conn)
    count = _token_count(conn, document_id)
    start = max(0, min(start, count - 1))
    first, end = compute_window(conn, document_id, account_id, (start, start + 1), size,
                                centred=False, respect_leases=False)
    store_window(conn, account_id, document_id, first, end, lease_seconds, forced=True)
    window = current_window(conn, account_id)
    assert window is not None  # nosec B101
    return window
