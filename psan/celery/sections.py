"""A large document's sections recognized in parallel by the workers: a Celery chord.

Why a chord: a prefork worker child cannot start a process pool of its own, but every free worker
process (on this machine or another) can take a section task.  ``psan.pre_process`` splits a document
longer than the pipeline's ``sections.min_chars`` (:meth:`psan.tool.detection.pipeline.Pipeline.sections`) and
returns; each ``psan.recognize_section`` reads only its slice of the text and returns the section packed
as plain lists (:func:`psan.tool.text.sections.pack`); ``psan.merge_sections`` merges them in text order, runs
the document-level steps once and stores the document exactly as ``pre_process`` does, so the result
is the same as recognizing the document in one process (``tests/tool/test_sections.py``).

The lease (who may store the document, :mod:`psan.store.corpus.processing`): every task checks that its run
still holds the document (``attempts``) and beats its heartbeat while it runs.  The sweeper takes a
document over once its heartbeat is older than ``PROCESSING_STALE_SECONDS``.  Between the tasks of a
chord nobody runs: the sections (and later the merge) may wait in the queue behind other work for
longer than that.  So the live workers vouch for the tasks they can see waiting:

* every task of the chord carries its lease in a message header (``psan_lease: [document, attempt]``);
* before taking anything over, each worker's sweeper looks for *quiet* running documents (no beat
  for ``PROCESSING_HEARTBEAT_SECONDS``) and, only if there are some, for their tasks in the broker's
  queue (the Redis list) and among the messages this worker holds (prefetched or running): a quiet
  document with such a task gets a fresh heartbeat (:func:`keep_waiting_chords_alive`).

A live chord is therefore never taken over, however long its tasks wait, while a chord whose workers
died is: a task a killed worker held is invisible (Redis keeps it unacknowledged until the visibility
timeout), so once the chord's remaining visible tasks are done nothing vouches, and the document turns
stale ``PROCESSING_STALE_SECONDS`` later (plus a sweep interval), not after its time limit.  Its
sections still waiting then are run by live workers first (bounded by the document's own work);
when the old tasks run after a takeover (a lost one after the visibility timeout) they find the lease
gone and store nothing.  A failing section marks the document FAILED (the merge then never runs).
While the sweeper cannot read the queue (Redis down) it takes no stale run over: a chord may be
waiting there, and nothing taken over could be queued meanwhile anyway.

Rejected: setting the heartbeat ahead when the chord starts (by the time limit, or by an estimate of
the wait) delays the takeover of a dead chord by just as much; asking the workers (``celery inspect``)
gets no answer from a busy solo worker and cannot see the tasks still in the queue.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from typing import Any

import redis
from billiard.exceptions import SoftTimeLimitExceeded
from celery import chord, shared_task
from flask import Flask, current_app
from kombu.transport.redis import PRIORITY_STEPS, Channel

from psan.celery import redis_key_prefix
from psan.celery.interrupted_imports import forget_orphaned_modules
from psan.celery.runs import fail, heartbeat, short_error, store_recognized, time_limit_message, time_limits
from psan.runtime import db
from psan.store.corpus import processing, section_runs
from psan.store.corpus.pipelines import effective_config, get_pipeline

log = logging.getLogger(__name__)

#: the message header naming the run a chord task belongs to: ``[document_id, attempt]``
LEASE_HEADER = "psan_lease"
#: the tasks of a chord (what a worker's sweeper looks for in the queue)
CHORD_TASKS = ("psan.recognize_section", "psan.merge_sections")
#: Redis list entries read per LRANGE while looking through the queue
_PAGE = 500


def start_sections(lease: processing.Claim, ranges: list[tuple[int, int]]) -> None:
    """Queue one task per ``(start, end)`` character range and the merge after them.

    The heartbeat is refreshed, not set ahead: while the tasks wait, the sweepers vouch for them.
    """
    with db.transaction() as conn:
        processing.heartbeat(conn, lease)
    section_chord(lease, ranges, current_app.config).apply_async()


def section_chord(lease: processing.Claim, ranges: list[tuple[int, int]], config: Mapping[str, Any]) -> chord:
    """The chord of a run: section tasks, then the merge, each with its time limit and the lease header."""
    headers = {LEASE_HEADER: [lease.document_id, lease.attempt]}
    header = []
    for start, end in ranges:
        soft, hard = time_limits(end - start, config)
        header.append(recognize_section.signature((lease.document_id, lease.attempt, start, end),
                                                  soft_time_limit=soft, time_limit=hard, headers=headers))
    soft, hard = time_limits(ranges[-1][1], config)
    return chord(header, merge_sections.signature((lease.document_id, lease.attempt, [s for s, _ in ranges]),
                                                  soft_time_limit=soft, time_limit=hard, headers=headers))


def _section_row(lease: processing.Claim, start: int = 0, end: int | None = None) -> dict | None:
    """Text (characters ``start:end``, all by default), language, project and pipeline, if this run still holds it."""
    with db.transaction() as conn:
        return section_runs.section_source(conn, lease, start, end)


@shared_task(name="psan.recognize_section", bind=True)
def recognize_section(self, document_id: int, attempt: int, start: int, end: int) -> list | None:
    """Recognize characters ``start:end`` of a document (no document-level steps); ``None`` if the run lost it."""
    lease = processing.Claim(document_id, attempt)
    row = _section_row(lease, start, end)
    if row is None:
        return None
    try:
        with heartbeat(lease, float(current_app.config["PROCESSING_HEARTBEAT_SECONDS"])):
            pipeline = get_pipeline(effective_config(row["pipeline"], row["language"]))
            return pipeline.recognize_packed(row["text"])
    except SoftTimeLimitExceeded:
        forget_orphaned_modules()
        fail(document_id, time_limit_message("soft", self.request.timelimit[1] if self.request.timelimit
                                                else None, end - start), attempt)
        raise
    except Exception as exc:
        log.exception("recognizing characters %s:%s of document %s failed", start, end, document_id)
        fail(document_id, short_error(exc), attempt)
        raise


@shared_task(name="psan.merge_sections", bind=True)
def merge_sections(self, results: list[list | None], document_id: int, attempt: int, starts: list[int]) -> dict:
    """Merge the recognized sections in text order, then store the document as ``pre_process`` does."""
    lease = processing.Claim(document_id, attempt)
    row = None if any(r is None for r in results) else _section_row(lease)
    if row is None:
        return {"document_id": document_id, "skipped": "taken over"}
    try:
        with heartbeat(lease, float(current_app.config["PROCESSING_HEARTBEAT_SECONDS"])):
            pipeline = get_pipeline(effective_config(row["pipeline"], row["language"]))
            doc = pipeline.merge(row["text"], list(zip(starts, results, strict=True)))
            return store_recognized(lease, row["project_id"], doc)
    except SoftTimeLimitExceeded:
        forget_orphaned_modules()
        fail(document_id, time_limit_message("soft", self.request.timelimit[1] if self.request.timelimit
                                                else None, len(row["text"])), attempt)
        return {"document_id": document_id, "status": "FAILED"}
    except Exception as exc:  # noqa: BLE001 - any failure becomes a visible FAILED status
        log.exception("merging the sections of document %s failed", document_id)
        fail(document_id, short_error(exc), attempt)
        return {"document_id": document_id, "status": "FAILED"}


# --- the sweeper's side: vouching for chord tasks that wait -------------------------------------------------
def _lease_of(headers: object) -> processing.Claim | None:
    """The run a chord task's message belongs to (``None`` for any other message)."""
    if not isinstance(headers, dict) or headers.get("task") not in CHORD_TASKS:
        return None
    value = headers.get(LEASE_HEADER)
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return processing.Claim(value[0], value[1])
    return None


def queued_leases(client: redis.Redis, queue_keys: Iterable[str]) -> set[processing.Claim]:
    """Runs with a chord task waiting in the broker's queue lists (kombu's Redis transport: JSON envelopes)."""
    found: set[processing.Claim] = set()
    marker = LEASE_HEADER.encode()
    for key in queue_keys:
        offset = 0
        while True:
            page = client.lrange(key, offset, offset + _PAGE - 1)
            for raw in page:
                if marker not in raw:  # cheap: most messages are other tasks
                    continue
                try:
                    lease = _lease_of(json.loads(raw).get("headers"))
                except (ValueError, AttributeError):
                    continue
                if lease is not None:
                    found.add(lease)
            if len(page) < _PAGE:
                break
            offset += _PAGE
    return found


def held_leases() -> set[processing.Claim]:
    """Runs with a chord task this worker process holds (prefetched or running); empty outside a worker."""
    from celery.worker import state as worker_state
    found: set[processing.Claim] = set()
    for request in tuple(worker_state.reserved_requests):  # a copy: the consumer thread changes the set
        lease = _lease_of(getattr(request, "request_dict", None))
        if lease is not None:
            found.add(lease)
    return found


def _queue_keys(app: Flask) -> list[str]:
    """The Redis lists of the app's queue, one per priority step, as kombu names them."""
    queue = app.config.get("CELERY_QUEUE") or "celery"
    names = [queue] + [f"{queue}{Channel.sep}{step}" for step in PRIORITY_STEPS if step]
    return [redis_key_prefix(app) + name for name in names]


def keep_waiting_chords_alive(app: Flask) -> list[int]:
    """Refresh the heartbeat of quiet running documents whose chord tasks wait or are held here.

    Called by the sweeper just before it takes stale documents over (needs an app context).  Reads the
    queue only when some running document has not been beaten for ``PROCESSING_HEARTBEAT_SECONDS``.
    Returns the ids refreshed.
    """
    config = app.config
    quiet_after = min(float(config["PROCESSING_HEARTBEAT_SECONDS"]), float(config["PROCESSING_STALE_SECONDS"]) / 2)
    with db.transaction() as conn:
        quiet = set(section_runs.quiet_runs(conn, quiet_after))
    if not quiet:
        return []
    alive = held_leases() & quiet
    if alive != quiet and config.get("REDIS_URL"):
        timeout = float(config.get("BROKER_CONNECT_TIMEOUT", 2))
        client = redis.Redis.from_url(config["REDIS_URL"], socket_connect_timeout=timeout,
                                      socket_timeout=float(config.get("REDIS_SOCKET_TIMEOUT", 10)))
        try:
            alive |= queued_leases(client, _queue_keys(app)) & quiet
        finally:
            client.close()
    refreshed = []
    with db.transaction() as conn:
        for lease in sorted(alive, key=lambda c: c.document_id):
            if processing.heartbeat(conn, lease):
                refreshed.append(lease.document_id)
    return refreshed
