"""Delivering a project's webhook events: signed POSTs with retries and exponential back-off.

The events are recorded in the database by the transaction that made them happen
(:mod:`psan.store.review.webhooks`); :func:`dispatch` queues one :func:`deliver` task per recorded event,
and the worker's sweeper queues what nobody queued (a path that records events without dispatching, a lost
message).  Each attempt is logged for the admin.

The receiver checks ``X-Psan-Signature: sha256=<hex>``, the HMAC-SHA256 under the project's secret of
``<X-Psan-Timestamp>.<body>``: the timestamp is signed with the body, so a captured request cannot be
replayed later with a fresh timestamp; a receiver refuses timestamps older than a few minutes and
deduplicates by ``X-Psan-Delivery`` (a retry after a lost answer repeats an event).

SSRF: the URL is an admin's word, but the worker POSTs from inside the institution's network.  Only
http(s) URLs without credentials are accepted, and unless ``WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` is set,
a host that is or resolves to a private, loopback, link-local or reserved address is refused, when the
URL is saved and again before each attempt (its DNS may have changed); redirects are not followed.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import socket
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
from celery import shared_task
from flask import current_app
from flask_babel import gettext

from psan.celery.retry import log_unscheduled
from psan.runtime import db
from psan.store.review import webhooks as store_webhooks

log = logging.getLogger(__name__)

MAX_URL = 2000
#: a queued delivery nobody handled for this long (its message was lost) is queued again by the sweeper
STALE_SECONDS = 600


class BadWebhookUrl(ValueError):
    """The URL may not receive webhooks; the message says why (shown to the admin, logged for an attempt)."""


def _private(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    return not ip.is_global or ip.is_multicast


def check_url(url: str, allow_private: bool) -> str:
    """The URL, stripped, if webhooks may go there; else :class:`BadWebhookUrl`."""
    url = (url or "").strip()
    if len(url) > MAX_URL or not url.isprintable():
        raise BadWebhookUrl(gettext("A webhook URL has at most %(n)s printable characters.", n=MAX_URL))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BadWebhookUrl(gettext("Not a URL: %(error)s", error=exc)) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadWebhookUrl(gettext("A webhook URL starts with http:// or https:// and names a host."))
    if parts.username or parts.password:
        raise BadWebhookUrl(gettext("A webhook URL carries no user name or password (the secret signs the events)."))
    if allow_private:
        return url
    try:
        infos = socket.getaddrinfo(parts.hostname, port or (443 if parts.scheme == "https" else 80),
                                   proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        raise BadWebhookUrl(gettext("The host %(host)s cannot be resolved (%(error)s).", host=parts.hostname,
                                    error=exc)) from None
    if any(_private(info[4][0]) for info in infos):
        raise BadWebhookUrl(gettext("The host %(host)s is a private, loopback or reserved address (set "
                                    "WEBHOOK_ALLOW_PRIVATE_ADDRESSES to allow receivers inside your network).",
                                    host=parts.hostname))
    return url


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 under ``secret`` of ``<timestamp>.<body>``."""
    mac = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def backoff(attempts: int, config: Mapping[str, Any]) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: BASE, 2 BASE, 4 BASE …, at most MAX."""
    base = float(config["WEBHOOK_RETRY_BASE_SECONDS"])
    return min(base * 2 ** max(attempts - 1, 0), float(config["WEBHOOK_RETRY_MAX_SECONDS"]))


def dispatch(conn=None, project_id: int | None = None) -> list[int]:
    """Queue a delivery task for every recorded event no task was queued for (of one project, or all).

    Safe inside the transaction that recorded the events: the task waits for them to become visible.
    A broker that refuses leaves the events to the sweeper.
    """
    own = conn is None
    if own:
        with db.transaction() as own_conn:
            return dispatch(own_conn, project_id)
    ids = store_webhooks.unqueued(conn, project_id)
    if not ids:
        return []
    store_webhooks.mark_queued(conn, ids)
    queue = current_app.config.get("CELERY_QUEUE") or None
    for i, delivery_id in enumerate(ids):
        try:
            deliver.apply_async((delivery_id,), queue=queue)
        except Exception as exc:  # noqa: BLE001 - any broker failure: the sweeper queues them later
            log_unscheduled(log, "broker unreachable: %s webhook event(s) wait for the sweeper", len(ids) - i, exc=exc)
            return ids[:i]
    return ids


def dispatch_quietly(conn=None, project_id: int | None = None) -> None:
    """:func:`dispatch` for the places whose own work must not fail because of a webhook."""
    try:
        dispatch(conn, project_id)
    except Exception:  # noqa: BLE001 - the events stay recorded; the sweeper delivers them
        log.warning("could not queue webhook events of project %s", project_id, exc_info=True)


def requeue_stale() -> list[int]:
    """For the sweeper: queue events nobody queued, and queued ones whose message was lost."""
    with db.transaction() as conn:
        store_webhooks.unqueue_stale(conn, STALE_SECONDS)
    return dispatch()


def _post(url: str, secret: str, event: str, delivery_id: int, body: bytes, timeout: float) -> tuple[int | None, str]:
    timestamp = str(int(time.time()))
    headers = {"Content-Type": "application/json", "User-Agent": "psan-webhook/1",
               "X-Psan-Event": event, "X-Psan-Delivery": str(delivery_id), "X-Psan-Timestamp": timestamp,
               "X-Psan-Signature": signature(secret or "", timestamp, body)}
    try:
        response = requests.post(url, data=body, headers=headers, timeout=timeout, allow_redirects=False)
    except requests.RequestException as exc:
        return None, f"{exc.__class__.__name__}: {exc}"[:500]
    return response.status_code, "" if 200 <= response.status_code < 300 else response.reason or ""


#: retries of a task that finds its event not yet committed (one second apart)
_INVISIBLE_RETRIES = 10


#: Celery's bound on retries; the attempts are bounded by WEBHOOK_MAX_ATTEMPTS (and _INVISIBLE_RETRIES)
_TASK_MAX_RETRIES = 10_000


@shared_task(name="psan.deliver_webhook", bind=True, max_retries=_TASK_MAX_RETRIES)
def deliver(self, delivery_id: int) -> dict:
    """POST one event; a failed attempt is logged and retried after :func:`backoff` until WEBHOOK_MAX_ATTEMPTS."""
    config = current_app.config
    with db.transaction() as conn:
        row = store_webhooks.claim(conn, delivery_id, float(config["WEBHOOK_TIMEOUT"]) + 60)
        status = store_webhooks.status_of(conn, delivery_id) if row is None else "pending"
    if row is None:
        if status in (None, "pending"):  # queued by a transaction that had not committed yet (or rolled back)
            if self.request.retries < _INVISIBLE_RETRIES:
                raise self.retry(countdown=1)
            return {"delivery_id": delivery_id, "skipped": status or "missing"}
        return {"delivery_id": delivery_id, "skipped": status}
    if not row["url"]:
        with db.transaction() as conn:
            store_webhooks.finish(conn, delivery_id, "failed")
        return {"delivery_id": delivery_id, "status": "failed", "reason": "no webhook"}
    body = json.dumps({**row["payload"], "delivery_id": delivery_id,
                       "occurred_at": row["created_at"].isoformat()}, separators=(",", ":")).encode("utf-8")
    started = time.monotonic()
    try:
        url = check_url(row["url"], bool(config.get("WEBHOOK_ALLOW_PRIVATE_ADDRESSES")))
        status_code, error = _post(url, row["secret"], row["event"], delivery_id, body,
                                   float(config["WEBHOOK_TIMEOUT"]))
    except BadWebhookUrl as exc:
        status_code, error = None, str(exc)
    ok = status_code is not None and 200 <= status_code < 300
    with db.transaction() as conn:
        attempts = store_webhooks.add_attempt(conn, delivery_id, row["url"], status_code, error,
                                              round(time.monotonic() - started, 3))
        final = ok or attempts >= int(config["WEBHOOK_MAX_ATTEMPTS"])
        if final:
            store_webhooks.finish(conn, delivery_id, "delivered" if ok else "failed")
        else:
            delay = backoff(attempts, config)
            store_webhooks.expect_retry(conn, delivery_id, delay)
    if final:
        if not ok:
            log.warning("webhook event %s of project %s given up after %s attempts", delivery_id, row["project_id"],
                        attempts)
        return {"delivery_id": delivery_id, "status": "delivered" if ok else "failed", "attempts": attempts}
    raise self.retry(countdown=delay)
