"""Targeted re-annotation: apply only the rules a decision created, changed or deleted to one document.

Why: :func:`psan.store.corpus.reannotate.reannotate_document_now` loads the whole document and matches every
rule of the project – about a second for 10^5 tokens and ten for 10^6 – while a decision must answer
in well under 200 ms on a 10^6-token document.  A decision touches one or two rules, and the rest of
the document's annotations are already consistent with the other rules, so it is enough to

* find the occurrences of the changed rules only: a WORD_TYPE condition's rarest token is looked up
  in the document's token index (:meth:`psan.store.corpus.document_text.DocumentText.occurrences`, cached
  per process) and each candidate is verified token by token, exactly as :mod:`psan.tool.decisions.rules`
  compares tokens (same case folding, never across a sentence boundary – the segments come from
  :func:`psan.tool.decisions.rules.sentence_segments`); an NE_TYPE rule's spans are its entities (SQL);
* replace that rule's links (``annotation_rule``) of the document by the new matches, set-based;
* recompute ``rule_level`` only of the annotations whose links changed (or whose rules' confidence
  changed) as the sum of their rules' confidences in rule-id order (the order in which the full path
  sums them, so the doubles are bit-identical), and delete rule-only annotations left without rules.

Invariant relied upon (and kept): every annotation's links and level equal what the full path
computes for all rules *except* the ones passed in.  The result then equals a full re-annotation
(``tests/store/test_apply_rule.py`` compares both on several documents and rule kinds).

Deleted rules: their links vanish with them (foreign key cascade), so the annotations they touched
must be noted before the delete – :func:`rule_footprint`.  Without that note, and for kinds that
need the whole document (LEMMA: the lemmatizer runs over all tokens), or for a document that was
never fully annotated (RECOGNIZED), the full path runs instead: slower, never wrong.

Concurrency: the caller holds a lock of :mod:`psan.store.annotation.document_locks` – the whole document, or
(``words_locked=True``) the words of the changed rules, where decisions on other words of the same
document run at the same time; what needs the whole document (the full path) then raises
:class:`NeedsWholeDocument` instead.  Without a lock held, the document is locked whole here.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.store.admin.rules import blocking_of, condition_from_text
from psan.store.corpus.document_text import DocumentText, document_text
from psan.store.corpus.rule_changes import MARK_APPLIED
from psan.store.shared.document_status import ANNOTATABLE, ANNOTATED, ANNOTATED_SQL, STATUS_FROM_SPANS_SQL
from psan.tool.decisions.rules import RULE_KINDS, RuleType

__all__ = ["apply_new_rules", "rule_footprint", "refresh_document_status", "status_read", "find_word_type_matches",
           "prefetch_word_type_matches", "NeedsWholeDocument"]


class NeedsWholeDocument(RuntimeError):
    """Applying these rules needs the full re-annotation, which a lock on some words does not allow."""

#: the status a document deserves (as psan.store.corpus.reannotate), written only when it changes, so a
#: decision that changes nothing does not take the document row's lock for the rest of its request
_REFRESH_STATUS = (
    "WITH s AS (SELECT d.id, " + STATUS_FROM_SPANS_SQL + " AS status "  # noqa: S608  # nosec B608
    "FROM document d WHERE d.id = %(doc)s AND d.status IN " + ANNOTATED_SQL + "), "
    "u AS (UPDATE document d SET status = s.status, updated_at = now() FROM s WHERE d.id = s.id "
    "AND d.status <> s.status RETURNING d.id) "
    "SELECT coalesce((SELECT status::text FROM s), (SELECT status::text FROM document WHERE id = %(doc)s)) AS status")


# --- the text search (text and token offsets come from psan.store.corpus.document_text's per-process cache) ----
#: matches of recent conditions: (document id, recognized_at, condition, case sensitive) -> spans
MATCH_CACHE_SIZE = 4096
_matches: OrderedDict[tuple[int, Any, tuple[str, ...], bool], list[tuple[int, int]]] = OrderedDict()
_matches_lock = threading.Lock()


def prefetch_word_type_matches(conn, document_id: int, condition: Sequence[str], case_sensitive: bool = True,
                               stamp: Any = None) -> None:
    """Search a condition *before* the document lock is taken, so the locked part only writes.

    Why: the search (building the document's token index the first time) needs no lock – text and
    tokens change only with a new recognition, which changes ``recognized_at`` and so the cache key
    (``stamp``, if the caller has it).
    """
    find_word_type_matches(conn, document_id, condition, case_sensitive, document_text(conn, document_id, stamp))


def find_word_type_matches(conn, document_id: int, condition: Sequence[str], case_sensitive: bool = True,
                           searchable: DocumentText | None = None) -> list[tuple[int, int]]:
    """Token ranges ``[first, end)`` where a WORD_TYPE condition matches, as :class:`RuleSet` finds them.

    The condition's rarest token is looked up in the document's token index; each occurrence is a
    candidate start, verified on the stored tokens.
    """
    n = len(condition)
    doc = searchable or document_text(conn, document_id)
    if doc is None or n == 0 or doc.token_count < n:
        return []
    key = (document_id, doc.stamp, tuple(condition), bool(case_sensitive))
    if doc.stamp is not None:
        with _matches_lock:
            hit = _matches.get(key)
            if hit is not None:
                _matches.move_to_end(key)
                return list(hit)
    matches = _search(conn, document_id, condition, case_sensitive, doc)
    if doc.stamp is not None:
        with _matches_lock:
            _matches[key] = matches
            while len(_matches) > MATCH_CACHE_SIZE:
                _matches.popitem(last=False)
    return list(matches)


def _search(conn, document_id: int, condition: Sequence[str], case_sensitive: bool,
            doc: DocumentText) -> list[tuple[int, int]]:
    """The uncached search of :func:`find_word_type_matches` (no SQL: text and offsets are cached)."""
    n = len(condition)
    fold = not case_sensitive
    wanted = [t.casefold() for t in condition] if fold else list(condition)
    # look up the rarest token of the condition (surnames, not "Jan" or "."), then verify the rest
    k = min(range(n), key=lambda i: (doc.count(wanted[i], fold), -len(wanted[i]), i))
    firsts = [i - k for i in doc.occurrences(wanted[k], fold) if 0 <= i - k and i - k + n <= doc.token_count]
    matches: list[tuple[int, int]] = []
    for f in firsts:
        if not doc.same_segment(f, f + n):
            continue
        for i in range(n):
            token = doc.token(f + i)
            if (token.casefold() if fold else token) != wanted[i]:
                break
        else:
            matches.append((f, f + n))
    return matches


# --- the rule level in SQL: psan.tool.decisions.precedence.rule_level, row by row
# ---------------------------------------
#: a public word rule a person authored, on words without a digit (persons_public_words)
_PERSONS_PUBLIC_WORDS = ("(rule_type IN ('WORD_TYPE', 'LEMMA') AND author_id IS NOT NULL AND confidence > 0 "
                         "AND condition !~ '[0-9]')")
#: a word rule at 0, the lookup of a span decided private (asks_a_person)
_ASKS_A_PERSON = "(rule_type IN ('WORD_TYPE', 'LEMMA') AND confidence = 0)"
#: an NE type on whose spans no precedence is given (the ruleset's ``blocking``)
_BLOCKS = "(rule_type = 'NE_TYPE' AND condition = ANY(%(blocking)s::text[]))"
#: the votes summed in rule-id order, without the unauthored private NE-type ones where ``outranked``
_SUM = ("coalesce(sum(confidence ORDER BY rule_id) FILTER (WHERE NOT (outranked AND rule_type = 'NE_TYPE' "
        "AND author_id IS NULL AND confidence < 0)), 0)")
#: ... never above 0 where a lookup matched
_LEVEL = f"CASE WHEN bool_or{_ASKS_A_PERSON} THEN least({_SUM}, 0) ELSE {_SUM} END"


# --- writing ------------------------------------------------------------------------------------------------
# The new matches enter the statement below as a relation of three parallel arrays, ``unnest(…) AS m``
# (no temporary table: its DDL and TRUNCATE cost more than the few rows a decision usually has).
#
# One statement does what took six (insert new annotations, relink, relevel): every round trip made
# while a lock is held is time the annotators waiting for it wait too (under load a round trip is a
# context switch to a busy CPU, ~1 ms), so the lock is held for as few as possible.
# (``gone`` and ``added`` are not read: a data-modifying CTE runs whether it is read or not.)
# ``gone`` is a set difference (hashed), not ``NOT EXISTS`` on ``ma``: the planner, expecting a few
# rows from the CTE, checked every old link against every match (3.6 of 6.5 ms for 164 matches).
# All its parts see one snapshot, so each annotation's level is computed from its *virtual* links:
# the snapshot's links to rules other than the changed ones plus the new matches (exactly the links
# the statement leaves), summed in rule-id order as the full path sums them (bit-identical doubles).
# New annotations get their level when inserted (an UPDATE cannot see rows its own statement inserts).
# ``lr`` locks the changed rules (key share) before their links are written: a rule another transaction is
# deleting is waited for and then left out, never linked (a foreign key violation, a 500, before).
# ``mx`` leaves out a match a span a person decided private covers (psan.tool.decisions.rules.drop_covered): a cover
# holds the match's first token, so it starts at most ``longest`` tokens before it (a range of the index).
# ``marked``: this document is up to date with this transaction's changes of the rules, so the project run
# leaves it out for them (psan.store.corpus.rule_changes.MARK_APPLIED, inlined to save a round trip).
# The placeholders PERSON, BLOCKS and LEVEL are replaced by the constant SQL fragments above (no input).
_WRITE_MATCHES = (  # noqa: S608  # nosec B608
    """
WITH m AS (
    SELECT * FROM unnest(%(m_rule)s::bigint[], %(m_first)s::integer[], %(m_end)s::integer[])
        AS m(rule_id, first_token, end_token)),
lr AS (SELECT id, confidence, type::text AS rule_type, author_id, condition FROM rule WHERE id = ANY(%(rules)s)
    FOR KEY SHARE),
longest AS (
    SELECT coalesce(max(end_token - first_token), 0) AS n FROM annotation
    WHERE document_id = %(doc)s AND token_decision = 'PRIVATE'),
mx AS (
    SELECT m.*, r.confidence, r.rule_type, r.author_id, r.condition, a.id AS annotation_id
    FROM m JOIN lr r ON r.id = m.rule_id
    LEFT JOIN annotation a ON a.document_id = %(doc)s AND a.first_token = m.first_token
        AND a.end_token = m.end_token
    WHERE a.token_decision IS NOT NULL OR NOT EXISTS (
        SELECT 1 FROM annotation c WHERE c.document_id = %(doc)s AND c.token_decision = 'PRIVATE'
        AND c.first_token BETWEEN m.first_token - (SELECT n FROM longest) AND m.first_token
        AND c.end_token >= m.end_token AND c.end_token - c.first_token > m.end_token - m.first_token)),
mxr AS (
    SELECT mx.*, bool_or(PERSON) OVER w AND NOT bool_or(BLOCKS) OVER w AS outranked FROM mx
    WHERE annotation_id IS NULL WINDOW w AS (PARTITION BY first_token, end_token)),
fresh AS (
    SELECT first_token, end_token, LEVEL AS level FROM mxr GROUP BY first_token, end_token),
ins AS (
    INSERT INTO annotation (document_id, first_token, end_token, rule_level)
    SELECT %(doc)s, first_token, end_token, level FROM fresh ORDER BY first_token, end_token
    ON CONFLICT (document_id, first_token, end_token) DO NOTHING RETURNING id, first_token, end_token),
ma AS (SELECT annotation_id, rule_id, confidence, rule_type, author_id, condition FROM mx
    WHERE annotation_id IS NOT NULL),
old AS (
    SELECT ar.annotation_id, ar.rule_id FROM annotation_rule ar JOIN annotation a ON a.id = ar.annotation_id
    WHERE ar.rule_id = ANY(%(rules)s) AND a.document_id = %(doc)s),
gone AS (
    DELETE FROM annotation_rule ar USING (
        SELECT annotation_id, rule_id FROM old EXCEPT SELECT annotation_id, rule_id FROM ma) stale
    WHERE ar.annotation_id = stale.annotation_id AND ar.rule_id = stale.rule_id
    RETURNING ar.annotation_id),
added AS (
    INSERT INTO annotation_rule (annotation_id, rule_id)
    SELECT annotation_id, rule_id FROM ma
    UNION ALL SELECT ins.id, mx.rule_id FROM ins JOIN mx ON mx.first_token = ins.first_token
        AND mx.end_token = ins.end_token
    ON CONFLICT DO NOTHING RETURNING annotation_id),
touched AS (
    SELECT annotation_id AS id FROM old UNION SELECT annotation_id FROM ma
    UNION SELECT unnest(%(affected)s::bigint[])),
virtual AS (
    SELECT ar.annotation_id, ar.rule_id, r.confidence, r.type::text AS rule_type, r.author_id, r.condition
    FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id
    WHERE ar.annotation_id IN (SELECT id FROM touched) AND ar.rule_id <> ALL(%(rules)s)
    UNION ALL SELECT annotation_id, rule_id, confidence, rule_type, author_id, condition FROM ma),
ranked AS (
    SELECT v.*, bool_or(PERSON) OVER w AND NOT bool_or(BLOCKS) OVER w AS outranked FROM virtual v
    WINDOW w AS (PARTITION BY annotation_id)),
summed AS (
    SELECT annotation_id, LEVEL AS level FROM ranked GROUP BY annotation_id),
level AS (
    SELECT t.id, coalesce(summed.level, 0) AS level, summed.annotation_id IS NOT NULL AS linked
    FROM touched t LEFT JOIN summed ON summed.annotation_id = t.id),
upd AS (
    UPDATE annotation a SET rule_level = level.level FROM level
    WHERE a.id = level.id AND a.document_id = %(doc)s AND a.rule_level IS DISTINCT FROM level.level
    RETURNING a.id),
marked AS (
    UPDATE rule_change SET applied_document_id = %(doc)s WHERE project_id = %(project)s
    AND rule_id = ANY(%(changed)s::bigint[]) AND xact = txid_current())
SELECT (SELECT count(*) FROM ins) + (SELECT count(*) FROM upd) AS changed,
       ARRAY(SELECT id FROM level WHERE NOT linked) AS unlinked
""").replace("PERSON", _PERSONS_PUBLIC_WORDS).replace("BLOCKS", _BLOCKS).replace("LEVEL", _LEVEL)
#: the rules' spans strictly inside spans a person just decided private: covered now (drop_covered), gone as
#: the full path leaves them (a span a person decided, or whose lookup rule is its own, stays)
#: the undecided rule-only spans strictly inside the spans ``c_first``/``c_end`` just decided private
COVERED_SPANS_SQL = (
    "SELECT a.id FROM annotation a JOIN unnest(%(c_first)s::integer[], %(c_end)s::integer[]) AS c(f, e) "
    "ON a.first_token >= c.f AND a.first_token < c.e AND a.end_token <= c.e "  # a range of the undecided index
    "AND a.end_token - a.first_token < c.e - c.f "
    "WHERE a.document_id = %(doc)s AND a.token_decision IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM rule r WHERE r.annotation_id = a.id)")


#: the document with the changed rules that still exist, in one round trip, by ``words_locked``: the row
#: lock (``FOR UPDATE`` when the caller holds no lock, ``FOR KEY SHARE`` under a lock of some words);
#: ``elsewhere``: a lookup rule bound to another document (``rule.document_only``), which matches nothing here
_DOCUMENT_AND_RULES_SELECT = (  # nosec B608 - COVERED is the constant fragment above
    "SELECT d.status::text AS status, d.project_id, d.recognized_at, coalesce((SELECT json_agg(json_build_object("
    "'id', r.id, 'type', r.type::text, 'condition', r.condition, 'case_sensitive', r.case_sensitive, "
    "'elsewhere', r.document_only AND (SELECT a.document_id FROM annotation a WHERE a.id = r.annotation_id) "
    "IS DISTINCT FROM d.id) ORDER BY r.id) "
    "FROM rule r WHERE r.id = ANY(%(ids)s::bigint[]) AND r.project_id = d.project_id), '[]') AS rules, "
    # the project's sensitive types and NE-type rules (for blocking_of), in the same round trip
    "(SELECT p.sensitive_types FROM project p WHERE p.id = d.project_id) AS sensitive_types, "
    "ARRAY(SELECT DISTINCT r.condition FROM rule r WHERE r.project_id = d.project_id AND r.type = 'NE_TYPE') "
    "AS ne_type_rules, "
    # whether spans just decided private cover rule spans (_drop_covered), in the same round trip
    "EXISTS (COVERED) AS covers "
    "FROM document d WHERE d.id = %(doc)s ").replace("COVERED", COVERED_SPANS_SQL)
_DOCUMENT_AND_RULES = {False: _DOCUMENT_AND_RULES_SELECT + "FOR UPDATE OF d",
                       True: _DOCUMENT_AND_RULES_SELECT + "FOR KEY SHARE OF d"}
#: rule-only annotations left without any rule (after :data:`_WRITE_MATCHES`) disappear
_DELETE_UNLINKED = (
    "DELETE FROM annotation a WHERE a.id = ANY(%(ids)s) AND a.document_id = %(doc)s AND a.token_decision IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM annotation_rule ar WHERE ar.annotation_id = a.id) "
    "AND NOT EXISTS (SELECT 1 FROM rule r WHERE r.annotation_id = a.id)")


_DELETE_COVERED = "DELETE FROM annotation WHERE id IN (" + COVERED_SPANS_SQL + ")"  # noqa: S608  # nosec B608


def _drop_covered(conn, document_id: int, covering: list[tuple[int, int]], words_locked: bool) -> int:
    """Delete the rules' spans inside the newly private ``covering`` spans; raise if they need the whole lock.

    Why the whole lock: such a span holds other words than the decision's (a recognized "Harper" inside a
    hand-marked "Jonathan Harper"), which a decision on those words may be linking right now.
    """
    if words_locked:
        raise NeedsWholeDocument(document_id)
    params = {"doc": document_id, "c_first": [f for f, _ in covering], "c_end": [e for _, e in covering]}
    return db.execute(prepared(_DELETE_COVERED), params, conn)


def rule_footprint(conn, document_id: int, rule_ids: Iterable[int]) -> list[int]:
    """Ids of the document's annotations linked to the rules: note them *before* deleting the rules."""
    ids = [int(i) for i in rule_ids]
    if not ids:
        return []
    return [r["annotation_id"] for r in db.query(
        "SELECT DISTINCT ar.annotation_id FROM annotation_rule ar JOIN annotation a ON a.id = ar.annotation_id "
        "WHERE ar.rule_id = ANY(%s) AND a.document_id = %s", (ids, document_id), conn)]


def refresh_document_status(conn, document_id: int) -> str | None:
    """PRE_ANNOTATED while a suspicious span is undecided, else DONE; the row is written only on a change."""
    row = db.query_one(prepared(_REFRESH_STATUS), {"doc": document_id}, conn)
    return row["status"] if row else None


def status_read(conn, document_id: int) -> db.Read:
    """:func:`refresh_document_status` with the connection's next round trip: the refresh is deferred
    (:func:`psan.runtime.db.defer`), the returned read (for :func:`psan.runtime.db.read_together`) gives the
    status it left (``status``)."""
    db.defer(_REFRESH_STATUS, {"doc": document_id}, conn)
    return "SELECT status::text AS status FROM document WHERE id = %(doc)s", {"doc": document_id}


def _full_path(conn, document_id: int) -> int:
    from psan.store.corpus.reannotate import reannotate_document_now
    result = reannotate_document_now(conn, document_id)
    return result.matches if result else 0


def _fallback(conn, document_id: int, project_id: int, rule_ids: list[int], words_locked: bool) -> int:
    """The full path, allowed only under the whole-document lock."""
    if words_locked:
        raise NeedsWholeDocument(document_id)
    matches = _full_path(conn, document_id)
    db.execute(MARK_APPLIED, {"doc": document_id, "project": project_id, "changed": rule_ids}, conn)
    return matches


def _active(rule: dict[str, Any], shadowed_ne_types: set[str]) -> bool:
    """Whether the full path would match this rule at all (see :func:`psan.store.admin.rules.load_rules`)."""
    if rule["type"] not in RULE_KINDS:
        return False  # PATTERN/MODEL: no compiler yet, ignored by the full path too
    if rule["type"] == RuleType.NE_TYPE.value:
        return rule["condition"] not in shadowed_ne_types
    return bool(condition_from_text(rule["condition"]))


def apply_new_rules(conn, document_id: int, rule_ids: Iterable[int], *,
                    affected_annotation_ids: Iterable[int] = (), refresh_status: bool = True,
                    words_locked: bool = False, covering: Iterable[tuple[int, int]] = (),
                    uncovered: bool = False,
                    known: tuple[dict[str, Any], list[dict[str, Any]]] | None = None) -> int:
    """Bring one document up to date with created, changed or deleted rules, in ``conn``'s transaction.

    ``rule_ids`` are the rules that changed: existing ones are (re-)matched, missing ones count as
    deleted.  For deleted rules pass ``affected_annotation_ids`` (from :func:`rule_footprint`
    before the delete), otherwise the whole document is re-annotated.  Returns how many annotation
    rows were inserted, updated or deleted (for a fallback to the full path: its match count).
    Missing, NEW and FAILED documents are left alone (0).  ``refresh_status=False``: the caller
    calls :func:`refresh_document_status` itself afterwards (once, not twice per decision).
    ``words_locked``: the caller holds :func:`psan.store.annotation.document_locks.lock_words` for the rules'
    words, not the whole document; a fallback to the full path raises :class:`NeedsWholeDocument`.
    ``covering``: spans just decided private, whose rules' spans inside are covered now (removed);
    ``uncovered``: a private decision on a span of several tokens was taken back, so what it covered is
    matched again (by the full path: such a change is rare, and only the full path knows every rule).
    ``known``: the document (``status``, ``project_id``, ``recognized_at``, ``sensitive_types``,
    ``ne_type_rules``, and ``covers`` for the spans ``covers_for``) as read in this transaction under the caller's
    lock, and every changed rule that still exists as written in it (keys of :data:`_DOCUMENT_AND_RULES`' rules):
    then nothing is read again.
    """
    ids = sorted({int(i) for i in rule_ids})
    affected = {int(i) for i in affected_annotation_ids}
    covering = sorted({(int(f), int(e)) for f, e in covering if e - f > 1})
    if known is not None and (not covering or known[0].get("covers_for") == covering):
        row = dict(known[0], rules=sorted((r for r in known[1] if r["id"] in ids), key=lambda r: r["id"]))
    else:
        row = db.query_one(prepared(_DOCUMENT_AND_RULES[words_locked]),
                           {"doc": document_id, "ids": ids, "c_first": [f for f, _ in covering],
                            "c_end": [e for _, e in covering]}, conn)
    if row is None or row["status"] not in ANNOTATABLE:
        return 0
    if not ids and not affected and not covering and not uncovered:
        return 0
    if row["status"] not in ANNOTATED or uncovered:
        return _fallback(conn, document_id, row["project_id"], ids, words_locked)
    dropped = _drop_covered(conn, document_id, covering, words_locked) if row["covers"] else 0
    if not ids and not affected:
        if dropped and refresh_status:
            refresh_document_status(conn, document_id)
        return dropped
    rules = row["rules"]
    deleted = set(ids) - {r["id"] for r in rules}
    if (deleted and not affected) or any(r["type"] == RuleType.LEMMA.value for r in rules):
        return _fallback(conn, document_id, row["project_id"], ids, words_locked)
    ne_types = [r["condition"] for r in rules if r["type"] == RuleType.NE_TYPE.value]
    shadowed = {r["condition"] for r in db.query(
        prepared("SELECT DISTINCT o.condition FROM rule o JOIN rule r ON r.project_id = o.project_id "
                 "AND r.type = o.type AND r.condition = o.condition AND o.id < r.id WHERE r.id = ANY(%s) "
                 "AND r.type = 'NE_TYPE'"),
        ([r["id"] for r in rules if r["condition"] in ne_types],), conn)} if ne_types else set()

    searchable = None
    m_rule: list[int] = []
    m_first: list[int] = []
    m_end: list[int] = []
    for rule in rules:
        if not _active(rule, shadowed):
            continue
        if rule["elsewhere"]:
            spans = []  # its links here (none, unless it was project-wide before) are replaced by nothing
        elif rule["type"] == RuleType.NE_TYPE.value:
            spans = [(r["first_token"], r["end_token"]) for r in db.query(
                prepared("SELECT DISTINCT first_token, end_token FROM named_entity WHERE document_id = %s "
                         "AND type = %s"),
                (document_id, rule["condition"]), conn)]
        elif rule["type"] == RuleType.WORD_TYPE.value:
            searchable = searchable or document_text(conn, document_id, row["recognized_at"])
            spans = find_word_type_matches(conn, document_id, condition_from_text(rule["condition"]),
                                           rule["case_sensitive"], searchable)
        else:
            continue
        m_rule.extend([rule["id"]] * len(spans))
        m_first.extend(f for f, _ in spans)
        m_end.extend(e for _, e in spans)
    params = {"doc": document_id, "rules": [r["id"] for r in rules], "m_rule": m_rule, "m_first": m_first,
              "blocking": sorted(blocking_of(row["ne_type_rules"], frozenset(row["sensitive_types"] or ()))),
              "m_end": m_end, "affected": sorted(affected), "project": row["project_id"], "changed": ids}
    written = db.query_one(prepared(_WRITE_MATCHES), params, conn)  # a custom plan: its generic one is 10x slower
    changed = int(written["changed"]) + dropped
    if written["unlinked"]:
        changed += db.execute(prepared(_DELETE_UNLINKED), {"ids": written["unlinked"], "doc": document_id}, conn)
    if refresh_status:
        refresh_document_status(conn, document_id)
    return changed
