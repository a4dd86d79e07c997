"""Suggestions for the suspicious spans of a window, from the project's own decisions.

Why: with a suggestion on every suspicious span the annotator fixes only the wrong ones and
accepts the rest of the window with one key (``POST /annotate/api/accept``).  The evidence is
gathered for the window only (its annotations' lookup rules, the MODEL entities on its spans) plus
one aggregate of the project's decisions per entity type present in the window; the choice itself
is :func:`psan.tool.decisions.suggest.suggest_private`, which the simulated annotator of ``ner_eval`` uses too.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from psan.runtime import db
from psan.runtime.sql import prepared, warm_on_open
from psan.store.admin.rules import project_sensitive_types
from psan.store.annotation.window_content import span_text
from psan.tool.decisions.sensitivity import (
    SENSITIVE_TYPES,
    never_public_by_suggestion,
    overlaps_any,
    sensitive_type,
)
from psan.tool.decisions.suggest import (
    MIN_TYPE_DECISIONS,
    Evidence,
    joinable_pools,
    learned_pools,
    learned_type_confidence,
    pooled_private_types,
    suggest_private,
)
from psan.tool.detection.classifier.model import MODEL_TYPE
from psan.tool.detection.classifier.span_types import is_pretrained_type
from psan.tool.text.document import Category

__all__ = ["type_statistics", "project_type_statistics", "counts_read", "take_counts", "CountsRead",
           "add_suggestions", "learn_type_rules", "types_to_learn",
           "forget_statistics", "note_decision", "sensitive_types"]


#: per-process cache of each project's per-type decision counts (see :func:`type_statistics`)
STATISTICS_CACHE_SIZE = 64
#: a full recount at least this often (seconds): late commits, deleted documents, new recognitions
RECOUNT_SECONDS = 30.0
#: how long counts are used without asking the log, unless this process decided in the project since
FRESH_SECONDS = 0.5
_statistics: OrderedDict[int, _TypeCounts] = OrderedDict()
_statistics_lock = threading.Lock()


@dataclass(slots=True)
class _TypeCounts:
    """One project's counts and what they were computed from (the decided spans and their types)."""

    created: float
    #: when the log was last read (``time.monotonic``)
    checked: float
    #: this process wrote a decision of the project since the log was last read
    dirty: bool
    stamp: Any  # the time of the ``last_log_id`` row: ids restart in an emptied database
    last_log_id: int
    spans: dict[tuple[int, int, int], tuple[str | None, tuple[str, ...]]]
    counts: dict[str, list[int]]

    def set_span(self, key: tuple[int, int, int], decision: str | None, types: tuple[str, ...]) -> None:
        old = self.spans.pop(key, None)
        if old is not None:
            self._add(*old, -1)
        if decision is not None and types:
            self.spans[key] = (decision, types)
            self._add(decision, types, 1)

    def _add(self, decision: str | None, types: tuple[str, ...], sign: int) -> None:
        slot = 0 if decision == "PRIVATE" else 1
        for t in types:
            self.counts.setdefault(t, [0, 0])[slot] += sign


def type_statistics(conn, project_id: int, types: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Per entity type: how many spans of it people decided PRIVATE and PUBLIC in the project.

    Why incremental: every window and every decision asks, and a full count grows with the
    project's decisions (1 ms at 1,000; 50 ms at 50,000, for every window of every annotator).
    Each process keeps the decided spans it counted and the last ``decision_log`` id it saw; a
    question reads only the spans decided since (every change of a person's decision writes a log
    row), in one statement.  A full recount every :data:`RECOUNT_SECONDS` catches what the log does
    not show at once (a decision committed after a later one was read, a deleted document, a new
    recognition of a decided span); an emptied or restored database is noticed at once (the counted
    log row is gone or has another time).

    Why not every time: with 20 annotators deciding, nearly every question found new log rows (a
    statement per window and two per decision, a fifth of the server's time under load).  The log
    is read again when this process decided in the project since (:func:`note_decision`: its own
    annotators see their decisions counted at once) or after :data:`FRESH_SECONDS`; another
    process's decisions may be missed that long, which only delays a suggestion or a learned rule.
    """
    if not types:
        return {}
    counts = _current_counts(conn, project_id)
    return {t: counts[t] for t in types if t in counts}


def project_type_statistics(conn, project_id: int) -> dict[str, tuple[int, int]]:
    """:func:`type_statistics` of every entity type people decided in the project (the same cache)."""
    return _current_counts(conn, project_id)


def _current_counts(conn, project_id: int) -> dict[str, tuple[int, int]]:
    """The project's per-type (private, public) counts, brought up to date as :func:`type_statistics` says."""
    now = time.monotonic()
    with _statistics_lock:
        entry = _statistics.get(project_id)
        if entry is not None:
            _statistics.move_to_end(project_id)
    if entry is None or now - entry.created > RECOUNT_SECONDS:
        entry = _count_types(conn, project_id)
    elif entry.dirty or now - entry.checked > FRESH_SECONDS:
        entry = _update(conn, project_id, entry)
    with _statistics_lock:
        _statistics[project_id] = entry
        while len(_statistics) > STATISTICS_CACHE_SIZE:
            _statistics.popitem(last=False)
        return {t: (c[0], c[1]) for t, c in entry.counts.items() if any(c)}


#: a PUBLIC decision overlapping a PRIVATE one is looked for among the private spans starting less than 50
#: tokens before it (an index range; a longer private span is rare, and missing one only counts a public vote)

#: the decision a span counts with in the type statistics: a PUBLIC decision on a span part of which is private
#: (a person's decision, or a rule's: the output keeps it masked) is a re-drawn boundary (the person decided
#: "IČO : 15279111" public around the number an ID rule keeps private, or marked the name inside a clause), not
#: a verdict that the span's entity type is public.  A public span inside a private one (a title inside a name)
#: stays a public vote.
_COUNTED_DECISION = (
    "CASE WHEN a.token_decision = 'PUBLIC' AND EXISTS (SELECT 1 FROM annotation p "
    "WHERE p.document_id = a.document_id AND (p.token_decision = 'PRIVATE' OR (p.token_decision IS NULL "
    "AND p.rule_level <= (SELECT private_threshold FROM project WHERE id = %(project)s))) "
    "AND p.first_token > a.first_token - 50 AND p.first_token < a.end_token "
    "AND p.end_token > a.first_token AND (p.first_token > a.first_token OR p.end_token < a.end_token)) "
    "THEN NULL ELSE a.token_decision::text END")

#: what the log shows since the counted id: that id's time (an emptied or restored database reuses ids,
#: a deleted document takes its rows along: then everything is counted anew), the newest id and its time,
#: and the spans decided since, with the decided spans they overlap (a new private decision inside a public
#: span takes that span's public vote back: :data:`_COUNTED_DECISION`), their counted decision and entity types now
_DECIDED_SINCE = (
    "WITH new AS (SELECT id, document_id, first_token, end_token, created_at FROM decision_log "  # noqa: S608  # nosec
    "WHERE project_id = %(project)s AND id > %(since)s), "
    "top AS (SELECT id, created_at FROM new ORDER BY id DESC LIMIT 1), "
    "logged AS (SELECT DISTINCT document_id, first_token, end_token FROM new "
    "WHERE document_id IS NOT NULL AND first_token IS NOT NULL), "
    "spans AS (SELECT document_id, first_token, end_token FROM logged UNION "
    "SELECT o.document_id, o.first_token, o.end_token FROM logged l JOIN annotation o "
    "ON o.document_id = l.document_id AND o.token_decision IS NOT NULL "
    "AND o.first_token > l.first_token - 50 AND o.first_token < l.end_token "
    "AND o.end_token > l.first_token) "
    "SELECT (SELECT created_at FROM decision_log WHERE id = %(since)s AND project_id = %(project)s) AS since_stamp, "
    "(SELECT id FROM top) AS top, (SELECT created_at FROM top) AS top_stamp, "
    "coalesce((SELECT json_agg(json_build_array(s.document_id, s.first_token, s.end_token, "
    + _COUNTED_DECISION + ", "
    "ARRAY(SELECT ne.type FROM named_entity ne WHERE ne.document_id = s.document_id "
    "AND ne.first_token = s.first_token AND ne.end_token = s.end_token))) FROM spans s "
    "LEFT JOIN annotation a ON a.document_id = s.document_id AND a.first_token = s.first_token "
    "AND a.end_token = s.end_token), '[]') AS spans")


def _update(conn, project_id: int, entry: _TypeCounts) -> _TypeCounts:
    """``entry`` brought up to date from the log, or a full count where the log cannot tell.

    Counts taken while the project's log was empty (decisions without log rows: imported or restored
    annotations) have no log row to check an emptied database by, so they are counted anew: a new
    project's full count is small.
    """
    checked = time.monotonic()
    with _statistics_lock:
        entry.dirty = False  # a decision noted from here on is read next time
        since, stamp = entry.last_log_id, entry.stamp  # another thread may move them on meanwhile
    if not since:
        return _count_types(conn, project_id)
    row = db.query_one(prepared(_DECIDED_SINCE), {"project": project_id, "since": since}, conn)
    return _updated(conn, project_id, entry, checked, stamp, row)


def _updated(conn, project_id: int, entry: _TypeCounts, checked: float, stamp: Any,
             row: dict[str, Any]) -> _TypeCounts:
    """``entry`` with the log's new decisions (:data:`_DECIDED_SINCE`'s ``row``) counted in."""
    if row["since_stamp"] != stamp:
        return _count_types(conn, project_id)
    with _statistics_lock:
        entry.checked = max(entry.checked, checked)
        if row["top"] is None or int(row["top"]) < entry.last_log_id:  # nothing new, or read later already
            return entry
        for document_id, first, end, decision, types in row["spans"]:
            entry.set_span((document_id, first, end), decision, tuple(types))
        entry.last_log_id, entry.stamp = int(row["top"]), row["top_stamp"]
    return entry


@dataclass(slots=True)
class CountsRead:
    """The log read that brings a project's cached type counts up to date, to be sent with other reads
    (:func:`counts_read`, :func:`psan.runtime.db.read_together`, :func:`take_counts`)."""

    project_id: int
    entry: _TypeCounts
    checked: float
    stamp: Any
    read: db.Read


def counts_read(project_id: int) -> CountsRead | None:
    """The read :func:`type_statistics` would make now to update its cache (``None``: none, or a full count)."""
    now = time.monotonic()
    with _statistics_lock:
        entry = _statistics.get(project_id)
        if entry is None or now - entry.created > RECOUNT_SECONDS or not entry.last_log_id \
                or not (entry.dirty or now - entry.checked > FRESH_SECONDS):
            return None
        entry.dirty = False  # a decision noted from here on is read next time
        since, stamp = entry.last_log_id, entry.stamp
    return CountsRead(project_id, entry, now, stamp, (_DECIDED_SINCE, {"project": project_id, "since": since}))


def take_counts(conn, read: CountsRead, row: dict[str, Any] | None) -> None:
    """Count in what :func:`counts_read`'s read found (``row``)."""
    if row is None:  # pragma: no cover - the read always has its row
        return
    entry = _updated(conn, read.project_id, read.entry, read.checked, read.stamp, row)
    with _statistics_lock:
        _statistics[read.project_id] = entry
        while len(_statistics) > STATISTICS_CACHE_SIZE:
            _statistics.popitem(last=False)


_COUNT_TYPES = (
    "WITH head AS (SELECT id, created_at FROM decision_log WHERE project_id = %(project)s "  # noqa: S608  # nosec B608 - constants
    "ORDER BY id DESC LIMIT 1) SELECT (SELECT id FROM head) AS id, (SELECT created_at FROM head) AS created_at, "
    "coalesce((SELECT json_agg(json_build_array(s.document_id, s.first_token, s.end_token, s.decision, s.types)) "
    "FROM (SELECT a.document_id, a.first_token, a.end_token, " + _COUNTED_DECISION + " AS decision, "
    "array_agg(ne.type) AS types FROM document d "
    "JOIN annotation a ON a.document_id = d.id AND a.token_decision IS NOT NULL "
    "JOIN named_entity ne ON ne.document_id = a.document_id AND ne.first_token = a.first_token "
    "AND ne.end_token = a.end_token WHERE d.project_id = %(project)s "
    "GROUP BY a.document_id, a.first_token, a.end_token, a.token_decision) s), '[]') AS spans")
# a process's first window of a project counts its types, later ones read the log since: planned when a
# connection opens (the count runs once per project and process: planned, not prepared)
warm_on_open(_COUNT_TYPES, {"project": 0})
warm_on_open(prepared(_DECIDED_SINCE), {"project": 0, "since": 0})


def _count_types(conn, project_id: int) -> _TypeCounts:
    """The full count: the project's decided annotations (partial index annotation_decided_idx) and their types."""
    # the log's head and the decided spans, one round trip (the spans as a JSON array of arrays)
    row = db.query_one(_COUNT_TYPES, {"project": project_id}, conn)
    now = time.monotonic()
    entry = _TypeCounts(now, now, False, row["created_at"], int(row["id"]) if row["id"] is not None else 0, {}, {})
    for document_id, first, end, decision, types in row["spans"]:
        entry.set_span((document_id, first, end), decision, tuple(types))
    return entry


def note_decision(project_id: int) -> None:
    """A decision of the project was (or is about to be) committed by this process: read the log next time."""
    with _statistics_lock:
        entry = _statistics.get(project_id)
        if entry is not None:
            entry.dirty = True


def forget_statistics() -> None:
    """Drop every cached count (tests; a restored database)."""
    with _statistics_lock:
        _statistics.clear()


def _category(value: str | None) -> Category:
    try:
        return Category(value or "OTHER")
    except ValueError:
        return Category.OTHER


def sensitive_types(conn, project_id: int) -> frozenset[str]:
    """The categories and entity types the project's admin marked as sensitive (never public by suggestion)."""
    return project_sensitive_types(conn, project_id)


def add_suggestions(conn, project_id: int, document_id: int, annotations: list[dict[str, Any]],
                    entity_rows: list[dict[str, Any]] | None = None, stamp: Any = None,
                    project_sensitive: frozenset[str] | None = None) -> None:
    """Set ``suggestion`` (``"PRIVATE"``/``"PUBLIC"``) on every SUSPICIOUS annotation of the list.

    ``entity_rows``: the caller's rows of ``named_entity`` (``first_token, end_token, type, category,
    score``) covering the annotations, in ``first_token, id`` order; read here when not given.
    ``stamp``: the document's ``recognized_at`` when the caller has read it (the span texts need no lookup).
    A span :func:`psan.tool.decisions.sensitivity.never_public_by_suggestion` names (an address, a possible date of
    birth, an ID, a contact, a category the admin marked) is never suggested PUBLIC: it gets no
    suggestion then (``None``), so accepting the window leaves it for the person; so does every span that
    overlaps an address, a phone number or another span of a sensitive type
    (:func:`psan.tool.decisions.sensitivity.overlaps_any`).  ``project_sensitive``: the project's sensitive types when
    the
    caller has read them (:func:`sensitive_types`).
    """
    suspicious = [a for a in annotations if a["decision"] == "SUSPICIOUS"]
    if not suspicious:
        return
    lo = min(a["first_token"] for a in suspicious)
    hi = max(a["end_token"] for a in suspicious)
    if entity_rows is None:
        entity_rows = db.query("SELECT first_token, end_token, type, category, score FROM named_entity "
                               "WHERE document_id = %s AND first_token >= %s AND first_token < %s "
                               "ORDER BY first_token, id", (document_id, lo, hi), conn)
    entity: dict[tuple[int, int], dict[str, Any]] = {}
    model_p: dict[tuple[int, int], float] = {}
    pretrained_p: dict[tuple[int, int], float] = {}  # the pre-trained classifier's p, where its type is not known yet
    sensitive = [(a["first_token"], a["end_token"]) for a in annotations
                 if any(t in SENSITIVE_TYPES for t in a.get("ne_types") or ())]
    sensitive += [(e["first_token"], e["end_token"]) for e in entity_rows if e["type"] in SENSITIVE_TYPES]
    for e in entity_rows:
        if not lo <= e["first_token"] < hi:
            continue
        key = (e["first_token"], e["end_token"])
        if e["type"] == MODEL_TYPE:
            model_p[key] = max(model_p.get(key, 0.0), float(e["score"]))
        else:
            entity.setdefault(key, e)
            if is_pretrained_type(e["type"]):
                pretrained_p[key] = max(pretrained_p.get(key, 0.0), float(e["score"]))
    stats = type_statistics(conn, project_id, sorted({t for a in suspicious for t in a["ne_types"]
                                                      if t != MODEL_TYPE}))
    extra: frozenset[str] | None = project_sensitive
    for a in suspicious:
        key = (a["first_token"], a["end_token"])
        words_private = sum(1 for r in a["rules"] if r["lookup"])  # each a private decision on these words
        by_type = [sum(stats.get(t, (0, 0))[i] for t in a["ne_types"]) for i in (0, 1)]
        ent = entity.get(key)
        # a pre-trained classifier's p counts as the model's until the project decided its type a few times
        p = model_p.get(key, pretrained_p.get(key) if sum(by_type) < MIN_TYPE_DECISIONS else None)
        ev = Evidence(words_private, 0, by_type[0], by_type[1], p, _category(ent["category"] if ent else None))
        a["suggestion"] = "PRIVATE" if suggest_private(ev) else "PUBLIC"
        if a["suggestion"] == "PUBLIC" and overlaps_any(a["first_token"], a["end_token"], sensitive):
            a["suggestion"] = None
        if a["suggestion"] == "PUBLIC":
            if extra is None:
                extra = sensitive_types(conn, project_id)
            words = span_text(conn, document_id, a["first_token"], a["end_token"], stamp)
            if never_public_by_suggestion([t for t in a["ne_types"] if t != MODEL_TYPE],
                                          ent["category"] if ent else None, words, extra):
                a["suggestion"] = None


def learn_type_rules(conn, project_id: int, types: Sequence[str]) -> list[int]:
    """Let the NE_TYPE rules of ``types`` decide alone when the project's decisions are clear.

    A type learns from its own decisions (:func:`psan.tool.decisions.suggest.learned_type_confidence`), and a
    type of a category whose decisions are clearly private as a whole is decided private with it
    (:func:`psan.tool.decisions.suggest.pooled_private_types`: a pool one of ``types`` may join; every type that
    may join it, has a rule and whose own decisions agree, here or in other documents).  Only rules still at
    confidence 0 (suspicious, as created) change: a confidence an admin or an annotator ("by NE
    type") chose is kept.  A sensitive type (:func:`psan.tool.decisions.sensitivity.sensitive_type`:
    addresses, dates, IDs, contacts, the admin's list) is never learned public, nor is a pre-trained classifier's
    (:func:`_learned`).  Returns the ids of the changed rules, to re-apply.
    """
    changed = []
    for t, confidence in _to_learn(conn, project_id, types).items():
        row = db.query_one("UPDATE rule SET confidence = %s WHERE project_id = %s AND type = 'NE_TYPE' "
                           "AND condition = %s AND annotation_id IS NULL AND confidence = 0 RETURNING id",
                           (confidence, project_id, t), conn)
        if row:
            changed.append(int(row["id"]))
    return changed


def _learned(ne_type: str, private: int, public: int, extra: frozenset[str]) -> float | None:
    """The learned confidence of a type, never public for a sensitive one nor for a pre-trained classifier's.

    Why never public for the classifier's types (:mod:`psan.tool.detection.classifier.span_types`): its spans are
    words no other recognizer found, and a span public by a rule counts as covered text, so the risk model
    would stop looking at the very words (a surname the classifier flagged) it exists to send to a person.
    Learned private only masks; public stays a person's decision, span by span or by type.
    """
    confidence = learned_type_confidence(private, public)
    if confidence is not None and confidence > 0 and (sensitive_type(ne_type, extra) or is_pretrained_type(ne_type)):
        return None
    return confidence


def _to_learn(conn, project_id: int, types: Sequence[str],
              sensitive: frozenset[str] | None = None) -> dict[str, float]:
    """The rule conditions (NE types at confidence 0) to change now and their learned confidence (a read)."""
    wanted = {t for t in types if t != MODEL_TYPE}
    if not wanted:
        return {}
    # the model's spans are no entity type of their own: its decisions are not pooled with OTHER's
    stats = {t: c for t, c in project_type_statistics(conn, project_id).items() if t != MODEL_TYPE}
    extra = sensitive if sensitive is not None else sensitive_types(conn, project_id)
    own = {t: c for t in wanted if t in stats and (c := _learned(t, *stats[t], extra)) is not None}
    # the pools a decision on ``wanted`` may have changed, and those it may let decide its own types
    touched = set().union(*(joinable_pools(t) for t in wanted))
    learned = learned_pools(stats)
    if not own and not learned & touched:
        return {}
    unlearned = [r["condition"] for r in db.query(prepared(
        "SELECT condition FROM rule WHERE project_id = %s AND type = 'NE_TYPE' AND annotation_id IS NULL "
        "AND confidence = 0 ORDER BY condition"), (project_id,), conn)]
    out = {t: own[t] for t in unlearned if t in own}
    for t in sorted(pooled_private_types(stats, unlearned, learned)):
        if t != MODEL_TYPE and joinable_pools(t) & touched:
            out.setdefault(t, -1.0)
    return out


def types_to_learn(conn, project_id: int, types: Sequence[str], sensitive: frozenset[str] | None = None) -> list[str]:
    """Which NE types :func:`learn_type_rules` would change now (a read: no lock, no write).

    Why: the decision workflow asks this after its commit, outside the document lock, and takes
    the lock again only in the rare case a type's rule is to change.  ``sensitive``: the project's
    sensitive types when the caller has read them (:func:`sensitive_types`).
    """
    return sorted(_to_learn(conn, project_id, types, sensitive))
