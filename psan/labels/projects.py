"""Which projects the current account may use; shared by the labels and rules pages.

Admins may use every project, annotators only those they are members of (``project_member``).
A project the account may not use answers 404 exactly like a missing one, so ids cannot be probed.
"""
from __future__ import annotations

from typing import Any

import kombu.exceptions
import redis
from flask import abort, current_app
from flask_login import current_user

from psan import db

MAX_ID = 2**63 - 1  # bigint: larger ids would make PostgreSQL raise instead of returning nothing


def valid_id(value: Any) -> int | None:
    """``value`` as a database id, or None when it is not a positive bigint."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 0 < number <= MAX_ID else None


def accessible_projects() -> list[dict[str, Any]]:
    if current_user.is_admin:
        return db.query("SELECT id, name, is_default FROM project ORDER BY is_default DESC, name, id")
    return db.query("SELECT p.id, p.name, p.is_default FROM project p "
                    "JOIN project_member m ON m.project_id = p.id AND m.account_id = %s "
                    "ORDER BY p.is_default DESC, p.name, p.id", (current_user.id,))


def project_or_404(project_id: Any) -> dict[str, Any]:
    """The project row if the current account may use it, else abort with 404."""
    pid = valid_id(project_id)
    if pid is None:
        abort(404)
    if current_user.is_admin:
        row = db.query_one("SELECT id, name, is_default FROM project WHERE id = %s", (pid,))
    else:
        row = db.query_one("SELECT p.id, p.name, p.is_default FROM project p JOIN project_member m "
                           "ON m.project_id = p.id AND m.account_id = %s WHERE p.id = %s", (current_user.id, pid))
    if row is None:
        abort(404)
    return row


def chosen_project(arg: str | None) -> dict[str, Any]:
    """The project picked in the page's select (``?project=``); the default (or first usable) one otherwise."""
    if arg:
        return project_or_404(arg)
    projects = accessible_projects()
    if not projects:
        abort(404)
    return projects[0]  # ordered with the default project first


def reannotate(project_id: int) -> None:
    """Ask for a (debounced) re-annotation of the project after a rule or label change.

    Imported lazily: the annotation store is written concurrently and must not be an import-time
    dependency of these pages.  Tests replace this function to observe the calls.
    If Redis is down, the change is kept and the project marked in the request's transaction; the
    worker's sweeper schedules the run once Redis answers again.
    """
    from psan.celery.scheduling import schedule_project_reannotation
    try:
        schedule_project_reannotation(project_id)
    except (redis.RedisError, kombu.exceptions.OperationalError, OSError):
        current_app.logger.warning("could not schedule re-annotation of project %s; the sweeper will", project_id)
        from psan.store.processing import request_reannotation
        request_reannotation(db.get_conn(), project_id)
