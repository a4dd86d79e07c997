"""A large document's sections recognized in parallel by the workers: a Celery chord.

Why a chord: a prefork worker child cannot start a process pool of its own, but every free worker
process (on this machine or another) can take a section task.  ``psan.pre_process`` splits a document
longer than the pipeline's ``sections.min_chars`` (:meth:`psan.tool.pipeline.Pipeline.sections`) and
returns; each ``psan.recognize_section`` reads only its slice of the text and returns the section packed
as plain lists (:func:`psan.tool.sections.pack`); ``psan.merge_sections`` merges them in text order, runs
the document-level steps once and stores the document exactly as ``pre_process`` does, so the result
is the same as recognizing the document in one process (``tests/tool/test_sections.py``).

The lease: every task checks that its run still holds the document and refreshes its heartbeat.  While
the sections wait in the queue behind other work nobody beats, so the chord starts with the heartbeat
set ahead by the document's time limit: the sweeper (``PROCESSING_STALE_SECONDS``) does not hand the
document to another run meanwhile; a run whose worker died is taken over that much later.
A failing section marks the document FAILED (the merge then never runs).
"""
from __future__ import annotations

import logging

from billiard.exceptions import SoftTimeLimitExceeded
from celery import chord, shared_task
from flask import current_app

from psan import db
from psan.celery.queue import time_limits
from psan.celery.tasks import _fail, _heartbeat, _short_error, _time_limit_message, store_recognized
from psan.store import processing
from psan.store.pipelines import effective_config, get_pipeline

log = logging.getLogger(__name__)


def start_sections(lease: processing.Claim, ranges: list[tuple[int, int]]) -> None:
    """Queue one task per ``(start, end)`` character range and the merge after them."""
    config = current_app.config
    chars = ranges[-1][1]
    _, whole_limit = time_limits(chars, config)
    with db.transaction() as conn:
        db.execute("UPDATE document SET heartbeat_at = clock_timestamp() + make_interval(secs => %s) "
                   "WHERE id = %s AND attempts = %s", (whole_limit, lease.document_id, lease.attempt), conn)
    header = []
    for start, end in ranges:
        soft, hard = time_limits(end - start, config)
        header.append(recognize_section.signature((lease.document_id, lease.attempt, start, end),
                                                  soft_time_limit=soft, time_limit=hard))
    soft, hard = time_limits(chars, config)
    chord(header)(merge_sections.signature((lease.document_id, lease.attempt, [s for s, _ in ranges]),
                                           soft_time_limit=soft, time_limit=hard))


def _section_row(lease: processing.Claim, start: int = 0, end: int | None = None) -> dict | None:
    """Text (characters ``start:end``, all by default), language, project and pipeline, if this run still holds it."""
    with db.transaction() as conn:
        if not processing.holds(conn, lease):
            return None
        # substr counts characters (code points) from 1, as Python slices count them from 0
        return db.query_one("SELECT substr(d.text, %s, COALESCE(%s, length(d.text))) AS text, d.language, "
                            "d.project_id, p.pipeline FROM document d JOIN project p ON p.id = d.project_id "
                            "WHERE d.id = %s", (start + 1, None if end is None else end - start, lease.document_id),
                            conn)


@shared_task(name="psan.recognize_section", bind=True)
def recognize_section(self, document_id: int, attempt: int, start: int, end: int) -> list | None:
    """Recognize characters ``start:end`` of a document (no document-level steps); ``None`` if the run lost it."""
    lease = processing.Claim(document_id, attempt)
    row = _section_row(lease, start, end)
    if row is None:
        return None
    try:
        with _heartbeat(lease, float(current_app.config["PROCESSING_HEARTBEAT_SECONDS"])):
            pipeline = get_pipeline(effective_config(row["pipeline"], row["language"]))
            return pipeline.recognize_packed(row["text"])
    except SoftTimeLimitExceeded:
        _fail(document_id, _time_limit_message("soft", self.request.timelimit[1] if self.request.timelimit
                                                else None, end - start), attempt)
        raise
    except Exception as exc:
        log.exception("recognizing characters %s:%s of document %s failed", start, end, document_id)
        _fail(document_id, _short_error(exc), attempt)
        raise


@shared_task(name="psan.merge_sections", bind=True)
def merge_sections(self, results: list[list | None], document_id: int, attempt: int, starts: list[int]) -> dict:
    """Merge the recognized sections in text order, then store the document as ``pre_process`` does."""
    lease = processing.Claim(document_id, attempt)
    row = None if any(r is None for r in results) else _section_row(lease)
    if row is None:
        return {"document_id": document_id, "skipped": "taken over"}
    try:
        with _heartbeat(lease, float(current_app.config["PROCESSING_HEARTBEAT_SECONDS"])):
            pipeline = get_pipeline(effective_config(row["pipeline"], row["language"]))
            doc = pipeline.merge(row["text"], list(zip(starts, results, strict=True)))
            return store_recognized(lease, row["project_id"], doc)
    except SoftTimeLimitExceeded:
        _fail(document_id, _time_limit_message("soft", self.request.timelimit[1] if self.request.timelimit
                                                else None, len(row["text"])), attempt)
        return {"document_id": document_id, "status": "FAILED"}
    except Exception as exc:  # noqa: BLE001 - any failure becomes a visible FAILED status
        log.exception("merging the sections of document %s failed", document_id)
        _fail(document_id, _short_error(exc), attempt)
        return {"document_id": document_id, "status": "FAILED"}
