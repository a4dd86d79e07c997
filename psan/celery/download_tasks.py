"""``psan.prepare_download``: render a document's or a project's download in the worker.

Why: see :mod:`psan.store.corpus.download_jobs`.  The job's stage is committed as it changes, so the page
polling it shows where the work is; any failure is stored on the job (the page says it), never lost.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable

from billiard.exceptions import SoftTimeLimitExceeded
from celery import shared_task

from psan.celery.interrupted_imports import forget_orphaned_modules
from psan.runtime import db
from psan.store.corpus import download_jobs
from psan.store.corpus.documents import get_document
from psan.store.publish import archive as store_archive
from psan.store.publish import files as store_files
from psan.store.publish import output as store_output

log = logging.getLogger(__name__)


def _reporter(job_id: int) -> Callable[[int, int], None]:
    """Write the job's progress in transactions of its own, at most twice a second."""
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < 0.5:
            return
        last[0] = now
        with db.transaction() as conn:
            download_jobs.progress(conn, job_id, done, total)
    return report


def _render(conn, job: dict) -> bytes | None:
    kind = job["kind"]
    if job["document_id"] is None:
        return store_archive.project_zip(conn, job["project_id"], kind, progress=_reporter(job["id"]))
    document = get_document(conn, job["document_id"])
    if document is None:
        return None
    if document["original_format"] and kind != "xml":  # an office file, page or PDF: in its own format
        ctx = store_output.project_context(conn, document["project_id"], document["id"])
        got = (store_files.input_file(conn, document["id"]) if kind == "input"
               else store_files.output_file(conn, document["id"], kind, ctx))
        return None if got is None else got[0]
    if kind == "input":
        content = document["text"]
    elif kind == "xml":
        content = document["tagged_xml"]
    else:
        ctx = store_output.project_context(conn, document["project_id"], document["id"])
        content = store_output.render_document(conn, document["id"], kind, ctx)
    return None if content is None else content.encode("utf-8")


@shared_task(name="psan.prepare_download")
def prepare_download(job_id: int) -> dict:
    with db.transaction() as conn:
        job = download_jobs.start(conn, job_id)
    if job is None:
        return {"job": job_id, "skipped": "not queued"}
    try:
        with db.transaction() as conn:
            content = _render(conn, job)
    except SoftTimeLimitExceeded:
        forget_orphaned_modules()
        log.warning("download job %s hit its time limit", job_id)
        with db.transaction() as conn:
            download_jobs.fail(conn, job_id, "The download took longer than the worker's time limit.")
        return {"job": job_id, "status": "FAILED"}
    except Exception as exc:  # noqa: BLE001 - any failure is shown on the job's page
        log.exception("download job %s failed", job_id)
        with db.transaction() as conn:
            download_jobs.fail(conn, job_id, f"{exc.__class__.__name__}: {str(exc)[:300]}")
        return {"job": job_id, "status": "FAILED"}
    with db.transaction() as conn:
        if content is None:
            download_jobs.fail(conn, job_id, "The document is not recognized yet.")
            return {"job": job_id, "status": "FAILED"}
        download_jobs.finish(conn, job_id, content)
    return {"job": job_id, "status": "DONE", "bytes": len(content)}
