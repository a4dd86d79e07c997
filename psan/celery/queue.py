"""Handing documents to the broker: time limits scaled to size, a per-project cap, no lost uploads.

Why here: the web app (upload, Retry) and the worker's sweeper queue the same way.  The database
decides what may be queued (:func:`psan.store.corpus.processing.take_waiting`); a document the broker
refuses stays NEW and unqueued, and the sweeper queues it once Redis answers again.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from psan.celery.retry import log_unscheduled
from psan.celery.runs import time_limits
from psan.runtime import db
from psan.store.corpus import processing

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Queued:
    """What one call handed to the broker and what it left waiting."""

    queued: list[int]
    refused: list[int]


def enqueue(config: Mapping[str, Any], ids: list[int] | None = None, unqueued_grace: float = 0.0) -> Queued:
    """Queue pre-processing of ``ids`` (or of whatever waits, for the sweeper) within the project cap.

    Needs an app context.  Marks first (committed), then publishes; a publish that fails un-marks
    the rest and stops (the broker is down: every further try would wait for its timeouts too).
    """
    from psan.celery.tasks import pre_process
    with db.transaction() as conn:
        rows = processing.take_waiting(conn, int(config["MAX_QUEUED_PER_PROJECT"]), ids, unqueued_grace,
                                       float(config["QUEUED_STALE_SECONDS"]))
    queued: list[int] = []
    for i, row in enumerate(rows):
        soft, hard = time_limits(row["chars"], config)
        try:
            pre_process.apply_async((row["id"],), soft_time_limit=soft, time_limit=hard,
                                    queue=config.get("CELERY_QUEUE") or None)
        except Exception as exc:  # noqa: BLE001 - any broker failure: leave the rest to the sweeper
            log_unscheduled(log, "broker unreachable: %s document(s) wait to be queued by the sweeper", len(rows) - i,
                            exc=exc)
            with db.transaction() as conn:
                processing.unmark_queued(conn, [r["id"] for r in rows[i:]])
            break
        queued.append(row["id"])
    return Queued(queued, [r["id"] for r in rows if r["id"] not in set(queued)])
