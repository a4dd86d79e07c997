"""Labels as the annotation API uses them: does a label belong to the project, find-or-create by name.

Why not psan.store.admin.labels: these run in the annotation request's transaction (``conn``), next to the
decision that uses the label.
"""
from __future__ import annotations

from psan.runtime import db


def label_in_project(conn, project_id: int, label_id: int) -> bool:
    """Whether ``label_id`` is a label of the project (ids from the browser are never trusted)."""
    return db.query_one("SELECT 1 FROM label WHERE id = %s AND project_id = %s", (label_id, project_id), conn) \
        is not None


def label_by_name(conn, project_id: int, name: str, category: str | None, created_by: int) -> int:
    """The project's label called ``name``, created (with ``category``) when missing; safe under concurrency."""
    row = db.query_one("SELECT id FROM label WHERE project_id = %s AND name = %s", (project_id, name), conn)
    if row:
        return int(row["id"])
    row = db.query_one("INSERT INTO label (project_id, name, category, created_by) VALUES (%s, %s, %s, %s) "
                       "ON CONFLICT (project_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id",
                       (project_id, name, category, created_by), conn)
    return int(row["id"])
