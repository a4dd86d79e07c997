"""Redis markers shared by who queues follow-up work and the tasks that do it: the pending project
re-annotation, the pending retrain, and the last training outcome.

Why apart from :mod:`psan.celery.scheduling`: the tasks (:mod:`psan.celery.tasks`,
:mod:`psan.celery.model_tasks`) consume and clear these markers, and scheduling queues those tasks;
with the markers in scheduling the three modules imported each other.

Every function needs an app context (``REDIS_URL``, ``REDIS_KEY_PREFIX``).
"""
from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import redis
from flask import current_app

log = logging.getLogger(__name__)

_redis_clients: dict[str, redis.Redis] = {}


def redis_client() -> redis.Redis:
    """One client per ``REDIS_URL`` and process (clients hold a connection pool)."""
    url = current_app.config["REDIS_URL"]
    client = _redis_clients.get(url)
    if client is None:
        client = _redis_clients[url] = redis.Redis.from_url(url)
    return client


def _key(*parts: object) -> str:
    prefix = current_app.config.get("REDIS_KEY_PREFIX", "psan")
    return ":".join([str(prefix), *(str(p) for p in parts)])


# --- debounced project-wide re-annotation ---------------------------------------------------------------
def debounce_key(project_id: int) -> str:
    return _key("reannotate", "project", int(project_id))


def consume_pending(project_id: int) -> tuple[bool, int | None]:
    """Called by the task: take the pending marker; returns (was pending, document to exclude)."""
    pipe = redis_client().pipeline(transaction=True)
    pipe.get(debounce_key(project_id))
    pipe.delete(debounce_key(project_id))
    value, _ = pipe.execute()
    if value is None:
        return False, None
    text = value.decode()
    return True, (int(text) if text else None)


# --- automatic retraining ----------------------------------------------------------------------------------
def retrain_pending_key(project_id: int) -> str:
    return _key("model", "retrain", "project", int(project_id))


def withdraw_key(project_id: int, model_id: int) -> str:
    """Marks that a model's stopped new spans were withdrawn (``scheduling.maybe_withdraw_new_spans``)."""
    return _key("model", "withdrawn", "project", int(project_id), int(model_id))


def clear_retrain_pending(project_id: int) -> None:
    redis_client().delete(retrain_pending_key(project_id))


# --- last training outcome (shown on the model page) ------------------------------------------------------
def _outcome_key(project_id: int) -> str:
    return _key("model", "outcome", "project", int(project_id))


def set_training_outcome(project_id: int, state: str, message: str = "") -> None:
    """Record ``queued`` / ``running`` / ``trained`` / ``failed`` (with a short message) for a week."""
    value = json.dumps({"state": state, "message": message[:500],
                        "at": datetime.now(UTC).isoformat(timespec="seconds")})
    try:
        redis_client().set(_outcome_key(project_id), value, ex=7 * 24 * 3600)
    except Exception:  # noqa: BLE001 - status display only
        log.warning("could not record the model training state of project %s", project_id)


def training_outcome(project_id: int) -> dict[str, str] | None:
    """The last recorded training state of a project, if any."""
    try:
        raw = redis_client().get(_outcome_key(project_id))
    except Exception:  # noqa: BLE001 - status display only
        return None
    return json.loads(raw) if raw else None
