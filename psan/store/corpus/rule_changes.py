"""Targeted project runs: re-annotate only the documents a rule change can affect.

Why: a project run used to re-annotate every document after each change (:func:`psan.store.corpus.reannotate.
reannotate_project`, about 10 ms per document whether or not the changed rule can match there), so an
annotator's hour cost windows × documents.  A rule's matches depend only on the rule and the
document, so a document where neither the old nor the new version of a changed rule can match keeps
exactly the annotations a full run would give it.  What a rule can match (a superset):

* ``WORD_TYPE``: documents whose vocabulary holds every case-folded token of the condition
  (:mod:`psan.store.corpus.vocabulary`, a GIN index); entity decisions (``x``) make word-type rules too;
* ``NE_TYPE``: documents with entities of that type;
* a lookup rule's own annotation (the rule keeps it alive): that annotation's document;
* a document-only lookup rule (``rule.document_only``, migration 0028: a place, a date … decided private):
  only its annotation's document, whatever its words;
* ``LEMMA`` (the lemmatizer runs over all tokens): every document – the full run;
  kinds without a compiler (``PATTERN``, ``MODEL``) match nothing, in the full run too.

The changes come from triggers on ``rule`` (migration 0027): every insert, delete and update of what
matching reads (type, condition, case, confidence, annotation, project) writes a ``rule_change`` row in
the changing transaction, whatever made it (a decision, an undo, an admin page, a cascade).  A run reads
the pending rows, *then* loads the rules (so the rules are at least as new as every change it read),
re-annotates the affected documents fully (:func:`psan.store.corpus.reannotate.reannotate_documents`, batched)
and deletes exactly the rows it read; a change committed meanwhile stays pending for the next pass.
Documents still ``RECOGNIZED`` (an interrupted pre-processing) and documents without a vocabulary are
always re-annotated, as the full run did.

A decision applies its rules to its own document at once (:func:`psan.store.annotation.apply_rule.apply_new_rules`)
and marks its change rows with that document (:data:`MARK_APPLIED`): the run leaves the document out
for those changes, as the old ``exclude_document_id`` did, but only for them.

Runs of one project never overlap (a transaction-scoped advisory lock): a run holding older rules
could otherwise re-annotate a document after a newer run, which has already deleted the change rows.
A run that finds the lock taken returns; the holder looks for pending changes again after releasing it.
"""
from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from psan.runtime import db
from psan.store.admin.rules import condition_from_text, load_ruleset
from psan.store.corpus.reannotate import annotatable_document_ids, reannotate_documents, rules_snapshot
from psan.store.corpus.vocabulary import fold_condition
from psan.store.shared.document_status import ANNOTATABLE_SQL, DocumentStatus, sql_value
from psan.tool.decisions.rules import RuleType

__all__ = ["RunResult", "reannotate_changed", "affected_documents", "pending_changes", "MARK_APPLIED"]

log = logging.getLogger(__name__)

#: advisory lock space (first key of the two-integer form) of project runs; the second key is the project
RUN_LOCK_SPACE = 0x7072
#: change rows one pass reads at most (a rule import writes thousands)
PASS_CHANGES = 5000
#: passes of one run at most (changes keep arriving while annotators work; the next run goes on)
MAX_PASSES = 20
#: word-type conditions looked up in one statement
_WORD_QUERY_CHUNK = 100

#: rows of the current transaction for these rules were applied to this document (used inside
#: :mod:`psan.store.annotation.apply_rule`'s statements; ``txid_current()`` is the changing transaction's id)
MARK_APPLIED = ("UPDATE rule_change SET applied_document_id = %(doc)s WHERE project_id = %(project)s "
                "AND rule_id = ANY(%(changed)s::bigint[]) AND xact = txid_current()")

_ANNOTATABLE_IN_PROJECT = "d.project_id = %(project)s AND d.status IN " + ANNOTATABLE_SQL


@dataclass(slots=True)
class RunResult:
    """What a targeted run did: change rows applied, documents re-annotated, documents in the project."""

    changes: int = 0
    documents: list[int] = field(default_factory=list)
    passes: int = 0
    full: bool = False
    skipped: bool = False
    seconds: float = 0.0


def pending_changes(conn, project_id: int, limit: int = PASS_CHANGES) -> list[dict[str, Any]]:
    """The project's rule changes not yet applied, oldest first."""
    return db.query("SELECT id, rule_id, old_type, old_condition, new_type, new_condition, annotation_document_id, "
                    "applied_document_id, document_only FROM rule_change WHERE project_id = %s ORDER BY id LIMIT %s",
                    (project_id, limit), conn)


def _word_documents(conn, project_id: int, conditions: list[tuple[str, ...]]) -> dict[tuple[str, ...], set[int]]:
    """For each case-folded word set: the project's annotatable documents whose vocabulary holds it all."""
    found: dict[tuple[str, ...], set[int]] = {c: set() for c in conditions}
    for start in range(0, len(conditions), _WORD_QUERY_CHUNK):
        chunk = conditions[start:start + _WORD_QUERY_CHUNK]
        # one indexable `@>` per condition (GIN), all in one round trip
        parts = [f"SELECT {i} AS k, v.document_id FROM document_vocabulary v "  # noqa: S608  # nosec B608
                 f"JOIN document d ON d.id = v.document_id WHERE v.words @> %(w{i})s::text[] AND "
                 + _ANNOTATABLE_IN_PROJECT for i in range(len(chunk))]
        params: dict[str, Any] = {f"w{i}": list(words) for i, words in enumerate(chunk)}
        params["project"] = project_id
        for row in db.query(" UNION ALL ".join(parts), params, conn):
            found[chunk[row["k"]]].add(int(row["document_id"]))
    return found


def _entity_documents(conn, project_id: int, types: list[str]) -> dict[str, set[int]]:
    """For each entity type: the project's annotatable documents with an entity of that type."""
    found: dict[str, set[int]] = {t: set() for t in types}
    if types:
        for row in db.query("SELECT DISTINCT ne.type, ne.document_id FROM named_entity ne JOIN document d "  # noqa: S608  # nosec B608
                            "ON d.id = ne.document_id WHERE ne.type = ANY(%(types)s) AND " + _ANNOTATABLE_IN_PROJECT,
                            {"types": types, "project": project_id}, conn):
            found[row["type"]].add(int(row["document_id"]))
    return found


def _keys(change: dict[str, Any]) -> Iterable[tuple[str, Any]] | None:
    """What a change can touch, as (kind, key) pairs; ``None``: every document (a LEMMA rule)."""
    if change.get("document_only") and change["annotation_document_id"] is not None:
        return [("document", int(change["annotation_document_id"]))]
    keys: list[tuple[str, Any]] = []
    versions = ((change["old_type"], change["old_condition"]), (change["new_type"], change["new_condition"]))
    for kind, condition in versions:
        if kind is None:
            continue
        if kind == RuleType.WORD_TYPE.value:
            words = tuple(fold_condition(condition_from_text(condition)))
            if words:
                keys.append(("words", words))
        elif kind == RuleType.NE_TYPE.value:
            keys.append(("type", condition))
        elif kind == RuleType.LEMMA.value:
            return None
    if change["annotation_document_id"] is not None:
        keys.append(("document", int(change["annotation_document_id"])))
    return keys


def affected_documents(conn, project_id: int, changes: list[dict[str, Any]]) -> list[int] | None:
    """The documents whose annotations the changes can alter (a superset); ``None``: all of them.

    A document is left out for a key when every change behind that key was already applied to it
    by the changing transaction (``applied_document_id``).
    """
    applied: dict[tuple[str, Any], set[int | None]] = defaultdict(set)
    for change in changes:
        keys = _keys(change)
        if keys is None:
            return None
        for key in keys:
            applied[key].add(change["applied_document_id"])
    words = _word_documents(conn, project_id, sorted(k for kind, k in applied if kind == "words"))
    types = _entity_documents(conn, project_id, sorted(k for kind, k in applied if kind == "type"))
    affected: set[int] = set()
    for (kind, key), where in applied.items():
        documents = words[key] if kind == "words" else types[key] if kind == "type" else {key}
        done_in = next(iter(where)) if len(where) == 1 else None
        affected |= documents - {done_in} if done_in is not None else documents
    return sorted(affected)


def _always(conn, project_id: int) -> tuple[list[int], list[int]]:
    """Annotatable documents every run takes: (still RECOGNIZED, without a vocabulary)."""
    rows = db.query("SELECT d.id, d.status = " + sql_value(DocumentStatus.RECOGNIZED) + " AS recognized, "  # noqa: S608  # nosec B608
                    "v.document_id IS NULL AS unindexed FROM document d "
                    "LEFT JOIN document_vocabulary v ON v.document_id = d.id WHERE " + _ANNOTATABLE_IN_PROJECT +
                    " AND (d.status = " + sql_value(DocumentStatus.RECOGNIZED) + " OR v.document_id IS NULL)",
                    {"project": project_id}, conn)
    return [int(r["id"]) for r in rows if r["recognized"]], [int(r["id"]) for r in rows if r["unindexed"]]


def _pass(app_transaction, project_id: int, result: RunResult) -> bool:
    """One pass over the pending changes; whether there were any (or RECOGNIZED documents) to do."""
    with app_transaction() as conn:
        changes = pending_changes(conn, project_id)
        recognized, unindexed = _always(conn, project_id)
        if not changes and not recognized:
            return False
        snapshot = rules_snapshot(conn)  # what the rules hold: a decision after it is noticed per document
        ruleset = load_ruleset(conn, project_id)  # after the changes were read: at least as new as they are
        ids = affected_documents(conn, project_id, changes) if changes else []
        if ids is None:
            result.full = True
            ids = annotatable_document_ids(conn, project_id)
    todo = set(ids) | set(recognized) | (set(unindexed) if changes else set())
    result.documents += reannotate_documents(app_transaction, sorted(todo), ruleset, set(unindexed),
                                             ruleset_snapshot=snapshot)
    if changes:
        with app_transaction() as conn:
            db.execute("DELETE FROM rule_change WHERE id = ANY(%s)", ([c["id"] for c in changes],), conn)
    result.changes += len(changes)
    result.passes += 1
    return True


def _has_work(app_transaction, project_id: int) -> bool:
    with app_transaction() as conn:
        return db.query_one("SELECT EXISTS (SELECT 1 FROM rule_change WHERE project_id = %(project)s) "  # noqa: S608  # nosec B608
                            "OR EXISTS (SELECT 1 FROM document d WHERE " + _ANNOTATABLE_IN_PROJECT + " AND d.status = "
                            + sql_value(DocumentStatus.RECOGNIZED) + ") AS work", {"project": project_id},
                            conn)["work"]


def reannotate_changed(app_transaction, project_id: int) -> RunResult:
    """Apply the project's pending rule changes to the documents they can affect (see the module docstring).

    ``app_transaction`` is :func:`psan.runtime.db.transaction`.  Returns what was done; ``skipped`` when another
    run of the project holds the run lock (it will see the changes this run was started for).
    """
    started = time.perf_counter()
    result = RunResult()
    while result.passes < MAX_PASSES:
        with app_transaction() as guard:
            if not db.query_one("SELECT pg_try_advisory_xact_lock(%s, %s::int) AS got",
                                (RUN_LOCK_SPACE, int(project_id) & 0x7FFFFFFF), guard)["got"]:
                result.skipped = result.passes == 0
                break
            while result.passes < MAX_PASSES and _pass(app_transaction, project_id, result):
                pass
        # released: a run that found the lock taken meanwhile returned; pick up what it came for
        if not _has_work(app_transaction, project_id):
            break
    result.seconds = time.perf_counter() - started
    return result
