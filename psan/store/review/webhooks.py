"""SQL of a project's webhook: its URL and secret, the outbox of events and the log of delivery attempts.

Why an outbox: an event is recorded in the transaction that made it happen (a document's status trigger of
migration 0035 records ``document.ready`` and ``project.decided`` on every path that changes a status; a
release records ``release.ready`` here), so no event is sent for work that rolled back and none is lost when
the broker is down: the Celery task (:mod:`psan.celery.webhooks`) delivers what is recorded.  Payloads
hold ids, event names and counts only, never a document's text or name.
"""
from __future__ import annotations

import json
from typing import Any

from psan.runtime import db

__all__ = ["settings", "save_settings", "record", "unqueued", "mark_queued", "add_attempt",
           "finish", "deliveries", "claim", "status_of", "expect_retry", "unqueue_stale", "EVENTS"]

#: the events a webhook receives (``ping``: the admin's test)
EVENTS = ("document.ready", "project.decided", "release.ready", "ping")


def settings(conn, project_id: int) -> dict[str, Any] | None:
    """The project's webhook URL and secret (``None`` values: no webhook); ``None`` for an unknown project."""
    return db.query_one("SELECT id, webhook_url AS url, webhook_secret AS secret FROM project WHERE id = %s",
                        (project_id,), conn)


def save_settings(conn, project_id: int, url: str | None, secret: str | None) -> None:
    """Set (or, with ``url=None``, remove) the webhook; ``secret=None`` keeps the stored one."""
    if url is None:
        db.execute("UPDATE project SET webhook_url = NULL, webhook_secret = NULL WHERE id = %s", (project_id,), conn)
        return
    db.execute("UPDATE project SET webhook_url = %s, webhook_secret = coalesce(%s, webhook_secret) WHERE id = %s",
               (url, secret, project_id), conn)


def record(conn, project_id: int, event: str, payload: dict[str, Any]) -> int | None:
    """Record an event for the project's webhook; ``None`` (nothing recorded) when the project has none."""
    if event not in EVENTS:
        raise ValueError(f"unknown webhook event {event!r}")
    row = db.query_one(
        "INSERT INTO webhook_delivery (project_id, event, payload) SELECT id, %s, %s::jsonb FROM project "
        "WHERE id = %s AND webhook_url IS NOT NULL RETURNING id",
        (event, json.dumps({"event": event, "project_id": project_id, **payload}), project_id), conn)
    return row["id"] if row else None


def unqueued(conn, project_id: int | None = None, limit: int = 100) -> list[int]:
    """Recorded events no task was queued for yet (of one project, or of all), oldest first."""
    return [r["id"] for r in db.query(
        "SELECT id FROM webhook_delivery WHERE status = 'pending' AND queued_at IS NULL "
        "AND (%s::bigint IS NULL OR project_id = %s) ORDER BY id LIMIT %s", (project_id, project_id, limit), conn)]


def mark_queued(conn, ids: list[int]) -> None:
    if ids:
        db.execute("UPDATE webhook_delivery SET queued_at = now() WHERE id = ANY(%s)", (ids,), conn)


def expect_retry(conn, delivery_id: int, seconds: float) -> None:
    """The next attempt is due in ``seconds``: the sweeper leaves it alone until then (plus its grace)."""
    db.execute("UPDATE webhook_delivery SET queued_at = now() + make_interval(secs => %s) WHERE id = %s",
               (seconds, delivery_id), conn)


def unqueue_stale(conn, seconds: float) -> None:
    """Forget the queueing of pending events due more than ``seconds`` ago: their message was lost."""
    db.execute("UPDATE webhook_delivery SET queued_at = NULL WHERE status = 'pending' "
               "AND queued_at < now() - make_interval(secs => %s)", (seconds,), conn)


def claim(conn, delivery_id: int, lease_seconds: float) -> dict[str, Any] | None:
    """Claim a pending delivery for one attempt (no other task claims it for ``lease_seconds``), with its
    project's current URL and secret; ``None`` if it is not pending, claimed by another task, or not visible."""
    return db.query_one(
        "WITH c AS (UPDATE webhook_delivery SET claimed_at = now() WHERE id = %s AND status = 'pending' "
        "AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => %s)) "
        "RETURNING id, project_id, event, payload, attempts, created_at) "
        "SELECT c.*, p.webhook_url AS url, p.webhook_secret AS secret FROM c JOIN project p ON p.id = c.project_id",
        (delivery_id, lease_seconds), conn)


def status_of(conn, delivery_id: int) -> str | None:
    """``delivered``, ``failed``, ``sending`` (claimed by a task), ``pending`` (nobody holds it: the claim ran
    before the recording transaction committed), or ``None`` while the delivery is not visible at all."""
    row = db.query_one("SELECT CASE WHEN status = 'pending' AND claimed_at IS NOT NULL THEN 'sending' ELSE status END "
                       "AS status FROM webhook_delivery WHERE id = %s", (delivery_id,), conn)
    return row["status"] if row else None


def add_attempt(conn, delivery_id: int, url: str, status_code: int | None, error: str | None,
                seconds: float) -> int:
    """Log one attempt; returns the number of attempts so far."""
    return db.query_one(
        "WITH a AS (UPDATE webhook_delivery SET attempts = attempts + 1, claimed_at = NULL WHERE id = %s "
        "RETURNING attempts) "
        "INSERT INTO webhook_attempt (delivery_id, attempt, url, status_code, error, seconds) "
        "SELECT %s, a.attempts, %s, %s, %s, %s FROM a RETURNING attempt",
        (delivery_id, delivery_id, url, status_code, (error or None) and error[:500], seconds), conn)["attempt"]


def finish(conn, delivery_id: int, status: str) -> None:
    """``delivered`` or ``failed`` (given up): no task sends it again."""
    db.execute("UPDATE webhook_delivery SET status = %s, finished_at = now() WHERE id = %s", (status, delivery_id),
               conn)


def deliveries(conn, project_id: int, limit: int = 50) -> list[dict[str, Any]]:
    """The project's newest events with their attempts (for the admin's delivery log)."""
    rows = db.query("SELECT id, event, payload, status, attempts, created_at, finished_at FROM webhook_delivery "
                    "WHERE project_id = %s ORDER BY id DESC LIMIT %s", (project_id, limit), conn)
    if not rows:
        return rows
    attempts: dict[int, list[dict[str, Any]]] = {}
    for a in db.query("SELECT delivery_id, attempt, url, status_code, error, seconds, created_at FROM webhook_attempt "
                      "WHERE delivery_id = ANY(%s) ORDER BY id", ([r["id"] for r in rows],), conn):
        attempts.setdefault(a["delivery_id"], []).append(a)
    for r in rows:
        r["attempt_log"] = attempts.get(r["id"], [])
    return rows
