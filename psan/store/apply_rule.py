"""Targeted re-annotation: apply only the rules a decision created, changed or deleted to one document.

Why: :func:`psan.store.reannotate.reannotate_document_now` loads the whole document and matches every
rule of the project – about a second for 10^5 tokens and ten for 10^6 – while a decision must answer
in well under 200 ms on a 10^6-token document.  A decision touches one or two rules, and the rest of
the document's annotations are already consistent with the other rules, so it is enough to

* find the occurrences of the changed rules only: a WORD_TYPE condition is searched for as plain
  text in ``document.text`` (C-speed substring search for its longest token), candidate
  positions are mapped to tokens through the cached token offsets (:mod:`psan.store.document_text`) and each
  candidate is verified token by token, exactly as :mod:`psan.tool.rules` compares tokens (same
  case folding, never across a sentence boundary – the segments come from
  :func:`psan.tool.rules.sentence_segments`); an NE_TYPE rule's spans are its entities (SQL);
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

Concurrency: the document row is locked ``FOR NO KEY UPDATE`` for the rest of the transaction, so
two rule applications on one document never interleave their link and level updates, and neither
does a full run (it locks ``FOR UPDATE``).  Not ``FOR UPDATE`` here: that would also block every
foreign-key check on the document (new leases, annotations, log rows of other annotators).
"""
from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from psan import db
from psan.store.document_status import ANNOTATABLE, ANNOTATED, ANNOTATED_SQL, STATUS_FROM_SPANS_SQL
from psan.store.document_text import DocumentText, document_text
from psan.store.rules import condition_from_text
from psan.tool.rules import RULE_KINDS, RuleType

__all__ = ["apply_new_rules", "rule_footprint", "refresh_document_status", "find_word_type_matches", "lock_document",
           "prefetch_word_type_matches"]

#: the status a document deserves (as psan.store.reannotate), written only when it changes, so a
#: decision that changes nothing does not take the document row's lock for the rest of its request
_REFRESH_STATUS = (
    "WITH s AS (SELECT d.id, " + STATUS_FROM_SPANS_SQL + " AS status "  # noqa: S608  # nosec B608
    "FROM document d WHERE d.id = %(doc)s AND d.status IN " + ANNOTATED_SQL + "), "
    "u AS (UPDATE document d SET status = s.status, updated_at = now() FROM s WHERE d.id = s.id "
    "AND d.status <> s.status RETURNING d.id) "
    "SELECT coalesce((SELECT status::text FROM s), (SELECT status::text FROM document WHERE id = %(doc)s)) AS status")


# --- the text search (text and token offsets come from psan.store.document_text's per-process cache) ----
#: matches of recent conditions: (document id, recognized_at, condition, case sensitive) -> spans
MATCH_CACHE_SIZE = 4096
_matches: OrderedDict[tuple[int, Any, tuple[str, ...], bool], list[tuple[int, int]]] = OrderedDict()
_matches_lock = threading.Lock()


def prefetch_word_type_matches(conn, document_id: int, condition: Sequence[str], case_sensitive: bool = True,
                               stamp: Any = None) -> None:
    """Search a condition *before* the document lock is taken, so the locked part only writes.

    Why: decisions on one document are serialized by its lock; the text search (a few milliseconds
    on 10^6 tokens, more on a busy machine) needs no lock – text and tokens change only with a new
    recognition, which changes ``recognized_at`` and so the cache key (``stamp``, if the caller has it).
    """
    find_word_type_matches(conn, document_id, condition, case_sensitive, document_text(conn, document_id, stamp))


def _positions(haystack: str, needle: str) -> list[int]:
    """Every (also overlapping) start offset of ``needle`` in ``haystack``."""
    found: list[int] = []
    pos = haystack.find(needle)
    while pos >= 0:
        found.append(pos)
        pos = haystack.find(needle, pos + 1)
    return found


def find_word_type_matches(conn, document_id: int, condition: Sequence[str], case_sensitive: bool = True,
                           searchable: DocumentText | None = None) -> list[tuple[int, int]]:
    """Token ranges ``[first, end)`` where a WORD_TYPE condition matches, as :class:`RuleSet` finds them.

    The text search looks for the condition's longest token (every occurrence, also inside words:
    a superset of the token matches), maps those positions to tokens
    by the cached token offsets and verifies each candidate on the stored tokens.
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
    wanted = list(condition) if case_sensitive else [t.casefold() for t in condition]
    fold_map: array | None = None
    if case_sensitive:
        haystack = doc.text
    else:
        haystack, fold_map = doc.folded()
    # search for the longest token only (likely the rarest: surnames, not "Jan" or "."): one pass over
    # the text instead of counting every token first, which cost a pass each (CPU under the GIL)
    k = max(range(n), key=lambda i: (len(wanted[i]), i))
    starts = _positions(haystack, wanted[k])
    if fold_map is not None:
        starts = [fold_map[p] for p in starts if fold_map[p] >= 0]
    if not starts:
        return []
    firsts = sorted({i - k for i in doc.tokens_at(starts) if 0 <= i - k and i - k + n <= doc.token_count})
    matches: list[tuple[int, int]] = []
    for f in firsts:
        if not doc.same_segment(f, f + n):
            continue
        for i in range(n):
            token = doc.token(f + i)
            if (token if case_sensitive else token.casefold()) != wanted[i]:
                break
        else:
            matches.append((f, f + n))
    return matches


# --- writing ------------------------------------------------------------------------------------------------
# The new matches enter the statements below as a relation of three parallel arrays, ``unnest(…) AS m``
# (no temporary table: its DDL and TRUNCATE cost more than the few rows a decision usually has).


def rule_footprint(conn, document_id: int, rule_ids: Iterable[int]) -> list[int]:
    """Ids of the document's annotations linked to the rules: note them *before* deleting the rules."""
    ids = [int(i) for i in rule_ids]
    if not ids:
        return []
    return [r["annotation_id"] for r in db.query(
        "SELECT DISTINCT ar.annotation_id FROM annotation_rule ar JOIN annotation a ON a.id = ar.annotation_id "
        "WHERE ar.rule_id = ANY(%s) AND a.document_id = %s", (ids, document_id), conn)]


def lock_document(conn, document_id: int) -> None:
    """Lock the document row until the transaction ends, *before* a decision writes anything.

    Why first: a decision updates its annotation, then applies rules that update other annotations'
    levels; two concurrent decisions doing that in opposite orders would deadlock.  Taking the
    document lock first (as the full path does) gives every writer one order: document, then rows.
    ``NO KEY UPDATE`` leaves foreign-key checks (other annotators' leases and log rows) unblocked.
    """
    db.execute("SELECT 1 FROM document WHERE id = %s FOR NO KEY UPDATE", (document_id,), conn)


def refresh_document_status(conn, document_id: int) -> str | None:
    """PRE_ANNOTATED while a suspicious span is undecided, else DONE; the row is written only on a change."""
    row = db.query_one(_REFRESH_STATUS, {"doc": document_id}, conn)
    return row["status"] if row else None


def _full_path(conn, document_id: int) -> int:
    from psan.store.reannotate import reannotate_document_now
    result = reannotate_document_now(conn, document_id)
    return result.matches if result else 0


def _active(rule: dict[str, Any], shadowed_ne_types: set[str]) -> bool:
    """Whether the full path would match this rule at all (see :func:`psan.store.rules.load_rules`)."""
    if rule["type"] not in RULE_KINDS:
        return False  # PATTERN/MODEL: no compiler yet, ignored by the full path too
    if rule["type"] == RuleType.NE_TYPE.value:
        return rule["condition"] not in shadowed_ne_types
    return bool(condition_from_text(rule["condition"]))


def apply_new_rules(conn, document_id: int, rule_ids: Iterable[int], *,
                    affected_annotation_ids: Iterable[int] = (), refresh_status: bool = True) -> int:
    """Bring one document up to date with created, changed or deleted rules, in ``conn``'s transaction.

    ``rule_ids`` are the rules that changed: existing ones are (re-)matched, missing ones count as
    deleted.  For deleted rules pass ``affected_annotation_ids`` (from :func:`rule_footprint`
    before the delete), otherwise the whole document is re-annotated.  Returns how many annotation
    rows were inserted, updated or deleted (for a fallback to the full path: its match count).
    Missing, NEW and FAILED documents are left alone (0).  ``refresh_status=False``: the caller
    calls :func:`refresh_document_status` itself afterwards (once, not twice per decision).
    """
    ids = sorted({int(i) for i in rule_ids})
    affected = {int(i) for i in affected_annotation_ids}
    row = db.query_one("SELECT status::text AS status, project_id FROM document WHERE id = %s FOR NO KEY UPDATE",
                       (document_id,), conn)
    if row is None or row["status"] not in ANNOTATABLE:
        return 0
    if not ids and not affected:
        return 0
    if row["status"] not in ANNOTATED:
        return _full_path(conn, document_id)
    rules = db.query("SELECT id, type::text AS type, condition, case_sensitive FROM rule "
                     "WHERE id = ANY(%s) AND project_id = %s ORDER BY id", (ids, row["project_id"]), conn)
    deleted = set(ids) - {r["id"] for r in rules}
    if (deleted and not affected) or any(r["type"] == RuleType.LEMMA.value for r in rules):
        return _full_path(conn, document_id)
    ne_types = [r["condition"] for r in rules if r["type"] == RuleType.NE_TYPE.value]
    shadowed = {r["condition"] for r in db.query(
        "SELECT DISTINCT o.condition FROM rule o JOIN rule r ON r.project_id = o.project_id AND r.type = o.type "
        "AND r.condition = o.condition AND o.id < r.id WHERE r.id = ANY(%s) AND r.type = 'NE_TYPE'",
        ([r["id"] for r in rules if r["condition"] in ne_types],), conn)} if ne_types else set()

    searchable = None
    m_rule: list[int] = []
    m_first: list[int] = []
    m_end: list[int] = []
    for rule in rules:
        if not _active(rule, shadowed):
            continue
        if rule["type"] == RuleType.NE_TYPE.value:
            spans = [(r["first_token"], r["end_token"]) for r in db.query(
                "SELECT DISTINCT first_token, end_token FROM named_entity WHERE document_id = %s AND type = %s",
                (document_id, rule["condition"]), conn)]
        elif rule["type"] == RuleType.WORD_TYPE.value:
            searchable = searchable or document_text(conn, document_id)
            spans = find_word_type_matches(conn, document_id, condition_from_text(rule["condition"]),
                                           rule["case_sensitive"], searchable)
        else:
            continue
        m_rule.extend([rule["id"]] * len(spans))
        m_first.extend(f for f, _ in spans)
        m_end.extend(e for _, e in spans)
    existing = [r["id"] for r in rules]
    changed = 0
    with conn.cursor() as cur:
        params = {"doc": document_id, "rules": existing, "m_rule": m_rule, "m_first": m_first, "m_end": m_end}
        cur.execute("INSERT INTO annotation (document_id, first_token, end_token, rule_level) "
                    "SELECT DISTINCT %(doc)s, first_token, end_token, 0::double precision FROM unnest(%(m_rule)s::"
                    "bigint[], %(m_first)s::integer[], %(m_end)s::integer[]) AS m(rule_id, first_token, end_token) "
                    "ORDER BY 2, 3 ON CONFLICT (document_id, first_token, end_token) DO NOTHING", params)
        changed += cur.rowcount
        # links of the changed rules that no longer match (and links of rules the full path ignores)
        cur.execute("DELETE FROM annotation_rule ar USING annotation a WHERE ar.rule_id = ANY(%(rules)s) "
                    "AND a.id = ar.annotation_id AND a.document_id = %(doc)s AND NOT EXISTS (SELECT 1 FROM "
                    "unnest(%(m_rule)s::bigint[], %(m_first)s::integer[], %(m_end)s::integer[]) "
                    "AS m(rule_id, first_token, end_token) WHERE m.rule_id = ar.rule_id "
                    "AND m.first_token = a.first_token AND m.end_token = a.end_token) "
                    "RETURNING ar.annotation_id", params)
        affected.update(r[0] for r in cur.fetchall())
        cur.execute("INSERT INTO annotation_rule (annotation_id, rule_id) SELECT a.id, m.rule_id FROM "
                    "unnest(%(m_rule)s::bigint[], %(m_first)s::integer[], %(m_end)s::integer[]) "
                    "AS m(rule_id, first_token, end_token) JOIN annotation a ON a.document_id = %(doc)s "
                    "AND a.first_token = m.first_token AND a.end_token = m.end_token ON CONFLICT DO NOTHING", params)
        # every annotation still linked to a changed rule: its confidence may have changed
        cur.execute("SELECT ar.annotation_id FROM annotation_rule ar JOIN annotation a ON a.id = ar.annotation_id "
                    "WHERE ar.rule_id = ANY(%(rules)s) AND a.document_id = %(doc)s", params)
        affected.update(r[0] for r in cur.fetchall())
        if affected:
            touched = {"doc": document_id, "ids": sorted(affected)}
            # sum in rule-id order, as the full path does in Python: bit-identical doubles
            cur.execute("UPDATE annotation a SET rule_level = s.level FROM (SELECT x.id, coalesce((SELECT "
                        "sum(r.confidence ORDER BY r.id) FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "
                        "WHERE ar.annotation_id = x.id), 0) AS level FROM annotation x WHERE x.id = ANY(%(ids)s) "
                        "AND x.document_id = %(doc)s) s WHERE a.id = s.id "
                        "AND a.rule_level IS DISTINCT FROM s.level", touched)
            changed += cur.rowcount
            cur.execute("DELETE FROM annotation a WHERE a.id = ANY(%(ids)s) AND a.document_id = %(doc)s "
                        "AND a.token_decision IS NULL "
                        "AND NOT EXISTS (SELECT 1 FROM annotation_rule ar WHERE ar.annotation_id = a.id) "
                        "AND NOT EXISTS (SELECT 1 FROM rule r WHERE r.annotation_id = a.id)", touched)
            changed += cur.rowcount
    if refresh_status:
        refresh_document_status(conn, document_id)
    return changed
