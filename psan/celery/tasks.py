"""Background tasks: health check, document pre-processing and (project-wide) re-annotation."""
from __future__ import annotations

import logging
import socket

from billiard.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from celery import shared_task, signals
from flask import current_app

from psan.celery.interrupted_imports import forget_orphaned_modules
from psan.celery.markers import consume_pending
from psan.celery.runs import fail, heartbeat, short_error, store_recognized, time_limit_message
from psan.runtime import db
from psan.store.admin.health import database_probe
from psan.store.corpus import processing
from psan.store.corpus import reannotate as store_reannotate
from psan.store.corpus import rule_changes as store_rule_changes
from psan.store.corpus.pipelines import effective_config, get_pipeline
from psan.store.shared.document_status import DocumentStatus

log = logging.getLogger(__name__)


@shared_task(name="psan.health_check")
def health_check(nonce: str) -> dict:
    """Prove the whole worker round-trip: broker → worker → PostgreSQL → result backend."""
    with db.transaction() as conn:
        row = database_probe(conn)
    return {"nonce": nonce, "worker": socket.gethostname(), "database": row["database"], "documents": row["documents"]}


# --- annotation workflow ---------------------------------------------------------------------------------
@shared_task(name="psan.pre_process", bind=True)
def pre_process(self, document_id: int) -> dict:
    """Recognize a document and apply the project's rules: NEW → PROCESSING → RECOGNIZED → PRE_ANNOTATED/DONE.

    The run first claims the document (a duplicate delivery of a document another live run holds,
    or of a finished one, does nothing) and keeps a heartbeat while it works.  Recognition runs
    outside any transaction (it can take long); its results are written in one transaction that
    first deletes what an interrupted run left, then the rules are applied in a second one.  Any
    exception, the soft time limit included, marks the document FAILED with a short message.
    """
    config = current_app.config
    with db.transaction() as conn:
        lease = processing.claim(conn, document_id, config["PROCESSING_STALE_SECONDS"])
        row = processing.work_item(conn, document_id)
    if lease is None or row is None:
        return {"document_id": document_id, "skipped": row["status"] if row else "missing"}
    try:
        with heartbeat(lease, float(config["PROCESSING_HEARTBEAT_SECONDS"])):
            pipeline = get_pipeline(effective_config(row["pipeline"], row["language"]))
            ranges = pipeline.sections(row["text"])
            if len(ranges) > 1 and config.get("PREPROCESS_SECTIONS_IN_PARALLEL", True) \
                    and not config.get("CELERY_TASK_ALWAYS_EAGER"):
                from psan.celery.sections import start_sections  # a large document: its sections in parallel
                start_sections(lease, ranges)
                return {"document_id": document_id, "sections": len(ranges)}
            doc = pipeline.process(row["text"])
            return store_recognized(lease, row["project_id"], doc)
    except SoftTimeLimitExceeded:
        forget_orphaned_modules()
        log.warning("pre-processing document %s hit its soft time limit", document_id)
        fail(document_id, time_limit_message("soft", self.request.timelimit[1] if self.request.timelimit
                                                else None, len(row["text"])), lease.attempt)
        return {"document_id": document_id, "status": DocumentStatus.FAILED.value}
    except Exception as exc:  # noqa: BLE001 - any failure becomes a visible FAILED status
        log.exception("pre-processing document %s failed", document_id)
        fail(document_id, short_error(exc), lease.attempt)
        return {"document_id": document_id, "status": DocumentStatus.FAILED.value}


@signals.task_failure.connect
def _on_hard_time_limit(sender=None, exception=None, args=None, **kwargs) -> None:
    """The hard limit kills the child process: the worker's main process marks the document FAILED.

    Connected for every task (``pre_process`` is a proxy, which a sender filter would never match).
    """
    if getattr(sender, "name", None) not in ("psan.pre_process", "psan.recognize_section") \
            or not isinstance(exception, TimeLimitExceeded) or not args:
        return
    flask_app = getattr(sender.app, "flask_app", None)
    if flask_app is None:
        return
    with flask_app.app_context():
        with db.transaction() as conn:
            chars = processing.text_length(conn, int(args[0]))
        fail(int(args[0]), time_limit_message("hard", exception.args[0] if exception.args else None, chars))


@shared_task(name="psan.re_annotate")
def re_annotate(document_id: int) -> dict:
    """Apply the project's current rules to one document (idempotent)."""
    with db.transaction() as conn:
        result = store_reannotate.reannotate_document_now(conn, document_id)
    return {"document_id": document_id, "status": result.status if result else None,
            "seconds": result.seconds if result else None}


@shared_task(name="psan.re_annotate_project")
def re_annotate_project(project_id: int, exclude_document_id: int | None = None, debounced: bool = False,
                        full: bool = False) -> dict:
    """Apply the project's rule changes to the documents they can affect (:mod:`psan.store.corpus.rule_changes`).

    Queued by :func:`psan.celery.scheduling.schedule_project_reannotation` with ``debounced=True`` (the
    task takes the pending marker from Redis; a queued run that finds no change left is a no-op, so later
    runs supersede earlier pending ones).  The documents a decision already brought up to date are known
    per change, so ``exclude_document_id`` is no longer needed (kept for queued messages).  ``full``:
    re-annotate every document (:func:`psan.store.corpus.reannotate.reannotate_project`).
    """
    if debounced:
        consume_pending(project_id)
    if full:
        done = store_reannotate.reannotate_project(db.transaction, project_id, exclude_document_id)
        return {"project_id": project_id, "documents": len(done), "full": True}
    result = store_rule_changes.reannotate_changed(db.transaction, project_id)
    return {"project_id": project_id, "documents": len(result.documents), "changes": result.changes,
            "full": result.full, "skipped": result.skipped, "seconds": round(result.seconds, 3)}
