"""The worker-side sweeper: re-queues stale and never-queued pre-processing every few seconds.

Why in the worker (a timer thread in its main process, not Celery beat): it needs no extra process
in ``run.sh``/``make run``/compose, keeps working while Redis is down (it only talks to
PostgreSQL until it queues), and several workers sweeping at once are safe because the database
serializes queuing (:func:`psan.store.corpus.processing.take_waiting`) and a run claims its document.
Before taking stale runs over, it vouches for chords whose tasks wait in the queue
(:func:`psan.celery.sections.keep_waiting_chords_alive`): waiting is not being dead.
"""
from __future__ import annotations

import logging
import threading

from celery import signals
from flask import Flask

from psan.celery.queue import enqueue
from psan.celery.sections import keep_waiting_chords_alive
from psan.runtime import db
from psan.store.annotation import decision_requests
from psan.store.corpus import download_jobs, processing

log = logging.getLogger(__name__)

STALE_MESSAGE = ("Stopped: the worker processing this document stopped %(attempts)s times (killed, out of memory "
                 "or over its hard time limit). Use Retry, or split the document.")


def sweep_once(app: Flask) -> dict[str, list[int]]:
    """One pass: vouch for waiting chords, abandoned runs back to NEW (or FAILED after many), queue what waits."""
    config = app.config
    with app.app_context():
        attempts = int(config["PROCESSING_MAX_ATTEMPTS"])
        vouched = _vouch_for_waiting_chords(app)
        recovered: dict[str, list[int]] = {"requeued": [], "failed": []}
        if vouched is not None:  # else a live chord's tasks may wait in the broker we cannot read: next time
            with db.transaction() as conn:
                recovered = processing.recover_stale(conn, float(config["PROCESSING_STALE_SECONDS"]), attempts,
                                                     STALE_MESSAGE % {"attempts": attempts})
        # abandoned runs at once (no grace: nobody is about to queue them), then whatever else waits
        queued = enqueue(config, recovered["requeued"]).queued if recovered["requeued"] else []
        queued += enqueue(config, unqueued_grace=float(config["SWEEP_UNQUEUED_GRACE_SECONDS"])).queued
        reannotated = _schedule_pending_reannotations()
        webhook_events = _queue_webhook_events()
        with db.transaction() as conn:
            decision_requests.forget_old(conn)  # retries come within seconds; ids are kept a day
            download_jobs.forget_old(conn)  # prepared downloads are personal data: kept a day
    result = {"vouched": vouched or [], **recovered, "queued": queued, "reannotated_projects": reannotated}
    if any(result.values()) or webhook_events:
        log.info("sweeper: %s, webhook events queued: %s", result, webhook_events)
    return result


def _queue_webhook_events() -> list[int]:
    """Webhook events recorded on a path that does not queue them (or whose message was lost)."""
    from psan.celery.webhooks import requeue_stale
    try:
        return requeue_stale()
    except Exception:  # noqa: BLE001 - the events stay recorded: next sweep
        log.warning("could not queue webhook events", exc_info=True)
        return []


def _vouch_for_waiting_chords(app: Flask) -> list[int] | None:
    """Fresh heartbeats for chords whose tasks wait; ``None`` when the broker cannot be read.

    Taking stale runs over then waits for the next sweep: nothing taken over could be queued while
    Redis is down anyway, and a chord waiting there is not dead.
    """
    try:
        return keep_waiting_chords_alive(app)
    except Exception:  # noqa: BLE001 - Redis down (or PostgreSQL): try again at the next sweep
        log.warning("sweeper: could not look for waiting section tasks; taking stale runs over waits",
                    exc_info=True)
        return None


def _schedule_pending_reannotations() -> list[int]:
    """Project re-annotations a decision could not schedule while Redis was down."""
    from psan.celery.scheduling import schedule_project_reannotation
    with db.transaction() as conn:
        pending = processing.take_reannotation_requests(conn)
    done = []
    for position, project_id in enumerate(pending):
        try:
            schedule_project_reannotation(project_id)
        except Exception:  # noqa: BLE001 - still down: keep the rest pending for the next sweep
            with db.transaction() as conn:
                for waiting in pending[position:]:
                    processing.request_reannotation(conn, waiting)
            raise
        done.append(project_id)
    return done


class Sweeper:
    """A daemon thread calling :func:`sweep_once` every ``SWEEP_INTERVAL_SECONDS``."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.interval = float(app.config["SWEEP_INTERVAL_SECONDS"])
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="psan-sweeper", daemon=True)

    def start(self) -> None:
        if self.interval > 0:
            self._thread.start()
            log.info("sweeper started: every %.3g s, stale after %s s", self.interval,
                     self.app.config["PROCESSING_STALE_SECONDS"])

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            try:
                sweep_once(self.app)
            except Exception:  # noqa: BLE001 - PostgreSQL or Redis down: try again at the next tick
                log.warning("sweep failed; retrying in %.3g s", self.interval, exc_info=True)
            if self._stop.wait(self.interval):
                return


_sweepers: list[Sweeper] = []


@signals.worker_ready.connect
def _start(sender=None, **kwargs) -> None:
    app = getattr(getattr(sender, "app", None), "flask_app", None)
    if app is not None:
        sweeper = Sweeper(app)
        sweeper.start()
        _sweepers.append(sweeper)


@signals.worker_shutdown.connect
def _stop(sender=None, **kwargs) -> None:
    while _sweepers:
        _sweepers.pop().stop()
