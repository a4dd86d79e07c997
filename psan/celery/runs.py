"""The steps a pre-processing run shares with a sectioned run: time limits, heartbeat, failure, storing
the recognized document.

Why a module of its own: :mod:`psan.celery.tasks` (one run) and :mod:`psan.celery.sections` (a chord of
section runs) both use them, and :mod:`psan.celery.queue` sizes the time limits; kept in ``tasks`` they
made ``tasks`` → ``sections`` → ``queue`` → ``tasks`` a cycle and ``sections`` import ``tasks``' private helpers.
"""
from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from flask import current_app

from psan.celery.model_tasks import predictions_for_new_document
from psan.celery.webhooks import dispatch_quietly
from psan.runtime import db
from psan.store.annotation import entities as store_entities
from psan.store.corpus import documents as store_documents
from psan.store.corpus import processing
from psan.store.corpus import reannotate as store_reannotate
from psan.store.shared import stats as store_stats
from psan.tool.formats.tagged_xml import to_xml

log = logging.getLogger(__name__)


def time_limits(chars: int, config: Mapping[str, Any]) -> tuple[float, float]:
    """Soft and hard Celery time limits (seconds) for a document of ``chars`` characters.

    Linear in the size (recognition is linear), with a base for start-up; the hard limit adds a
    grace period for the soft limit's clean FAILED.
    """
    soft = float(config["TASK_TIME_LIMIT_BASE_SECONDS"]) + \
        float(config["TASK_TIME_LIMIT_SECONDS_PER_MCHAR"]) * max(int(chars), 0) / 1_000_000
    return soft, soft + float(config["TASK_TIME_LIMIT_GRACE_SECONDS"])


def short_error(exc: BaseException) -> str:
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{exc.__class__.__name__}: {message}"[:500]


def time_limit_message(kind: str, seconds: float | None, chars: int | None) -> str:
    return (f"Stopped: pre-processing exceeded its {kind} time limit ({seconds or 0:.3g} s for "
            f"{chars if chars is not None else '?'} characters). Split the document, or raise "
            f"TASK_TIME_LIMIT_SECONDS_PER_MCHAR, then use Retry.")


@contextlib.contextmanager
def heartbeat(lease: processing.Claim, every: float) -> Iterator[None]:
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
    dispatch_quietly(project_id=project_id)  # document.ready (and project.decided) recorded by the status trigger
    refresh_statistics({"token": len(doc.tokens), "sentence": len(doc.sentences), "named_entity": len(doc.entities),
                         "annotation": result.matches if result else 0})
    return {"document_id": document_id, "status": result.status if result else None,
            "tokens": len(doc.tokens), "entities": len(doc.entities)}


def fail(document_id: int, message: str, attempt: int | None = None) -> None:
    with db.transaction() as conn:
        processing.mark_failed(conn, document_id, message, attempt)



def refresh_statistics(loaded: dict[str, int]) -> None:
    """ANALYZE what the bulk load made stale, after it committed (a failure here loses nothing)."""
    try:
        with db.transaction() as conn:
            store_stats.analyze_after_load(conn, loaded)
    except Exception:  # noqa: BLE001 - statistics are an optimisation; the document is already saved
        log.warning("ANALYZE after loading a document failed", exc_info=True)
