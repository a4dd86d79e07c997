"""Background tasks: health check, document pre-processing and (project-wide) re-annotation."""
from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections.abc import Iterator

from billiard.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from celery import shared_task, signals
from flask import current_app

from psan import db
from psan.celery.model_tasks import predictions_for_new_document
from psan.celery.scheduling import consume_pending
from psan.store import documents as store_documents
from psan.store import entities as store_entities
from psan.store import processing
from psan.store import reannotate as store_reannotate
from psan.store import rule_changes as store_rule_changes
from psan.store import stats as store_stats
from psan.store.document_status import DocumentStatus
from psan.store.health import database_probe
from psan.store.pipelines import effective_config, get_pipeline
from psan.tool.tagged_xml import to_xml

log = logging.getLogger(__name__)


@shared_task(name="psan.health_check")
def health_check(nonce: str) -> dict:
    """Prove the whole worker round-trip: broker → worker → PostgreSQL → result backend."""
    with db.transaction() as conn:
        row = database_probe(conn)
    return {"nonce": nonce, "worker": socket.gethostname(), "database": row["database"], "documents": row["documents"]}


# --- annotation workflow ---------------------------------------------------------------------------------
def _short_error(exc: BaseException) -> str:
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{exc.__class__.__name__}: {message}"[:500]


def _time_limit_message(kind: str, seconds: float | None, chars: int | None) -> str:
    return (f"Stopped: pre-processing exceeded its {kind} time limit ({seconds or 0:.3g} s for "
            f"{chars if chars is not None else '?'} characters). Split the document, or raise "
            f"TASK_TIME_LIMIT_SECONDS_PER_MCHAR, then use Retry.")


@contextlib.contextmanager
def _heartbeat(lease: processing.Claim, every: float) -> Iterator[None]:
    """Refresh the document's heartbeat from a thread while the (CPU-bound) run goes on.

    The sweeper takes a document whose heartbeat is older than PROCESSING_STALE_SECONDS for
    abandoned (its worker was killed) and queues it again.
    """
    app = current_app._get_current_object()
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(every):
            try:
                with db.transaction(app) as conn:
                    if not processing.heartbeat(conn, lease):
                        return
            except Exception:  # noqa: BLE001 - a missed beat only makes the document look stale sooner
                log.warning("heartbeat of document %s failed", lease.document_id, exc_info=True)

    thread = threading.Thread(target=beat, name=f"heartbeat-{lease.document_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


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
        with _heartbeat(lease, float(config["PROCESSING_HEARTBEAT_SECONDS"])):
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
        log.warning("pre-processing document %s hit its soft time limit", document_id)
        _fail(document_id, _time_limit_message("soft", self.request.timelimit[1] if self.request.timelimit
                                                else None, len(row["text"])), lease.attempt)
        return {"document_id": document_id, "status": DocumentStatus.FAILED.value}
    except Exception as exc:  # noqa: BLE001 - any failure becomes a visible FAILED status
        log.exception("pre-processing document %s failed", document_id)
        _fail(document_id, _short_error(exc), lease.attempt)
        return {"document_id": document_id, "status": DocumentStatus.FAILED.value}


def store_recognized(lease: processing.Claim, project_id: int, doc) -> dict:  # noqa: ANN001 - tool Document
    """Tagged XML, project-model suggestions, the COPY into PostgreSQL, rules and statuses of a recognized document.

    Shared by :func:`pre_process` and the merge of a sectioned run (``psan.celery.sections``); exceptions
    propagate to the caller, which marks the document FAILED.
    """
    document_id = lease.document_id
    xml = to_xml(doc)
    # the project model's suggestions: extra MODEL entities voted on by the project's MODEL rule
    doc.entities = doc.entities + predictions_for_new_document(project_id, doc)
    with db.transaction() as conn:
        if not processing.holds(conn, lease):
            return {"document_id": document_id, "skipped": "taken over"}
        store_documents.save_recognized(conn, document_id, doc, xml)
    with db.transaction() as conn:
        if not processing.holds(conn, lease):
            return {"document_id": document_id, "skipped": "taken over"}
        result = store_reannotate.reannotate_document_now(conn, document_id, doc=doc)
        # visible together with the new status; a failure only costs the grouping
        store_entities.update_document_entities_or_log(conn, document_id, doc)
    _refresh_statistics({"token": len(doc.tokens), "sentence": len(doc.sentences), "named_entity": len(doc.entities),
                         "annotation": result.matches if result else 0})
    return {"document_id": document_id, "status": result.status if result else None,
            "tokens": len(doc.tokens), "entities": len(doc.entities)}


def _fail(document_id: int, message: str, attempt: int | None = None) -> None:
    with db.transaction() as conn:
        processing.mark_failed(conn, document_id, message, attempt)


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
        _fail(int(args[0]), _time_limit_message("hard", exception.args[0] if exception.args else None, chars))


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
        result = store_reannotate.reannotate_document_now(conn, document_id)
    return {"document_id": document_id, "status": result.status if result else None,
            "seconds": result.seconds if result else None}


@shared_task(name="psan.re_annotate_project")
def re_annotate_project(project_id: int, exclude_document_id: int | None = None, debounced: bool = False,
                        full: bool = False) -> dict:
    """Apply the project's rule changes to the documents they can affect (:mod:`psan.store.rule_changes`).

    Queued by :func:`psan.celery.scheduling.schedule_project_reannotation` with ``debounced=True`` (the
    task takes the pending marker from Redis; a queued run that finds no change left is a no-op, so later
    runs supersede earlier pending ones).  The documents a decision already brought up to date are known
    per change, so ``exclude_document_id`` is no longer needed (kept for queued messages).  ``full``:
    re-annotate every document (:func:`psan.store.reannotate.reannotate_project`).
    """
    if debounced:
        consume_pending(project_id)
    if full:
        done = store_reannotate.reannotate_project(db.transaction, project_id, exclude_document_id)
        return {"project_id": project_id, "documents": len(done), "full": True}
    result = store_rule_changes.reannotate_changed(db.transaction, project_id)
    return {"project_id": project_id, "documents": len(result.documents), "changes": result.changes,
            "full": result.full, "skipped": result.skipped, "seconds": round(result.seconds, 3)}
