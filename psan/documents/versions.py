"""Versioned releases (admin only): release the project as it is now, read what a release changed, withdraw.

Why pages of their own: a release is a promise to data recipients; the change list (documents and spans
by offset and category, never an original) is what a recipient of release N needs to apply release N+1.
"""
from __future__ import annotations

import json

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.celery.webhooks import dispatch_quietly
from psan.documents.blueprint import bp
from psan.documents.forms import check_action_form
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.admin.key_access import ReasonRequired
from psan.store.publish import versions as store_versions
from psan.web.access import admin


def _project(project_id: int) -> dict:
    return store_projects.get_project(project_id) or abort(404)


@bp.route("/project/<int:project_id>/releases", methods=["GET", "POST"])
@admin
def releases(project_id: int):
    """The project's releases; POST makes the next one from the project as it is now."""
    project = _project(project_id)
    if request.method == "POST":
        check_action_form()
        try:
            number = store_versions.create_release(db.get_conn(), project_id, current_user.id,
                                                   request.form.get("note", ""))
        except ValueError as exc:
            abort(400, str(exc))
        dispatch_quietly(db.get_conn(), project_id)  # release.ready, recorded with the release
        flash(gettext("Release %(n)d recorded.", n=number), "success")
        return redirect(url_for("documents.release_changes", project_id=project_id, number=number))
    conn = db.get_conn()
    return render_template("documents/releases.html", project=project,
                           releases=store_versions.releases(conn, project_id),
                           withdrawn=store_versions.withdrawals(conn, project_id))


@bp.route("/project/<int:project_id>/releases/<int:number>")
@admin
def release_changes(project_id: int, number: int):
    """What release ``number`` changed against the one before."""
    project = _project(project_id)
    got = store_versions.changes(db.get_conn(), project_id, number) or abort(404)
    return render_template("documents/release_changes.html", project=project, changes=got)


@bp.route("/project/<int:project_id>/releases/<int:number>/changes.json")
@admin
def release_changes_json(project_id: int, number: int) -> Response:
    """The change list as JSON (for data recipients: no original text in it)."""
    _project(project_id)
    got = store_versions.changes(db.get_conn(), project_id, number) or abort(404)
    return Response(json.dumps(got, ensure_ascii=False, indent=1) + "\n", mimetype="application/json")


@bp.route("/project/<int:project_id>/withdraw/<int:document_id>", methods=["POST"])
@admin
def withdraw(project_id: int, document_id: int):
    """Withdraw a released document: recorded with who, when and why; left out of every later release."""
    _project(project_id)
    check_action_form()
    try:
        done = store_versions.withdraw(db.get_conn(), project_id, document_id, request.form.get("reason"),
                                       current_user.email)
    except ReasonRequired as exc:
        abort(400, str(exc))
    if not done:
        abort(404, gettext("This document was never released."))
    flash(gettext("The document is withdrawn; the next release leaves it out."), "success")
    return redirect(url_for("documents.releases", project_id=project_id))
