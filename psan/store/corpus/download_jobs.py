"""Downloads prepared in the background: a job row per request, its stage, and the finished bytes.

Why: rendering a large document's or project's output (pseudonyms for 10^5 mentions) can take
longer than a web worker may hold a request (uWSGI's harakiri killed it, the request was lost).
The worker renders it (:mod:`psan.celery.download_tasks`); the page shows the stage and the time
taken, then offers the file to the admin who asked for it.  Files are kept :data:`KEEP_HOURS`.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db

__all__ = ["create", "start", "stage", "progress", "finish", "fail", "get", "data", "forget_old"]

#: how long a prepared file is kept (it is personal data even when pseudonymized)
KEEP_HOURS = 24
_COLUMNS = ("id, account_id, project_id, document_id, kind, status, stage, filename, mimetype, error, size, "
            "done, total, "
            "created_at, started_at, finished_at, extract(epoch FROM coalesce(finished_at, now()) "
            "- coalesce(started_at, created_at))::float AS seconds")


def create(conn, account_id: int, project_id: int, document_id: int | None, kind: str, filename: str,
           mimetype: str) -> int:
    return int(db.query_one(
        "INSERT INTO download_job (account_id, project_id, document_id, kind, filename, mimetype) "
        "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
        (account_id, project_id, document_id, kind, filename, mimetype), conn)["id"])


def start(conn, job_id: int) -> dict[str, Any] | None:
    """Mark the job running (once: a duplicate message finds it taken and returns ``None``)."""
    return db.query_one("UPDATE download_job SET status = 'RUNNING', started_at = now(), stage = 'rendering' "
                        "WHERE id = %s AND status = 'QUEUED' RETURNING id, project_id, document_id, kind",
                        (job_id,), conn)


def stage(conn, job_id: int, name: str) -> None:
    db.execute("UPDATE download_job SET stage = %s WHERE id = %s", (name, job_id), conn)


def progress(conn, job_id: int, done: int, total: int) -> None:
    """Documents done of total (its own short transaction: the render's is still open)."""
    db.execute("UPDATE download_job SET done = %s, total = %s WHERE id = %s", (done, total, job_id), conn)


def finish(conn, job_id: int, content: bytes) -> None:
    db.execute("UPDATE download_job SET status = 'DONE', stage = 'done', data = %s, size = %s, finished_at = now() "
               "WHERE id = %s", (content, len(content), job_id), conn)


def fail(conn, job_id: int, message: str) -> None:
    db.execute("UPDATE download_job SET status = 'FAILED', error = %s, finished_at = now() WHERE id = %s",
               (message[:500], job_id), conn)


def get(conn, job_id: int, account_id: int) -> dict[str, Any] | None:
    """The job without its bytes, only for the account that asked for it."""
    return db.query_one(f"SELECT {_COLUMNS} FROM download_job WHERE id = %s AND account_id = %s",  # noqa: S608  # nosec B608
                        (job_id, account_id), conn)


def data(conn, job_id: int, account_id: int) -> bytes | None:
    row = db.query_one("SELECT data FROM download_job WHERE id = %s AND account_id = %s AND status = 'DONE'",
                       (job_id, account_id), conn)
    return bytes(row["data"]) if row and row["data"] is not None else None


def forget_old(conn, hours: int = KEEP_HOURS) -> int:
    """Drop jobs (and their files) older than ``hours`` (the sweeper calls it)."""
    return db.execute("DELETE FROM download_job WHERE created_at < now() - make_interval(hours => %s)",
                      (hours,), conn)
