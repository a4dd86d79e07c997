"""Background tasks: health check, document pre-processing and (project-wide) re-annotation."""
from __future__ import annotations

import logging
import socket

from celery import shared_task

from psan import db
from psan.store import annotate as store_annotate
from psan.store import documents as store_documents
from psan.store import project_model as store_model
from psan.store import stats as store_stats
from psan.store.pipelines import effective_config, get_pipeline
from psan.tool.tagged_xml import to_xml

log = logging.getLogger(__name__)


@shared_task(name="psan.health_check")
def health_check(nonce: str) -> dict:
    """Prove the whole worker round-trip: broker → worker → PostgreSQL → result backend."""
    with db.transaction() as conn:
        row = db.query_one("SELECT count(*) AS documents, current_database() AS database FROM document", None, conn)
    return {"nonce": nonce, "worker": socket.gethostname(), "database": row["database"], "documents": row["documents"]}


# --- annotation workflow ---------------------------------------------------------------------------------
#: statuses pre-processing (re)does; later ones are finished and skipped by a duplicate delivery
_PREPROCESS_STATUSES = ("NEW", "RECOGNIZED", "FAILED")


def _short_error(exc: BaseException) -> str:
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{exc.__class__.__name__}: {message}"[:500]


def _mark_failed(document_id: int, exc: BaseException) -> None:
    with db.transaction() as conn:
        db.execute("UPDATE document SET status = 'FAILED', error = %s, updated_at = now() WHERE id = %s",
                   (_short_error(exc), document_id), conn)


@shared_task(name="psan.pre_process")
def pre_process(document_id: int) -> dict:
    """Recognize a document and apply the project's rules: NEW → RECOGNIZED → PRE_ANNOTATED/DONE.

    Recognition runs outside any transaction (it can take long); its results are written in one
    transaction that first deletes what an interrupted run left, then NE-type rules and all rules
    are applied in a second one.  A duplicate delivery of a finished document does nothing; any
    exception marks the document FAILED with a short message (rolled-back data never shows).
    """
    with db.transaction() as conn:
        row = db.query_one("SELECT d.text, d.language, d.status::text AS status, d.project_id, p.pipeline "
                           "FROM document d "
                           "JOIN project p ON p.id = d.project_id WHERE d.id = %s", (document_id,), conn)
    if row is None or row["status"] not in _PREPROCESS_STATUSES:
        return {"document_id": document_id, "skipped": row["status"] if row else "missing"}
    try:
        pipeline = get_pipeline(effective_config(row["pipeline"], row["language"]))
        doc = pipeline.process(row["text"])
        xml = to_xml(doc)
        # the project model's suggestions: extra MODEL entities voted on by the project's MODEL rule
        doc.entities = doc.entities + store_model.predictions_for_new_document(row["project_id"], doc)
        with db.transaction() as conn:
            locked = db.query_one("SELECT status::text AS status FROM document WHERE id = %s FOR UPDATE",
                                  (document_id,), conn)
            if locked is None or locked["status"] not in _PREPROCESS_STATUSES:
                return {"document_id": document_id, "skipped": locked["status"] if locked else "missing"}
            store_documents.save_recognized(conn, document_id, doc, xml)
        with db.transaction() as conn:
            result = store_annotate.reannotate_document_now(conn, document_id, doc=doc)
    except Exception as exc:  # noqa: BLE001 - any failure becomes a visible FAILED status
        log.exception("pre-processing document %s failed", document_id)
        _mark_failed(document_id, exc)
        return {"document_id": document_id, "status": "FAILED"}
    _refresh_statistics({"token": len(doc.tokens), "sentence": len(doc.sentences), "named_entity": len(doc.entities),
                         "annotation": result.matches if result else 0})
    return {"document_id": document_id, "status": result.status if result else None,
            "tokens": len(doc.tokens), "entities": len(doc.entities)}


def _refresh_statistics(loaded: dict[str, int]) -> None:
    """ANALYZE what the bulk load made stale, after it committed (a failure here loses nothing)."""
    try:
        with db.transaction() as conn:
            store_stats.analyze_after_load(conn, loaded)
    except Exception:  # noqa: BLE001 - statistics are an optimisation; the document is already saved
        log.warning("ANALYZE after loading a document failed", exc_info=True)


@shared_task(name="psan.re_annotate")
def re_annotate(document_id: int) -> dict:
    """Apply the project's current rules to one document (idempotent)."""
    with db.transaction() as conn:
        result = store_annotate.reannotate_document_now(conn, document_id)
    return {"document_id": document_id, "status": result.status if result else None,
            "seconds": result.seconds if result else None}


@shared_task(name="psan.re_annotate_project")
def re_annotate_project(project_id: int, exclude_document_id: int | None = None, debounced: bool = False) -> dict:
    """Apply the current rules to every annotated document of a project, one transaction each.

    Queued by :func:`psan.store.annotate.schedule_project_reannotation` with ``debounced=True``:
    the task then takes the pending marker from Redis, whose excluded document wins over the argument.
    """
    if debounced:
        pending, exclude = store_annotate.consume_pending(project_id)
        if pending:
            exclude_document_id = exclude
    done = store_annotate.reannotate_project(db.transaction, project_id, exclude_document_id)
    return {"project_id": project_id, "documents": len(done)}
