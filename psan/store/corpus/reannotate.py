"""Apply a project's rules to documents: set-based upsert of annotations and their rule links.

Why set-based: a 100k-token document can have tens of thousands of matches; they are computed
in Python by the library's linear-time matcher, COPYed into temporary tables and merged into
``annotation``/``annotation_rule`` with a handful of statements.  Re-running with unchanged rules
writes nothing (the upsert only updates changed levels), so it is idempotent and cheap.

Annotations a person decided (``token_decision``) are never deleted, only their rule level is
recomputed; rule-only annotations no rule produces any more are deleted.
"""
from __future__ import annotations

import io
import logging
import time
from dataclasses import dataclass

import psycopg2.errors

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.store.admin.rules import ensure_ne_type_rules, load_ruleset
from psan.store.corpus.documents import load_document_cached
from psan.store.corpus.vocabulary import save_vocabulary
from psan.store.shared.document_status import (
    ANNOTATABLE,
    ANNOTATABLE_SQL,
    ANNOTATED_SQL,
    STATUS_FROM_SPANS_SQL,
    DocumentStatus,
)
from psan.tool.decisions.precedence import rule_level
from psan.tool.decisions.rules import RuleMatch, RuleSet
from psan.tool.text.document import Document

log = logging.getLogger(__name__)

#: tries of one document in a project run when PostgreSQL rolls it back (deadlock, serialization)
PROJECT_RUN_ATTEMPTS = 3
#: documents a project run re-annotates in one transaction, and how long a batch may grow (seconds)
BATCH_DOCUMENTS = 50
BATCH_SECONDS = 0.5

_UPDATE_DOCUMENT_STATUS = (
    "UPDATE document d SET status = " + STATUS_FROM_SPANS_SQL + ", updated_at = now() "  # noqa: S608  # nosec B608
    "WHERE d.id = %s AND d.status IN " + ANNOTATABLE_SQL + " RETURNING d.status::text AS status")
_UPDATE_PROJECT_STATUSES = (
    "UPDATE document d SET status = " + STATUS_FROM_SPANS_SQL + " "  # noqa: S608  # nosec B608
    "WHERE d.project_id = %s AND d.status IN " + ANNOTATED_SQL)


@dataclass(frozen=True, slots=True)
class ReannotateResult:
    document_id: int
    status: str
    matches: int
    seconds: float


def _prepare_temp_tables(conn) -> None:
    # primary keys: the anti-joins below must not depend on (often stale) statistics of annotation
    db.execute("CREATE TEMP TABLE IF NOT EXISTS psan_match (first_token integer, end_token integer, "
               "rule_level double precision, PRIMARY KEY (first_token, end_token)) ON COMMIT DELETE ROWS",
               None, conn)
    db.execute("CREATE TEMP TABLE IF NOT EXISTS psan_match_rule (first_token integer, end_token integer, "
               "rule_id bigint, PRIMARY KEY (first_token, end_token, rule_id)) ON COMMIT DELETE ROWS", None, conn)
    db.execute("TRUNCATE psan_match, psan_match_rule", None, conn)


def lock_matched_rules(conn, matches: list[RuleMatch]) -> list[RuleMatch]:
    """Lock the matched rules against deletion (key share, in id order) and leave out the vanished ones.

    Why: the rules are read before the document is matched (a second for 10^5 tokens, minutes for a
    project run that reads them once); an annotator changing a decision, or an admin, deletes rules
    meanwhile, and linking one of them was a foreign key violation that failed decisions and whole
    project runs.  A rule being deleted is waited for; once locked, no rule can vanish before the
    commit.  A vanished rule's matches are dropped (its deletion schedules its own re-annotation).
    """
    ids = sorted({rid for m in matches for rid in m.rule_ids})
    if not ids:
        return matches
    present = {r["id"] for r in db.query("SELECT id FROM rule WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE",
                                         (ids,), conn)}
    if len(present) == len(ids):
        return matches
    log.info("%s rules vanished while a document was matched; their matches are left out", len(ids) - len(present))
    kept = (RuleMatch(m.first_token, m.end_token, tuple(r for r in m.rule_ids if r in present)) for m in matches)
    return [m for m in kept if m.rule_ids]


def write_matches(conn, document_id: int, matches: list[RuleMatch], ruleset: RuleSet) -> None:
    """Merge the matches of all rules into the document's annotations (see module docstring)."""
    matches = lock_matched_rules(conn, matches)
    _prepare_temp_tables(conn)
    spans = io.StringIO()
    links = io.StringIO()
    for m in matches:
        level = rule_level((ruleset[rid] for rid in m.rule_ids), ruleset.blocking)
        spans.write(f"{m.first_token}\t{m.end_token}\t{level!r}\n")
        for rid in m.rule_ids:
            links.write(f"{m.first_token}\t{m.end_token}\t{rid}\n")
    spans.seek(0)
    links.seek(0)
    with conn.cursor() as cur:
        cur.copy_expert("COPY psan_match (first_token, end_token, rule_level) FROM STDIN", spans)
        cur.copy_expert("COPY psan_match_rule (first_token, end_token, rule_id) FROM STDIN", links)
        cur.execute("ANALYZE psan_match; ANALYZE psan_match_rule")
        params = {"doc": document_id}
        cur.execute(
            "INSERT INTO annotation (document_id, first_token, end_token, rule_level) "
            "SELECT %(doc)s, first_token, end_token, rule_level FROM psan_match "
            "ON CONFLICT (document_id, first_token, end_token) DO UPDATE SET rule_level = EXCLUDED.rule_level "
            "WHERE annotation.rule_level IS DISTINCT FROM EXCLUDED.rule_level", params)
        # spans no rule produces any more: drop rule-only ones, keep decided ones (level 0)
        cur.execute(
            "DELETE FROM annotation a WHERE a.document_id = %(doc)s AND a.token_decision IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM psan_match m WHERE m.first_token = a.first_token "
            "AND m.end_token = a.end_token) AND NOT EXISTS (SELECT 1 FROM rule r WHERE r.annotation_id = a.id)",
            params)
        cur.execute(
            "UPDATE annotation a SET rule_level = 0 WHERE a.document_id = %(doc)s AND a.rule_level <> 0 "
            "AND NOT EXISTS (SELECT 1 FROM psan_match m WHERE m.first_token = a.first_token "
            "AND m.end_token = a.end_token)", params)
        cur.execute(
            "DELETE FROM annotation_rule ar USING annotation a WHERE ar.annotation_id = a.id "
            "AND a.document_id = %(doc)s AND NOT EXISTS (SELECT 1 FROM psan_match_rule m "
            "WHERE m.first_token = a.first_token AND m.end_token = a.end_token AND m.rule_id = ar.rule_id)", params)
        cur.execute(
            "INSERT INTO annotation_rule (annotation_id, rule_id) SELECT a.id, m.rule_id FROM psan_match_rule m "
            "JOIN annotation a ON a.document_id = %(doc)s AND a.first_token = m.first_token "
            "AND a.end_token = m.end_token JOIN rule r ON r.id = m.rule_id ON CONFLICT DO NOTHING", params)


def decided_spans(conn, document_id: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The spans a person decided private and those decided at all: what covers a rule's match
    (:func:`psan.tool.decisions.rules.drop_covered`).  ``decided`` also holds spans decided public."""
    rows = db.query(prepared("SELECT first_token, end_token, token_decision = 'PRIVATE' AS private FROM annotation "
                             "WHERE document_id = %s AND token_decision IS NOT NULL"), (document_id,), conn)
    return ([(r["first_token"], r["end_token"]) for r in rows if r["private"]],
            [(r["first_token"], r["end_token"]) for r in rows])


def update_document_status(conn, document_id: int) -> str | None:
    """PRE_ANNOTATED while a suspicious span is undecided, DONE otherwise (also after a decision).

    Documents that are NEW or FAILED keep their status.  Returns the resulting status.
    """
    row = db.query_one(_UPDATE_DOCUMENT_STATUS, (document_id,), conn)
    if row is None:
        row = db.query_one("SELECT status::text AS status FROM document WHERE id = %s", (document_id,), conn)
    return row["status"] if row else None


def refresh_project_statuses(conn, project_id: int) -> None:
    """Recompute PRE_ANNOTATED/DONE of a project's documents (after its thresholds changed)."""
    db.execute(_UPDATE_PROJECT_STATUSES, (project_id,), conn)


def rules_snapshot(conn) -> str:
    """The transaction snapshot of the next statements: take it *before* loading a ruleset a run keeps.

    Every rule change committed in it is in the rules read after it (see :func:`reannotate_document_now`).
    """
    return db.query_one("SELECT txid_current_snapshot()::text AS snapshot", None, conn)["snapshot"]


def applied_since(conn, project_id: int, document_id: int, snapshot: str) -> bool:
    """Did a transaction that had not committed at ``snapshot`` apply its rule changes to the document?

    A decision applies its changed rules to its own document at once and marks its ``rule_change`` rows
    with it (:data:`psan.store.corpus.rule_changes.MARK_APPLIED`); runs leave the document out for them.
    Asked under the document's row lock: such a decision has committed, or it waits for this transaction.
    """
    return db.query_one(prepared(
        "SELECT EXISTS (SELECT 1 FROM rule_change WHERE project_id = %s AND applied_document_id = %s "
        "AND NOT txid_visible_in_snapshot(xact, %s::txid_snapshot)) AS newer"),
        (project_id, document_id, snapshot), conn)["newer"]


def reannotate_document_now(conn, document_id: int, ruleset: RuleSet | None = None,
                            doc: Document | None = None, *, ruleset_snapshot: str | None = None
                            ) -> ReannotateResult | None:
    """Apply all rules of the document's project to it, synchronously, in ``conn``'s transaction.

    Locks the document row so concurrent runs on one document serialize.  A RECOGNIZED document
    first gets NE-type rules for its entity types (finishing an interrupted pre-processing).
    Returns ``None`` (nothing done) for missing, NEW and FAILED documents.  Pass ``ruleset`` /
    ``doc`` when already loaded (project-wide runs, pre-processing).

    ``ruleset_snapshot``: the :func:`rules_snapshot` taken before ``ruleset`` was loaded.  Why: a project
    run reads the rules once and writes documents for seconds after; a decision on one of them that
    committed meanwhile has applied newer rules there, and runs leave the document out for its changes
    (:func:`applied_since`).  Writing the older rules over it undid the decision's rules for good (a type
    the annotator had just taught private showed suspicious again).  Such a document gets the rules read
    now, under its lock.
    """
    started = time.perf_counter()
    row = db.query_one("SELECT status::text AS status, project_id FROM document WHERE id = %s FOR UPDATE",
                       (document_id,), conn)
    if row is None or row["status"] not in ANNOTATABLE:
        return None
    if ruleset is not None and ruleset_snapshot is not None \
            and applied_since(conn, row["project_id"], document_id, ruleset_snapshot):
        log.info("document %s: a decision applied newer rules during the run; its rules are read again", document_id)
        ruleset = None
    if row["status"] == DocumentStatus.RECOGNIZED:
        types = [r["type"] for r in db.query("SELECT DISTINCT type FROM named_entity WHERE document_id = %s",
                                             (document_id,), conn)]
        if ensure_ne_type_rules(conn, row["project_id"], types):
            ruleset = None
    if ruleset is None:
        ruleset = load_ruleset(conn, row["project_id"])
    if doc is None:
        doc = load_document_cached(conn, document_id)
    if len(ruleset):
        private, decided = decided_spans(conn, document_id)
        matches = ruleset.match(doc, document_id=document_id, private=private, decided=decided)
    else:
        matches = []
    write_matches(conn, document_id, matches, ruleset)
    status = update_document_status(conn, document_id) or row["status"]
    return ReannotateResult(document_id, status, len(matches), time.perf_counter() - started)


def annotatable_document_ids(conn, project_id: int, exclude_document_id: int | None = None) -> list[int]:
    """Ids of the project's documents rules can (re-)annotate, in id order (``exclude_document_id`` left out)."""
    return [r["id"] for r in db.query(
        "SELECT id FROM document WHERE project_id = %s AND status IN " + ANNOTATABLE_SQL +  # noqa: S608  # nosec B608
        " AND id IS DISTINCT FROM %s ORDER BY id", (project_id, exclude_document_id), conn)]


def reannotate_project(app_transaction, project_id: int, exclude_document_id: int | None = None) -> list[int]:
    """Re-annotate every annotatable document of a project, many documents per transaction.

    ``app_transaction`` is :func:`psan.runtime.db.transaction` (injected so callers choose the app).
    Returns the ids of re-annotated documents.  :mod:`psan.store.corpus.rule_changes` re-annotates only the
    documents changed rules can affect, with the same result; this is the reference it is tested against.
    """
    with app_transaction() as conn:
        snapshot = rules_snapshot(conn)
        ruleset = load_ruleset(conn, project_id)
        ids = annotatable_document_ids(conn, project_id, exclude_document_id)
    return reannotate_documents(app_transaction, ids, ruleset, ruleset_snapshot=snapshot)


def _reannotate_one(conn, document_id: int, ruleset: RuleSet, index_words: bool, snapshot: str | None) -> bool:
    """One document of a run in ``conn``'s transaction; ``index_words``: write its vocabulary too."""
    if reannotate_document_now(conn, document_id, ruleset, ruleset_snapshot=snapshot) is None:
        return False
    if index_words:
        doc = load_document_cached(conn, document_id)
        if doc is not None:
            save_vocabulary(conn, document_id, doc)
    return True


def reannotate_documents(app_transaction, ids: list[int], ruleset: RuleSet,
                         index_words: frozenset[int] | set[int] = frozenset(), *,
                         ruleset_snapshot: str | None = None) -> list[int]:
    """Apply ``ruleset`` to the documents (in id order), up to :data:`BATCH_DOCUMENTS` per transaction.

    Why batches: a transaction per document cost a commit (a disk flush) per document; a batch holds
    its documents' row locks until it commits, so it is also cut after :data:`BATCH_SECONDS`, and
    annotators deciding in one of them wait at most about that long.  A batch PostgreSQL rolls back
    (a deadlock with an annotator's decision that deleted a rule the batch links, and waits for one of
    its documents) is done again one document per transaction, each tried :data:`PROJECT_RUN_ATTEMPTS`
    times.  ``index_words``: documents whose vocabulary (:mod:`psan.store.corpus.vocabulary`) is written too.
    ``ruleset_snapshot``: see :func:`reannotate_document_now`.  Returns the ids of re-annotated documents.
    """
    ids = sorted(ids)
    done: list[int] = []
    pos = 0
    while pos < len(ids):
        taken = 0
        try:
            batch: list[int] = []
            with app_transaction() as conn:
                started = time.perf_counter()
                while pos + taken < len(ids) and taken < BATCH_DOCUMENTS \
                        and (not taken or time.perf_counter() - started < BATCH_SECONDS):
                    document_id = ids[pos + taken]
                    taken += 1
                    if _reannotate_one(conn, document_id, ruleset, document_id in index_words, ruleset_snapshot):
                        batch.append(document_id)
            done += batch
        except psycopg2.errors.TransactionRollbackError:
            log.info("re-annotating %s documents again one by one after a concurrent change", taken)
            done += _one_by_one(app_transaction, ids[pos:pos + taken], ruleset, index_words, ruleset_snapshot)
        pos += taken
    return done


def _one_by_one(app_transaction, ids: list[int], ruleset: RuleSet, index_words: frozenset[int] | set[int],
                snapshot: str | None) -> list[int]:
    done: list[int] = []
    for document_id in ids:
        for attempt in range(PROJECT_RUN_ATTEMPTS):
            try:
                with app_transaction() as conn:
                    if _reannotate_one(conn, document_id, ruleset, document_id in index_words, snapshot):
                        done.append(document_id)
                break
            except psycopg2.errors.TransactionRollbackError:
                # a deadlock with an annotator's decision (it deleted a rule this run links, and waits
                # for the document): PostgreSQL chose this document's transaction; do it again
                if attempt == PROJECT_RUN_ATTEMPTS - 1:
                    raise
                log.info("re-annotating document %s again after a concurrent change", document_id)
    return done
