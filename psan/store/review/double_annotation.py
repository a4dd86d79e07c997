"""Double annotation: a second, independent version of some windows, agreement, and adjudication.

How a window becomes double: when an annotator leaves a window in which they decided something, the
``window_log`` trigger (migration 0025) makes it a *double window* with the project's probability
``double_share`` and snapshots its spans (``double_span``): the rules' decision of each span when the
window was leased and the first annotator's version (what the span was decided when they left).

Independence: a second annotator (never the first) claims an open double window from their home
page and decides its spans on a page of its own; the first version is never shown to them, and
their version is stored only in ``double_span.second_decision`` -- it is never applied to the
document.  When they finish, the window is ``agreed`` or ``disagreed``.  A disagreed span that the
document would release in clear (decided or ruled public) is masked at once (token decision PRIVATE,
logged as ``double-mask``): until an admin adjudicates, the stricter version wins, so the output
invariant holds (undecided and disagreed spans never go out in clear).

Adjudication: an admin sees both versions side by side and picks, per span, the final decision; each
final decision goes through :func:`psan.store.annotation.decisions.decide` (logged as ``adjudicate``, rules and
lookup rules as for any decision), and the window becomes ``adjudicated``.

Agreement (:func:`project_agreement`) is computed by :func:`psan.tool.decisions.agreement.agreement` over every
window with both versions, on what each annotator decided (a span either left undecided is not compared).

What the second annotator sees (:func:`second_spans`): the spans of the pre-annotation as the first
annotator saw them when their lease began (snapshot of migration 0031: the rules' decision then and
the recognized category, never the first annotator's decisions, the rules or labels they made, or
entity links), cut to the second annotator's own window size exactly as on the annotate page.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db
from psan.store.annotation import actions, apply_rule, document_locks, visibility
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.decisions import Scope, Span
from psan.store.annotation.window_content import span_text
from psan.tool.decisions.agreement import Agreement, DoubleWindow, PrivateSpan, agreement

#: a claim by a second annotator who did not finish within this many minutes may be taken by another
CLAIM_MINUTES = 60
#: states in which both versions exist (agreement counts them)
COMPARED = ("agreed", "disagreed", "adjudicated")

_CLAIMABLE = (
    "(x.state = 'open' OR (x.state = 'second' AND x.second_at < now() - make_interval(mins => %(claim)s))) "
    "AND x.first_account IS DISTINCT FROM %(me)s "
    "AND (%(admin)s OR EXISTS (SELECT 1 FROM project_member m WHERE m.project_id = x.project_id "
    "AND m.account_id = %(me)s)) "
    # the claimant's window size (psan.store.annotation.visibility): a window wider than it is offered only when
    # no span the second annotator must decide lies wholly in the middle that the size elides
    "AND (%(size)s::int IS NULL OR x.end_token - x.first_token <= %(size)s::int + %(tolerance)s "
    "OR NOT EXISTS (SELECT 1 FROM double_span s WHERE s.double_window_id = x.id AND s.preannotated "
    "AND s.first_token >= x.first_token + greatest(1, %(size)s::int / 2) "
    "AND s.end_token <= x.end_token - greatest(1, %(size)s::int / 2)))")


def _claim_params(account_id: int, is_admin: bool, size: int | None) -> dict[str, Any]:
    return {"me": account_id, "admin": is_admin, "claim": CLAIM_MINUTES, "size": size,
            "tolerance": visibility.WINDOW_TOLERANCE}


class DoubleError(ValueError):
    """A second version or an adjudication that cannot be saved; the message is for the person."""


def waiting(conn, account_id: int, is_admin: bool, size: int | None) -> int:
    """How many double windows the account could annotate second, in any of its projects.

    Not only in the project it chose for its own windows: the offer of a second annotation vanished when an
    annotator chose another project, while the adjudication list kept waiting for those windows.

    ``size``: the account's window size, which caps what it may be shown (``None``: no cap, admins).
    """
    row = db.query_one(f"SELECT count(*) AS n FROM double_window x WHERE {_CLAIMABLE}",  # noqa: S608  # nosec B608
                       _claim_params(account_id, is_admin, size), conn)
    return int(row["n"])


def claim(conn, account_id: int, is_admin: bool, size: int | None) -> int | None:
    """The account's unfinished second window, else the oldest claimable one, now claimed; ``None``: none.

    ``size`` as for :func:`waiting`: a window wider than the claimant may see is never offered to them.
    """
    mine = db.query_one("SELECT id FROM double_window WHERE second_account = %s AND state = 'second' "
                        "AND second_at >= now() - make_interval(mins => %s) ORDER BY id LIMIT 1",
                        (account_id, CLAIM_MINUTES), conn)
    if mine:
        return int(mine["id"])
    row = db.query_one(
        "UPDATE double_window SET state = 'second', second_account = %(me)s, second_at = now() "  # noqa: S608  # nosec B608
        f"WHERE id = (SELECT x.id FROM double_window x WHERE {_CLAIMABLE} ORDER BY x.id LIMIT 1 "
        "FOR UPDATE SKIP LOCKED) RETURNING id", _claim_params(account_id, is_admin, size), conn)
    return int(row["id"]) if row else None


def get(conn, double_id: int) -> dict[str, Any] | None:
    return db.query_one(
        "SELECT x.*, d.name AS document_name, p.name AS project_name, a1.email AS first_email, "
        "a2.email AS second_email FROM double_window x JOIN document d ON d.id = x.document_id "
        "JOIN project p ON p.id = x.project_id LEFT JOIN account a1 ON a1.id = x.first_account "
        "LEFT JOIN account a2 ON a2.id = x.second_account WHERE x.id = %s", (double_id,), conn)


def second_window(conn, double_id: int, account_id: int) -> dict[str, Any] | None:
    """The double window if the account holds its claim now (else ``None``: it may see nothing of it)."""
    row = get(conn, double_id)
    if row is None or row["second_account"] != account_id or row["state"] != "second":
        return None
    return row


def spans(conn, double_id: int) -> list[dict[str, Any]]:
    return db.query("SELECT first_token, end_token, category, auto_decision::text AS auto_decision, "
                    "first_decision::text AS first_decision, second_decision::text AS second_decision, "
                    "final_decision::text AS final_decision, preannotated FROM double_span WHERE double_window_id = %s "
                    "ORDER BY first_token, end_token", (double_id,), conn)


def second_spans(window: dict[str, Any], window_spans: list[dict[str, Any]],
                 size: int | None) -> list[dict[str, Any]]:
    """The spans the second annotator decides: those of the pre-annotation they may be shown.

    Never a span the first annotator made (it would show their decision), never one lying wholly in
    the middle that the annotator's window size elides (:mod:`psan.store.annotation.visibility`).
    """
    elided = visibility.elided_range(window["first_token"], window["end_token"], size)
    return [s for s in window_spans
            if s["preannotated"] and not visibility.hidden_span(s["first_token"], s["end_token"], elided)]


def segments(conn, window: dict[str, Any], window_spans: list[dict[str, Any]],
             size: int | None = None) -> list[dict[str, Any]]:
    """The window's text cut into pieces, each outside any span or inside one (``span``: its index).

    ``size``: the reader's window size; a window wider than it loses its middle exactly as on the annotate
    page (:mod:`psan.store.annotation.visibility`), as one piece with ``elided: True`` and no text; that
    text is never read.  ``None``: the whole window (admins).
    """
    elided = visibility.elided_range(window["first_token"], window["end_token"], size)
    out: list[dict[str, Any]] = []
    for n, (first, end) in enumerate(visibility.shown_parts(window["first_token"], window["end_token"], elided)):
        if n:
            out.append({"text": "", "span": None, "elided": True})
        out += _part_segments(conn, window["document_id"], first, end, window_spans)
    return out


def _part_segments(conn, document_id: int, first: int, end: int,
                   window_spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`segments` of one shown token range; a span crossing its edge is marked up to the edge."""
    tokens = db.query("SELECT idx, start_char, end_char FROM token WHERE document_id = %s AND idx >= %s "
                      "AND idx < %s ORDER BY idx", (document_id, first, end), conn)
    if not tokens:
        return []
    base = tokens[0]["start_char"]
    text = db.query_one("SELECT substr(text, %s, %s) AS t FROM document WHERE id = %s",
                        (base + 1, tokens[-1]["end_char"] - base, document_id), conn)["t"]
    start_of = {t["idx"]: t["start_char"] - base for t in tokens}
    end_of = {t["idx"]: t["end_char"] - base for t in tokens}
    out, pos = [], 0
    for i, s in enumerate(window_spans):  # spans of one window do not overlap in practice; overlaps are shown once
        a, b = start_of.get(max(s["first_token"], first)), end_of.get(min(s["end_token"], end) - 1)
        if a is None or b is None or a < pos:
            continue
        out.append({"text": text[pos:a], "span": None})
        out.append({"text": text[a:b], "span": i})
        pos = b
    out.append({"text": text[pos:], "span": None})
    return out


def _version(decision: str | None) -> str:
    """A version's decision of a span as the output treats it (undecided is masked: private)."""
    return decision or "PRIVATE"


def save_second(conn, double_id: int, account_id: int, decisions: dict[tuple[int, int], str],
                size: int | None = None) -> str:
    """Store the second version and finish the window: ``agreed`` or ``disagreed`` (masking disagreements).

    Only the spans the annotator may be shown (:func:`second_spans`, ``size`` their window size) may be
    decided, and those the pre-annotation left undecided must be.  A span without a decision is stored
    undecided (never the rules' decision, never the first version): for the output it is private, so it
    disagrees with a first version that made it public.
    """
    from flask_babel import gettext
    rows = spans(conn, double_id)
    window = get(conn, double_id)
    shown = second_spans(window, rows, size)
    known = {(r["first_token"], r["end_token"]) for r in shown}
    if any(k not in known or v not in ("PUBLIC", "PRIVATE") for k, v in decisions.items()):
        raise DoubleError(gettext("Decide only the spans of this window, public or private."))
    if any(r["auto_decision"] is None and (r["first_token"], r["end_token"]) not in decisions for r in shown):
        raise DoubleError(gettext("Decide every highlighted span first."))
    document_locks.lock_document(conn, window["document_id"])
    disagreed = []
    for r in rows:
        key = (r["first_token"], r["end_token"])
        second = decisions.get(key)
        db.execute("UPDATE double_span SET second_decision = %s::decision WHERE double_window_id = %s "
                   "AND first_token = %s AND end_token = %s", (second, double_id, *key), conn)
        if _version(r["first_decision"]) != _version(second):
            disagreed.append(key)
    if disagreed:
        # an action of nobody: no annotator can undo the mask, and it blocks undoing the first
        # annotator's decisions of these spans (a later action changed them) until adjudication
        actions.begin(conn, window["project_id"], None, "double-mask", window["document_id"],
                      detail={"double_window": double_id})
    for first, end in disagreed:
        _mask(conn, window, first, end, account_id)
    actions.pause(conn)
    state = "disagreed" if disagreed else "agreed"
    db.execute("UPDATE double_window SET state = %s, second_done_at = now() WHERE id = %s", (state, double_id), conn)
    apply_rule.refresh_document_status(conn, window["document_id"])
    return state


def _mask(conn, window: dict[str, Any], first: int, end: int, account_id: int) -> None:
    """Make a disagreed span private in the document unless it already is (logged; adjudication decides)."""
    current = db.query_one(
        "SELECT a.token_decision::text AS token_decision, a.rule_level <= p.private_threshold AS ruled_private "
        "FROM annotation a JOIN project p ON p.id = %s WHERE a.document_id = %s AND a.first_token = %s "
        "AND a.end_token = %s", (window["project_id"], window["document_id"], first, end), conn)
    decided = current["token_decision"] if current else None
    if current and (decided == "PRIVATE" or (decided is None and current["ruled_private"])):
        return
    span = Span(window["project_id"], window["document_id"], first, end)
    store_decisions.set_token_decision(conn, span, "PRIVATE", None, account_id)
    store_decisions.log_decision(conn, span, account_id, "double-mask", "PRIVATE",
                                 detail={"double_window": window["id"]})


def to_adjudicate(conn, project_id: int) -> list[dict[str, Any]]:
    """The project's disagreed double windows, oldest first, with how many spans differ."""
    return db.query(
        "SELECT x.id, x.document_id, d.name AS document_name, x.first_token, x.end_token, x.second_done_at, "
        "a1.email AS first_email, a2.email AS second_email, (SELECT count(*) FROM double_span s "
        "WHERE s.double_window_id = x.id AND coalesce(s.first_decision, 'PRIVATE') <> "
        "coalesce(s.second_decision, 'PRIVATE')) AS differing "
        "FROM double_window x JOIN document d ON d.id = x.document_id LEFT JOIN account a1 ON a1.id = x.first_account "
        "LEFT JOIN account a2 ON a2.id = x.second_account WHERE x.project_id = %s AND x.state = 'disagreed' "
        "ORDER BY x.id", (project_id,), conn)


def counts(conn, project_id: int) -> dict[str, int]:
    rows = db.query("SELECT state, count(*) AS n FROM double_window WHERE project_id = %s GROUP BY 1",
                    (project_id,), conn)
    return {r["state"]: int(r["n"]) for r in rows}


def adjudicate(conn, double_id: int, account_id: int, finals: dict[tuple[int, int], str]) -> int:
    """Apply the admin's final decision of every span (each through the decision store); the number decided.

    Every span the versions disagree on needs a final decision; other spans keep the agreed version
    unless the admin gives one.  The caller schedules the project's re-annotation if rules changed.
    """
    from flask_babel import gettext
    window = get(conn, double_id)
    if window is None or window["state"] != "disagreed":
        raise DoubleError(gettext("This window does not wait for adjudication."))
    rows = spans(conn, double_id)
    if any(v not in ("PUBLIC", "PRIVATE") for v in finals.values()):
        raise DoubleError(gettext("A final decision must be public or private."))
    document_locks.lock_document(conn, window["document_id"])
    actions.begin(conn, window["project_id"], account_id, "adjudicate", window["document_id"], window["first_token"],
                  window["end_token"], detail={"double_window": double_id})
    merged = store_decisions.Outcome(annotation_id=0)
    decided = 0
    for r in rows:
        key = (r["first_token"], r["end_token"])
        first, second = _version(r["first_decision"]), _version(r["second_decision"])
        final = finals.get(key)
        if final is None and first != second:
            raise DoubleError(gettext("Choose the final decision of every span the versions disagree on."))
        if final is None:
            continue
        span = Span(window["project_id"], window["document_id"], *key)
        tokens = span_text(conn, window["document_id"], *key)
        merged.add(store_decisions.decide(conn, span, Scope.TOKEN, final, account_id, tokens,
                                          log_action="adjudicate",
                                          log_detail={"scope": "token", "double_window": double_id}))
        db.execute("UPDATE double_span SET final_decision = %s::decision WHERE double_window_id = %s "
                   "AND first_token = %s AND end_token = %s", (final, double_id, *key), conn)
        decided += 1
    if merged.changes_spans:
        apply_rule.apply_new_rules(conn, window["document_id"], merged.changed_rule_ids + merged.removed_rule_ids,
                                   affected_annotation_ids=merged.affected_annotation_ids, refresh_status=False,
                                   covering=merged.covering, uncovered=merged.uncovered)
    apply_rule.refresh_document_status(conn, window["document_id"])
    db.execute("UPDATE double_window SET state = 'adjudicated', adjudicated_by = %s, adjudicated_at = now() "
               "WHERE id = %s", (account_id, double_id), conn)
    return decided


def project_agreement(conn, project_id: int) -> tuple[int, dict[str, Agreement]]:
    """(windows compared, agreement per category) over the project's windows with both versions.

    Computed on what each annotator decided: a span either version left undecided (or the second
    annotator was never shown) is compared in neither version, so nobody agrees by default.
    """
    rows = db.query(
        "SELECT x.id, x.document_id, x.first_token AS w_first, x.end_token AS w_end, s.first_token, s.end_token, "
        "s.category, s.first_decision::text AS first_decision, s.second_decision::text AS second_decision "
        "FROM double_window x LEFT JOIN double_span s ON s.double_window_id = x.id "
        "WHERE x.project_id = %s AND x.state IN ('agreed', 'disagreed', 'adjudicated') ORDER BY x.id",
        (project_id,), conn)
    windows: dict[int, tuple[dict[str, Any], list[PrivateSpan], list[PrivateSpan]]] = {}
    for r in rows:
        w = windows.setdefault(r["id"], (r, [], []))
        if r["first_token"] is None or r["first_decision"] is None or r["second_decision"] is None:
            continue
        span = PrivateSpan(r["first_token"], r["end_token"], r["category"])
        if r["first_decision"] == "PRIVATE":
            w[1].append(span)
        if r["second_decision"] == "PRIVATE":
            w[2].append(span)
    doubles = [DoubleWindow(r["document_id"], r["w_first"], r["w_end"], a, b) for r, a, b in windows.values()]
    return len(doubles), agreement(doubles)
