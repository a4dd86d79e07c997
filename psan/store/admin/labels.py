"""SQL for labels.  Every statement is scoped by ``project_id`` so a forged id of another project
finds nothing (and the views answer 404)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg2
from flask_babel import gettext

from psan.runtime import db, sql
from psan.tool.text.document import Category

CATEGORIES = [c.value for c in Category]
NAME_MAX = 100          # label_name_length in the schema
REPLACEMENT_MAX = 1000


class LabelError(ValueError):
    """A label change that is not allowed; the message is shown to the user."""


@contextlib.contextmanager
def savepoint(conn) -> Iterator[None]:
    """Let one statement fail (unique violation) without aborting the caller's transaction."""
    db.execute("SAVEPOINT psan_label", None, conn)
    try:
        yield
    except psycopg2.Error:
        db.execute("ROLLBACK TO SAVEPOINT psan_label", None, conn)
        raise
    db.execute("RELEASE SAVEPOINT psan_label", None, conn)


def list_labels(conn, project_id: int) -> list[dict[str, Any]]:
    """Labels with usage counts (rules and annotations that refer to them)."""
    return db.query(
        "SELECT l.id, l.name, l.category, l.replacement, "
        "  (SELECT count(*) FROM rule r WHERE r.label_id = l.id) AS rule_count, "
        "  (SELECT count(*) FROM annotation a WHERE a.token_label_id = l.id) AS annotation_count "
        "FROM label l WHERE l.project_id = %s ORDER BY l.name, l.id", (project_id,), conn)


def window_labels(conn, project_id: int, account_id: int) -> list[dict[str, Any]]:
    """Labels with the counts an annotator may see: of the rules and annotations of their current window only.

    Why: project-wide counts told an annotator how often a label (a person, say) is used outside their window.
    No window in the project: every count is 0.
    """
    return db.query(
        "WITH w AS (SELECT w.document_id, w.first_token, w.end_token FROM annotation_window w "
        "JOIN document d ON d.id = w.document_id WHERE w.account_id = %(me)s AND d.project_id = %(project)s), "
        "a AS (SELECT a.id, a.token_label_id FROM annotation a JOIN w ON a.document_id = w.document_id "
        "AND a.first_token >= w.first_token AND a.end_token <= w.end_token) "
        "SELECT l.id, l.name, l.category, "
        "  (SELECT count(DISTINCT r.id) FROM rule r JOIN annotation_rule ar ON ar.rule_id = r.id "
        "   JOIN a ON a.id = ar.annotation_id WHERE r.label_id = l.id) AS rule_count, "
        "  (SELECT count(*) FROM a WHERE a.token_label_id = l.id) AS annotation_count "
        "FROM label l WHERE l.project_id = %(project)s ORDER BY l.name, l.id",
        {"me": account_id, "project": project_id}, conn)


def public_labels(conn, project_id: int) -> list[dict[str, Any]]:
    """What annotators may see: never the replacement."""
    return db.query("SELECT id, name, category FROM label WHERE project_id = %s ORDER BY name, id",
                    (project_id,), conn)


def get_label(conn, project_id: int, label_id: int) -> dict[str, Any] | None:
    rows = [r for r in list_labels(conn, project_id) if r["id"] == label_id]  # small: labels per project are few
    return rows[0] if rows else None


def label_in_project(conn, project_id: int, label_id: int) -> bool:
    return db.query_one("SELECT 1 FROM label WHERE id = %s AND project_id = %s", (label_id, project_id),
                        conn) is not None


def label_ids_by_name(conn, project_id: int) -> dict[str, int]:
    return {r["name"]: r["id"] for r in db.query("SELECT id, name FROM label WHERE project_id = %s",
                                                 (project_id,), conn)}


def create_label(conn, project_id: int, name: str, category: str | None, replacement: str | None,
                 account_id: int | None) -> int:
    row = db.query_one(
        "INSERT INTO label (project_id, name, category, replacement, created_by) VALUES (%s, %s, %s, %s, %s) "
        "ON CONFLICT (project_id, name) DO NOTHING RETURNING id",
        (project_id, name, category, replacement, account_id), conn)
    if row is None:
        raise LabelError(gettext("A label named %(name)s already exists in this project.", name=repr(name)))
    return row["id"]


def update_label(conn, project_id: int, label_id: int, name: str, category: str | None,
                 replacement: str | None) -> bool:
    """Rename / recategorize / set the replacement; False when the label is not in the project."""
    try:
        with savepoint(conn):
            count = db.execute("UPDATE label SET name = %s, category = %s, replacement = %s "
                               "WHERE id = %s AND project_id = %s",
                               (name, category, replacement, label_id, project_id), conn)
    except psycopg2.errors.UniqueViolation as exc:
        raise LabelError(gettext("A label named %(name)s already exists in this project.", name=repr(name))) from exc
    return count == 1


def delete_label(conn, project_id: int, label_id: int) -> bool:
    """Rules and annotations that used the label keep existing without a label (FK ON DELETE SET NULL)."""
    return db.execute("DELETE FROM label WHERE id = %s AND project_id = %s", (label_id, project_id), conn) == 1


def upsert_labels(conn, project_id: int, rows: list[tuple[str, str | None, str | None]],
                  account_id: int) -> tuple[int, int]:
    """Insert or update ``(name, category, replacement)`` rows; returns (created, changed)."""
    return sql.upsert(
        conn,
        "INSERT INTO label (project_id, name, category, replacement, created_by) VALUES %s "
        "ON CONFLICT (project_id, name) DO UPDATE SET category = EXCLUDED.category, "
        "replacement = EXCLUDED.replacement "
        "WHERE (label.category, label.replacement) IS DISTINCT FROM (EXCLUDED.category, EXCLUDED.replacement) "
        "RETURNING (xmax = 0) AS inserted",
        [(project_id, name, category, replacement, account_id) for name, category, replacement in rows])
