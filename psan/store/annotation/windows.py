"""Annotation windows: which slice of which document an account may see, and leases on it.

Why windows: an annotator never gets access to a whole document (thesis 3.4.3), only to a few
sentences around the first span that still needs a person (a *suspicious* span, else a private
span without a label).  The server remembers each account's window in ``annotation_window`` and
every text or decision request is checked against it.

Why leases: with 20 annotators on one collection, two of them must not be handed the same text
at the same time.  A window is a lease until ``expires_at``; choosing a window skips spans inside
other accounts' live leases and never lets the new window overlap them.  A window in a document is
chosen under a transaction-scoped advisory lock of that document, so two concurrent requests cannot
both see "free" text there.  The lock is held for one statement and the commit: the lock, then in
the same round trip one statement that finds the anchor, the free stretch between the other leases,
cuts the window at sentences (:func:`psan.tool.decisions.windows.plan_window`, in SQL) and stores the lease
(:func:`claim_first_free`); with 20 annotators asking for windows in one document, every statement
made under it is one they all wait for.  The commit does not wait for the disk (a lease is cheap to
lose).

Performance: every query is an index range scan around the window (``token``/``sentence`` by
``(document_id, idx|first_token)``, annotations by ``(document_id, first_token …)``); nothing loads a
whole document, so the cost does not grow with the document's length.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psan.runtime import db
from psan.runtime.sql import prepared, warm_on_open
from psan.store.annotation.visibility import WINDOW_TOLERANCE, sql_middle
from psan.store.shared.document_status import SUSPICIOUS_SQL, DocumentStatus, sql_value
from psan.tool.decisions.windows import plan_window, span_review_window

#: advisory lock space (first key of the two-integer form) of window choices; the second key is the
#: document ("ps" in ASCII; the two-integer keys never meet the one-bigint keys of other locks)
WINDOW_LOCK_SPACE = 0x7073

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
    f"AND NOT (a.first_token >= %s AND a.end_token <= %s) AND {SUSPICIOUS_SQL} LIMIT 1")
_ANCHOR_QUERIES = tuple(
    "SELECT a.first_token, a.end_token FROM annotation a JOIN document d ON d.id = a.document_id "  # noqa: S608  # nosec B608
    f"JOIN project p ON p.id = d.project_id WHERE a.document_id = %(doc)s AND {condition} "
    f"AND {UNLEASED_SQL} ORDER BY a.first_token, a.end_token DESC LIMIT 1"
    for condition in (SUSPICIOUS_SQL, f"{PRIVATE_SQL} AND {UNLABELLED_SQL}"))

#: the columns of a :class:`Window` (``w``: the lease, ``d`` its document, ``p`` its project)
_WINDOW_COLUMNS = ("w.account_id, w.document_id, d.project_id, w.first_token, w.end_token, w.expires_at, "
                   "w.expires_at > now() AS live, w.decisions, w.forced, p.public_threshold, p.private_threshold, "
                   "d.recognized_at, d.name AS document_name, d.status::text AS document_status, d.token_count, "
                   "p.name AS project_name, p.ask_labels, p.sensitive_types")
#: a lease: the account's one window, inserted or replaced
_LEASE_INSERT = ("INSERT INTO annotation_window (account_id, document_id, first_token, end_token, expires_at, "
                 "created_at, decisions, forced)")
_LEASE_UPSERT = (
    "ON CONFLICT (account_id) DO UPDATE SET document_id = EXCLUDED.document_id, first_token = EXCLUDED.first_token, "
    "end_token = EXCLUDED.end_token, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at, "
    "decisions = 0, forced = EXCLUDED.forced "
    "RETURNING account_id, document_id, first_token, end_token, expires_at, decisions, forced")

#: under the document's window lock, in one statement: the first free anchor (as :data:`_ANCHOR_QUERIES`),
#: the free stretch around it between other accounts' live leases (as :func:`_lease_gap`), the sentences
#: :func:`compute_window` would read for it (as :func:`_sentences`), the window :func:`plan_window` cuts
#: from them (``centred``) and, unless an over-long sentence needs a cut at line breaks, its lease (as
#: :func:`store_window`).  Why all in one: every annotator of the document waits while the lock is held.
_CLAIM_QUERIES = tuple(
    f"WITH anchor AS (SELECT first_token AS a0, end_token AS a1 FROM ({anchor}) first_free), "  # noqa: S608  # nosec B608
    "gap AS (SELECT coalesce(max(w.end_token) FILTER (WHERE w.end_token <= x.a0), 0) AS lo_b, "
    "coalesce(min(w.first_token) FILTER (WHERE w.first_token >= x.a1), "
    "(SELECT token_count FROM document WHERE id = %(doc)s)) AS hi_b FROM anchor x LEFT JOIN annotation_window w "
    "ON w.document_id = %(doc)s AND w.account_id <> %(me)s AND w.expires_at > now()), "
    "sent AS (SELECT s.first_token AS f, s.end_token AS e FROM sentence s, anchor x "
    "WHERE s.document_id = %(doc)s AND s.first_token >= coalesce((SELECT max(first_token) "
    "FROM sentence WHERE document_id = %(doc)s AND first_token <= greatest(0, least(x.a0, "
    "(x.a0 + x.a1) / 2 - %(size)s))), 0) AND s.first_token < greatest(x.a1, x.a0 + %(size)s) + %(size)s), "
    # plan_window, centred: the sentences holding the anchor, plus those inside the size around it
    "p0 AS (SELECT x.a0, x.a1, g.lo_b, g.hi_b, "
    "coalesce((SELECT f FROM sent WHERE f <= x.a0 AND x.a0 < e ORDER BY f LIMIT 1), x.a0) AS core_first, "
    "coalesce((SELECT e FROM sent WHERE f < x.a1 AND x.a1 <= e ORDER BY f LIMIT 1), x.a1) AS core_end, "
    "greatest(g.lo_b, (x.a0 + x.a1) / 2 - %(size)s / 2) AS lo1 FROM anchor x, gap g), "
    "p1 AS (SELECT p0.*, least(hi_b, lo1 + %(size)s) AS hi FROM p0), "
    "p2 AS (SELECT p1.*, greatest(lo_b, least(lo1, hi - %(size)s)) AS lo FROM p1), "
    "plan AS (SELECT p2.*, greatest(least(core_first, coalesce((SELECT min(f) FROM sent WHERE f >= p2.lo "
    "AND e <= p2.hi), core_first)), lo_b) AS w_first, least(greatest(core_end, coalesce((SELECT max(e) FROM sent "
    "WHERE f >= p2.lo AND e <= p2.hi), core_end)), hi_b) AS w_end FROM p2), "
    f"w AS ({_LEASE_INSERT} SELECT %(me)s, %(doc)s, w_first, w_end, "
    "now() + make_interval(secs => %(lease)s), now(), 0, false FROM plan "
    f"WHERE w_end - w_first <= %(size)s + %(tolerance)s {_LEASE_UPSERT}) "
    "SELECT plan.a0, plan.a1, plan.lo_b, plan.hi_b, ARRAY(SELECT ARRAY[f, e] FROM sent ORDER BY f) AS sentences, "
    f"{_WINDOW_COLUMNS} FROM plan LEFT JOIN w ON true LEFT JOIN document d ON d.id = w.document_id "
    "LEFT JOIN project p ON p.id = d.project_id"
    for anchor in _ANCHOR_QUERIES)

#: documents with spans waiting for a person
_UNFINISHED = sql_value(DocumentStatus.PRE_ANNOTATED)
#: how many random candidate documents one "next window" request inspects
CANDIDATE_DOCUMENTS = 25
#: largest window an admin may ask for (tokens)
MAX_ADMIN_WINDOW = 20_000
#: a span review (a project reviewing by risk) shows each waiting span of a sentence with its sentence, or with
#: this many tokens around it where the sentence is longer: what a person needs to decide the span, and no more
#: to read
SPAN_REVIEW_TOKENS = 20


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
    #: the document's recognition stamp (:func:`psan.store.corpus.document_text.document_text` needs no lookup)
    recognized_at: datetime | None = None
    #: the account is a member of the window's project (read with the window: one statement less
    #: per request; a window just assigned was chosen among the account's projects)
    member: bool = True
    #: what the window's page shows of its document and project (read with the window, as ``member``)
    document_name: str = ""
    document_status: str = ""
    token_count: int = 0
    project_name: str = ""
    ask_labels: bool = False
    #: the project's sensitive categories and types as read with the window (``None``: not read), so the
    #: learning of entity types after a decision needs no statement of its own
    sensitive_types: list[str] | None = None

    def contains(self, first_token: int, end_token: int) -> bool:
        return self.first_token <= first_token < end_token <= self.end_token


_WINDOW_SELECT = (
    f"SELECT {_WINDOW_COLUMNS}, EXISTS (SELECT 1 FROM project_member m WHERE m.project_id = d.project_id "  # noqa: S608  # nosec B608
    "AND m.account_id = w.account_id) AS member FROM annotation_window w JOIN document d ON d.id = w.document_id "
    "JOIN project p ON p.id = d.project_id WHERE w.account_id = %s")


def current_window(conn, account_id: int) -> Window | None:
    row = db.query_one(prepared(_WINDOW_SELECT), (account_id,), conn)
    return Window(**row) if row else None


def lost_to_other(conn, window: Window) -> bool:
    """An expired window whose text another account has leased since: it is no longer ours."""
    if window.live:
        return False
    return db.query_one(
        prepared("SELECT 1 FROM annotation_window WHERE document_id = %s AND account_id <> %s "
                 "AND expires_at > now() AND first_token < %s AND end_token > %s LIMIT 1"),
        (window.document_id, window.account_id, window.end_token, window.first_token), conn) is not None


_RENEW = ("UPDATE annotation_window SET expires_at = now() + make_interval(secs => %s), "
          "decisions = decisions + %s WHERE account_id = %s")


def renew(conn, account_id: int, lease_seconds: int, decided: bool = False,
          deferred: bool = False) -> dict[str, Any] | None:
    """Extend the lease (each request of the annotator proves they are still working).

    Returns the new ``expires_at`` and ``decisions`` (``None``: the account has no window, or ``deferred``:
    the update rides with the connection's next statement, :func:`psan.runtime.db.defer`).
    """
    params = (lease_seconds, 1 if decided else 0, account_id)
    if deferred:
        db.defer(_RENEW, params, conn)
        return None
    return db.query_one(prepared(_RENEW + " RETURNING expires_at, decisions"), params, conn)


#: :data:`_RENEW` that returns the renewed window as :data:`_WINDOW_SELECT` reads it
_RENEW_WINDOW = (
    f"WITH w AS ({_RENEW} RETURNING *) SELECT {_WINDOW_COLUMNS}, EXISTS (SELECT 1 FROM project_member m "  # noqa: S608  # nosec B608
    "WHERE m.project_id = d.project_id AND m.account_id = w.account_id) AS member FROM w "
    "JOIN document d ON d.id = w.document_id JOIN project p ON p.id = d.project_id")


def renew_window(conn, account_id: int, lease_seconds: int) -> Window | None:
    """Extend the lease and return the window as :func:`current_window` reads it after (``None``: no window).

    Why one statement: a window request renewed the lease and read the window again, one round trip more;
    on a new connection each statement is planned at its first use (tens of milliseconds of a process's
    first window).
    """
    row = db.query_one(prepared(_RENEW_WINDOW), (lease_seconds, 0, account_id), conn)
    return Window(**row) if row else None


def release(conn, account_id: int) -> None:
    db.execute(prepared("DELETE FROM annotation_window WHERE account_id = %s"), (account_id,), conn)


def has_undecided(conn, window: Window, elided: tuple[int, int] | None = None) -> bool:
    """Whether a suspicious span the caller is shown is left inside the window (then leaving needs a decision
    first); ``elided``: the middle of an over-long window the caller is not shown (:mod:`.visibility`), whose spans
    do not count."""
    middle = sql_middle(elided, window.first_token, window.end_token)
    return db.query_one(prepared(_UNDECIDED_IN_RANGE),
                        (window.document_id, window.first_token, window.end_token, window.end_token, *middle),
                        conn) is not None


def lock_assignment(conn, document_id: int) -> None:
    """Serialize window choices in one document until the transaction ends (the new lease is committed with it)."""
    db.execute(_lock_statements(document_id), None, conn)


def _lock_statements(document_id: int) -> str:
    """The lock of :func:`lock_assignment` as SQL (integers only) to send before another statement.

    The transaction commits without waiting for its WAL to reach the disk: the lock is held until
    the commit, and a lease lost in a crash costs nothing (the annotator is given a window again).
    """
    return (f"SET LOCAL synchronous_commit = off; "
            f"SELECT pg_advisory_xact_lock({int(WINDOW_LOCK_SPACE)}, {int(_lock_key(document_id))}); ")


def _lock_key(document_id: int) -> int:
    """The document as the second (int4) advisory key; two documents sharing one only wait for each other."""
    return int(document_id) % 0x7FFFFFFF


#: the account's choice on its home page (psan.store.review.annotator_home): only the chosen project (while the
#: account may still annotate it), the chosen document first
_CHOSEN = (" AND (c.project_id IS NULL OR d.project_id = c.project_id) "
           "ORDER BY (d.id = c.document_id) IS TRUE DESC, random() LIMIT %(limit)s")


def candidate_documents(conn, account_id: int, is_admin: bool, limit: int = CANDIDATE_DOCUMENTS) -> list[int]:
    """Random unfinished documents of projects the account may annotate (of the project it chose, if any)."""
    return [doc for doc, _ in _candidates(conn, account_id, is_admin, limit)]


def _candidates(conn, account_id: int, is_admin: bool, limit: int = CANDIDATE_DOCUMENTS) -> list[tuple[int, bool]]:
    """:func:`candidate_documents` with whether each one's project reviews by risk (its windows are span reviews)."""
    if is_admin:
        rows = db.query(prepared("SELECT d.id, p.review_mode = 'risk' AS by_risk FROM document d "  # noqa: S608  # nosec B608
                                 "JOIN project p ON p.id = d.project_id LEFT JOIN annotator_choice c "
                                 "ON c.account_id = %(me)s WHERE d.status = " + _UNFINISHED + _CHOSEN),
                        {"me": account_id, "limit": limit}, conn)
    else:
        rows = db.query(prepared("SELECT d.id, p.review_mode = 'risk' AS by_risk FROM document d "  # noqa: S608  # nosec B608
                                 "JOIN project p ON p.id = d.project_id JOIN project_member m "
                                 "ON m.project_id = d.project_id AND m.account_id = %(me)s "
                                 "LEFT JOIN annotator_choice c ON c.account_id = %(me)s WHERE d.status = "
                                 + _UNFINISHED + _CHOSEN),
                        {"me": account_id, "limit": limit}, conn)
    return [(r["id"], bool(r["by_risk"])) for r in rows]


def find_anchor(conn, document_id: int, account_id: int) -> tuple[int, int] | None:
    """First unleased suspicious span of a document, else its first unleased unlabelled private span.

    The SQL twin of :func:`psan.tool.decisions.windows.first_anchor` (same order; the simulator uses that one).
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
    row = db.query_one(prepared("SELECT token_count FROM document WHERE id = %s"), (document_id,), conn)
    return int(row["token_count"]) if row else 0


def compute_window(conn, document_id: int, account_id: int, anchor: tuple[int, int], size: int,
                   centred: bool = True, respect_leases: bool = True) -> tuple[int, int]:
    """Window bounds around an anchor span; see :func:`plan_window`."""
    count = _token_count(conn, document_id)
    bounds = _lease_gap(conn, document_id, account_id, *anchor, count) if respect_leases else (0, count)
    lo = max(0, min(anchor[0], (anchor[0] + anchor[1]) // 2 - size))
    hi = max(anchor[1], anchor[0] + size) + size
    return fit_window(conn, document_id, anchor, size, _sentences(conn, document_id, lo, hi), bounds, centred)


def fit_window(conn, document_id: int, anchor: tuple[int, int], size: int, sentences: list[tuple[int, int]],
               bounds: tuple[int, int], centred: bool = True, tolerance: int = WINDOW_TOLERANCE) -> tuple[int, int]:
    """:func:`plan_window` on the sentences around the anchor; over-long sentences cut at line breaks."""
    first, end = plan_window(sentences, anchor, size, bounds, centred)
    if end - first <= size + tolerance:
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


#: the lease upsert, returning the :class:`Window` (as :data:`_WINDOW_SELECT`) in the same round trip
_STORE_WINDOW = (
    f"WITH w AS ({_LEASE_INSERT} VALUES (%(me)s, %(doc)s, %(first)s, %(end)s, "  # noqa: S608  # nosec B608
    f"now() + make_interval(secs => %(lease)s), now(), 0, %(forced)s) {_LEASE_UPSERT}) "
    f"SELECT {_WINDOW_COLUMNS} FROM w JOIN document d ON d.id = w.document_id JOIN project p ON p.id = d.project_id")


def store_window(conn, account_id: int, document_id: int, first: int, end: int, lease_seconds: int,
                 forced: bool = False) -> Window:
    """Lease ``[first, end)`` of the document to the account (replacing its window); the new window."""
    row = db.query_one(prepared(_STORE_WINDOW), {"me": account_id, "doc": document_id, "first": first, "end": end,
                                                 "lease": lease_seconds, "forced": forced}, conn)
    return Window(**row)


def claim_first_free(conn, document_id: int, account_id: int, size: int, lease_seconds: int,
                     tolerance: int = WINDOW_TOLERANCE) -> Window | None:
    """Lock the document's window choices and lease the window around its first free anchor, if any.

    The lock and one statement (:data:`_CLAIM_QUERIES`) go in one round trip.  On a connection in
    autocommit (the caller's transaction is committed) they are one implicit transaction: the lease
    is committed and the lock released the moment the statement ends, so the other annotators of
    the document wait for one statement only.  Otherwise the lock is held until the caller commits.
    Only a window with an over-long sentence is cut in Python (:func:`fit_window`) and stored by a
    second statement, in a transaction under the lock.
    """
    params = {"doc": document_id, "me": account_id, "size": size, "lease": lease_seconds,
              "tolerance": tolerance}
    single = conn.autocommit
    lock = _lock_statements(document_id)
    for sql in _CLAIM_QUERIES:
        # each statement sees what was committed before it ran, so the claim sees every lease
        # committed before the lock was granted; planned once (generic plan)
        row = db.query_one(prepared(sql, generic=True), params, conn, lead=lock)
        if not single:
            lock = ""  # held until the commit
        if row is None:
            continue
        if row["account_id"] is not None:
            return Window(**{k: row[k] for k in Window.__slots__ if k != "member"})
        if single:  # the cut needs statements of its own: again, in a transaction that keeps the lock
            conn.autocommit = False
            return claim_first_free(conn, document_id, account_id, size, lease_seconds, tolerance)
        anchor = (row["a0"], row["a1"])
        sentences = [(int(a), int(b)) for a, b in row["sentences"]]
        first, end = fit_window(conn, document_id, anchor, size, sentences, (int(row["lo_b"]), int(row["hi_b"])),
                                tolerance=tolerance)
        return store_window(conn, account_id, document_id, first, end, lease_seconds)
    return None


_WAITING_IN_RANGE = (
    "SELECT a.first_token, a.end_token FROM annotation a JOIN document d ON d.id = a.document_id "  # noqa: S608  # nosec B608
    "JOIN project p ON p.id = d.project_id WHERE a.document_id = %(doc)s AND a.first_token >= %(first)s "
    f"AND a.first_token < %(end)s AND a.end_token <= %(end)s AND {SUSPICIOUS_SQL} AND {UNLEASED_SQL} "
    "ORDER BY a.first_token, a.end_token DESC")


_CROSSING = ("SELECT coalesce(min(first_token) FILTER (WHERE first_token < %(first)s AND end_token > %(first)s), "
             "%(first)s) AS lo, coalesce(max(end_token) FILTER (WHERE first_token < %(end)s AND end_token > %(end)s), "
             "%(end)s) AS hi FROM annotation WHERE document_id = %(doc)s AND first_token < %(end)s "
             "AND end_token > %(first)s")


def widen_to_spans(conn, document_id: int, account_id: int, first: int, end: int, limit: int) -> tuple[int, int]:
    """``[first, end)`` widened so that no span crosses its edges, within other accounts' leases and ``limit`` tokens.

    Why: a window cut through a name ("Istanbul Administrative | Court") shows a person a fragment, and the
    fragment they mark becomes a rule of its own ("Administrative" suspicious in every document).  Span reviews
    and reading windows cut sentences, so their edges are moved out to whole spans.
    """
    row = db.query_one(_CROSSING, {"doc": document_id, "first": first, "end": end}, conn)
    lo, hi = int(row["lo"]), int(row["hi"])
    if (lo, hi) == (first, end):
        return first, end
    lo_b, hi_b = _lease_gap(conn, document_id, account_id, first, end, _token_count(conn, document_id))
    lo, hi = max(lo, lo_b), min(hi, hi_b)
    if hi - lo > limit:
        return first, end
    return lo, hi


def claim_span_review(conn, document_id: int, account_id: int, size: int, lease_seconds: int) -> Window | None:
    """Lease the account the span review of the document's first free waiting span: its sentence's waiting spans,
    each with its context, in one window (:func:`psan.tool.decisions.windows.span_review_window`); ``None``: none is
    free.

    The document's window lock is held until the caller commits (the connection leaves autocommit).
    """
    conn.autocommit = False
    lock_assignment(conn, document_id)
    # only a waiting span: a private one is masked without a person (unlike reading everything, a span review
    # is not handed out for a missing label)
    row = db.query_one(_ANCHOR_QUERIES[0], {"doc": document_id, "me": account_id}, conn)
    if row is None:
        return None
    anchor = (row["first_token"], row["end_token"])
    count = _token_count(conn, document_id)
    lo_b, hi_b = _lease_gap(conn, document_id, account_id, *anchor, count)
    sentences = _sentences(conn, document_id, anchor[0], anchor[1])
    s_first = next((f for f, e in sentences if f <= anchor[0] < e), anchor[0])
    s_end = next((e for f, e in sentences if f < anchor[1] <= e), anchor[1])
    sentence = (max(s_first, lo_b), min(s_end, hi_b))
    waiting = [(r["first_token"], r["end_token"]) for r in db.query(
        _WAITING_IN_RANGE, {"doc": document_id, "first": sentence[0], "end": sentence[1], "me": account_id}, conn)]
    first, end = span_review_window(sentence, [anchor, *waiting], size, SPAN_REVIEW_TOKENS)
    first, end = widen_to_spans(conn, document_id, account_id, first, end, max(end - first, size) + WINDOW_TOLERANCE)
    return store_window(conn, account_id, document_id, first, end, lease_seconds)


def assign_next(conn, account_id: int, is_admin: bool, size: int, lease_seconds: int) -> Window | None:
    """Give the account a new window in a random unfinished document, or ``None`` if nothing is free.

    The caller commits at once (that releases the document's window lock, if the connection was in
    a transaction: in autocommit each claim commits by itself, see :func:`claim_first_free`).  A
    document found full meanwhile is committed away (its lock released) before the next is locked:
    never two at once.
    The account's old window is replaced by the new one (the choice never counts it as taken), or
    released when nothing is free.  In a project that reviews by risk the window is a span review: the
    waiting spans of the anchor's sentence, each with its sentence or the :data:`SPAN_REVIEW_TOKENS` around it
    (:func:`claim_span_review`); the rest of its text is read where the risk model routes it
    (:mod:`psan.store.review.risk_review`).
    """
    for document_id, by_risk in _candidates(conn, account_id, is_admin):
        if by_risk:  # a span review: the sentence's waiting spans, each with its sentence or 20 tokens around it
            window = claim_span_review(conn, document_id, account_id, size, lease_seconds)
        else:
            window = claim_first_free(conn, document_id, account_id, size, lease_seconds)
        if window is not None:
            return window
        conn.commit()
    release(conn, account_id)
    return None


def document_for_admin(conn, document_id: int) -> dict[str, Any] | None:
    return db.query_one("SELECT id, project_id, token_count, status::text AS status FROM document WHERE id = %s",
                        (document_id,), conn)


def open_at(conn, account_id: int, document_id: int, start: int, size: int, lease_seconds: int,
            exact: bool = False) -> Window:
    """An admin's window at any position (sentence-aligned, starting with the sentence of ``start``).

    ``exact``: the window is ``size`` tokens from ``start`` itself, widened only so that no span crosses its
    edges (a QA reviewer reads what nobody saw of a sentence, not again what a span review showed).
    Admins are not bound by other leases (they may inspect anything), but their window is a lease
    like any other, so annotators are not handed the same text meanwhile.
    """
    lock_assignment(conn, document_id)
    count = _token_count(conn, document_id)
    start = max(0, min(start, count - 1))
    if exact:
        end = min(start + size, count)
        first, end = widen_to_spans(conn, document_id, account_id, start, end, end - start + WINDOW_TOLERANCE)
    else:
        first, end = compute_window(conn, document_id, account_id, (start, start + 1), size,
                                    centred=False, respect_leases=False)
    return store_window(conn, account_id, document_id, first, end, lease_seconds, forced=True)


# a process's first window request runs these: prepared and planned when a connection opens (ids of no row)
warm_on_open(prepared(_WINDOW_SELECT), (0,))
warm_on_open(prepared(_RENEW_WINDOW), (0, 0, 0))
for _claim in _CLAIM_QUERIES:
    warm_on_open(prepared(_claim, generic=True), {"doc": 0, "me": 0, "size": 1, "lease": 0, "tolerance": 0})
