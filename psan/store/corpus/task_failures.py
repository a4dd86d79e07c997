"""Background work that failed for good, kept so that the documents page and the dashboard can show it.

Why: a task that raised after its retries was visible only in the worker's log; an administrator
looking at a project must see that a re-annotation or a retraining did not happen.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db

#: failures older than this are no longer shown
SHOWN_DAYS = 7
#: at most this many are shown
SHOWN = 20


def record(conn, task: str, error: str, *, project_id: int | None = None, document_id: int | None = None,
           retries: int = 0) -> None:
    """Store one failure; a document's project is found from the document (a deleted one: nothing to show)."""
    if document_id is not None:
        row = db.query_one("SELECT project_id FROM document WHERE id = %s", (document_id,), conn)
        if row is None:
            return
        project_id = row["project_id"]
    if project_id is not None and db.query_one("SELECT 1 FROM project WHERE id = %s", (project_id,), conn) is None:
        return
    db.execute("INSERT INTO task_failure (project_id, document_id, task, error, retries) VALUES (%s, %s, %s, %s, %s)",
               (project_id, document_id, task, error[:500], retries), conn)


def recent(conn, project_id: int) -> list[dict[str, Any]]:
    """The project's failures of the last :data:`SHOWN_DAYS` days (and those of no project), newest first."""
    return db.query(
        "SELECT f.task, f.error, f.retries, f.failed_at, f.document_id, d.name AS document_name FROM task_failure f "
        "LEFT JOIN document d ON d.id = f.document_id WHERE (f.project_id = %s OR f.project_id IS NULL) "
        "AND f.failed_at > now() - make_interval(days => %s) ORDER BY f.id DESC LIMIT %s",
        (project_id, SHOWN_DAYS, SHOWN), conn)
