"""Transient faults of background work: which errors a task retries, and what a task that failed leaves behind.

Why: a PostgreSQL restart or a Redis outage of a few seconds made re-annotations and retrainings
fail once and for all.  Every task (the app's task class, :func:`psan.celery.celery_init_app`) now
retries these errors with Celery's own autoretry and exponential back-off; a task that still fails
is recorded (:mod:`psan.store.corpus.task_failures`) for the documents page and the dashboard.
"""
from __future__ import annotations

import logging

import kombu.exceptions
import psycopg2
import redis.exceptions
from celery import signals

log = logging.getLogger(__name__)

#: errors that pass by themselves: the database or the broker is restarting or unreachable
TRANSIENT: tuple[type[BaseException], ...] = (
    psycopg2.OperationalError, psycopg2.InterfaceError, kombu.exceptions.OperationalError,
    redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, ConnectionError)
#: the attributes of the app's task class that turn Celery's autoretry on for every task
RETRY_POLICY = {"autoretry_for": TRANSIENT, "retry_backoff": 2, "retry_backoff_max": 120, "retry_jitter": True,
                "max_retries": 8}

#: which argument of a task names its project or document (for the failure's place on the pages)
_PROJECT_ARG = {"psan.re_annotate_project": 0, "psan.retrain_model": 0, "psan.model_predictions_project": 0}
_DOCUMENT_ARG = {"psan.pre_process": 0, "psan.re_annotate": 0, "psan.recognize_section": 0}


def is_transient(exc: BaseException) -> bool:
    return isinstance(exc, TRANSIENT)


def log_unscheduled(logger: logging.Logger, message: str, *args: object, exc: BaseException) -> None:
    """A scheduling failure the caller handles (the sweeper runs it later): a broker or database outage is one
    line without a traceback; anything else keeps its traceback (it is a bug)."""
    if is_transient(exc):
        logger.warning(message + " (%s: %s)", *args, exc.__class__.__name__, exc)
    else:
        logger.warning(message, *args, exc_info=exc)


def _int_arg(args: object, position: int | None) -> int | None:
    if position is None or not isinstance(args, (list, tuple)) or len(args) <= position:
        return None
    value = args[position]
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


@signals.task_failure.connect
def record_failure(sender=None, exception=None, args=None, **kwargs) -> None:  # noqa: ANN001 - Celery's signature
    """A task failed for good (after its retries): keep it for the documents page and the dashboard."""
    name = getattr(sender, "name", None) or "?"
    flask_app = getattr(getattr(sender, "app", None), "flask_app", None)
    if flask_app is None or exception is None:
        return
    from psan.runtime import db
    from psan.store.corpus import task_failures
    retries = getattr(getattr(sender, "request", None), "retries", 0) or 0
    try:
        with flask_app.app_context(), db.transaction() as conn:
            task_failures.record(conn, name, f"{exception.__class__.__name__}: {exception}"[:500],
                                 project_id=_int_arg(args, _PROJECT_ARG.get(name)),
                                 document_id=_int_arg(args, _DOCUMENT_ARG.get(name)), retries=int(retries))
    except Exception:  # noqa: BLE001 - the database may be what failed; the worker's log keeps the failure
        log.warning("could not record the failure of task %s", name, exc_info=True)
