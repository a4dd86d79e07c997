"""Which projects the current account may use; shared by the labels and rules pages.

Admins may use every project, annotators only those they are members of (``project_member``).
A project the account may not use answers 404 exactly like a missing one, so ids cannot be probed.
"""
from __future__ import annotations

from typing import Any

from flask import abort
from flask_login import current_user

from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.web.ids import valid_id


def accessible_projects() -> list[dict[str, Any]]:
    return store_projects.accessible_projects(db.get_conn(), current_user.id, current_user.is_admin)


def project_or_404(project_id: Any) -> dict[str, Any]:
    """The project row if the current account may use it, else abort with 404."""
    pid = valid_id(project_id)
    if pid is None:
        abort(404)
    row = store_projects.accessible_project(db.get_conn(), pid, current_user.id, current_user.is_admin)
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
