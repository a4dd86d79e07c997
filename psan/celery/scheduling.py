"""Queueing follow-up work from the web app: debounced project re-annotation and model retraining.

Why here and not in :mod:`psan.store`: these functions talk to Redis and Celery and read the app's
configuration; the store only answers the database questions they ask (e.g. "have enough decisions
been logged since the latest model", :func:`psan.store.corpus.project_model.retrain_due`).

Every function needs an app context (``REDIS_URL``, ``REDIS_KEY_PREFIX`` and the thresholds below).
"""
from __future__ import annotations

import logging
from typing import Any

from flask import current_app

from psan.celery.markers import debounce_key, redis_client, retrain_pending_key, withdraw_key
from psan.celery.retry import log_unscheduled
from psan.store.corpus import project_model as store_model

log = logging.getLogger(__name__)

# Atomically: schedule if nothing is pending; if a pending run excludes another document, make it
# exclude none (its rule change must reach that document too).
_SCHEDULE_LUA = """
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if v ~= ARGV[1] then redis.call('SET', KEYS[1], '', 'KEEPTTL') end
return 0
"""


# --- debounced project-wide re-annotation ---------------------------------------------------------------
def schedule_project_reannotation(project_id: int, exclude_document_id: int | None = None,
                                  delay: float | None = None) -> None:
    """Queue one re-annotation of the project's documents, debounced.

    Many calls within ``REANNOTATE_DEBOUNCE_SECONDS`` (or ``delay``) enqueue a single
    ``re_annotate_project`` task with that countdown; the pending run is recorded in Redis and
    consumed by the task when it starts, so a call arriving while a run is in progress schedules
    another one.  The run applies the rule changes logged since the last run to the documents they can
    affect (:mod:`psan.store.corpus.rule_changes`); a run that finds nothing left to do is a no-op, so a later
    run supersedes an earlier pending one.  ``exclude_document_id`` (a document already brought up to
    date synchronously) is recorded but no longer needed: each logged change names the document its
    transaction applied it to.
    """
    from psan.celery.tasks import re_annotate_project
    countdown = float(current_app.config.get("REANNOTATE_DEBOUNCE_SECONDS", 2) if delay is None else delay)
    key = debounce_key(project_id)
    value = "" if exclude_document_id is None else str(int(exclude_document_id))
    client = redis_client()
    if not client.eval(_SCHEDULE_LUA, 1, key, value, int(countdown) + 600):
        return
    try:
        re_annotate_project.apply_async((int(project_id), exclude_document_id), {"debounced": True},
                                        countdown=max(countdown, 0))
    except Exception:
        client.delete(key)  # do not absorb later calls for a run that was never queued
        raise


# --- automatic retraining ----------------------------------------------------------------------------------
def schedule_retrain(project_id: int, force: bool = False) -> bool:
    """Queue ``psan.retrain_model`` unless one is already pending (``force``: queue anyway).

    Returns whether a task was queued.  The pending marker expires after an hour in case a worker
    dies; the task clears it when it finishes.
    """
    from psan.celery.model_tasks import retrain_model
    client = redis_client()
    key = retrain_pending_key(project_id)
    if not client.set(key, "1", nx=True, ex=3600) and not force:
        return False
    try:
        retrain_model.apply_async((int(project_id),))
    except Exception:
        client.delete(key)
        raise
    return True


def _retrain_limits() -> tuple[int, int]:
    return (int(current_app.config.get("MODEL_RETRAIN_AFTER_DECISIONS", 100) or 0),
            int(current_app.config.get("MODEL_FIRST_AFTER_DECISIONS", 20) or 0))


def retrain_read(project_id: int) -> tuple[str, dict[str, Any]] | None:
    """The read :func:`maybe_schedule_retrain` makes (``None``: retraining is off), to send with others
    (:func:`psan.runtime.db.read_together`)."""
    return store_model.retrain_due_read(project_id, *_retrain_limits())


_UNREAD = object()


def maybe_schedule_retrain(conn, project_id: int, row: Any = _UNREAD) -> bool:
    """After a decision: queue a retrain once ``MODEL_RETRAIN_AFTER_DECISIONS`` new decisions are logged.

    A project's first model comes after ``MODEL_FIRST_AFTER_DECISIONS`` decisions (see
    :func:`psan.store.corpus.project_model.retrain_due`).  Never raises (the decision is already saved);
    returns whether a retrain was queued.  ``row``: :func:`retrain_read`'s row when the caller sent it.
    """
    try:
        due = store_model.retrain_due(conn, project_id, *_retrain_limits()) if row is _UNREAD \
            else store_model.retrain_due_from(row)
        if not due:
            return False
        return schedule_retrain(project_id)
    except Exception as exc:  # noqa: BLE001 - never fail a decision because of the model
        log_unscheduled(log, "project %s: could not check/schedule the model retraining", project_id, exc=exc)
        return False


def maybe_withdraw_new_spans(conn, project_id: int) -> bool:
    """After a verdict on a span only the model proposed: withdraw its undecided new spans once they are stopped.

    :func:`psan.store.corpus.project_model.new_spans_to_withdraw` says when; the refresh of the
    predictions (``psan.model_predictions_project`` with the latest model) drops them as a retrain
    would, at once instead of up to ``MODEL_RETRAIN_AFTER_DECISIONS`` decisions later.  Once per model
    (a Redis marker).  Never raises (the decision is already saved); returns whether it was queued.
    """
    try:
        model_id = store_model.new_spans_to_withdraw(conn, project_id)
        if model_id is None:
            return False
        client = redis_client()
        key = withdraw_key(project_id, model_id)
        if not client.set(key, "1", nx=True, ex=7 * 24 * 3600):
            return False
        from psan.celery.model_tasks import model_predictions_project
        try:
            model_predictions_project.apply_async((int(project_id), int(model_id)))
        except Exception:
            client.delete(key)
            raise
        return True
    except Exception as exc:  # noqa: BLE001 - never fail a decision because of the model
        log_unscheduled(log, "project %s: could not withdraw the model's new spans", project_id, exc=exc)
        return False
