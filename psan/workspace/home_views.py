"""The annotator's home: projects with progress, the choice of project (and document), their history."""
from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.runtime import db
from psan.store.annotation import windows as store_windows
from psan.store.review import annotator_home
from psan.store.review import double_annotation as store_double
from psan.web import action_refs, shown
from psan.web.access import user
from psan.web.ids import ascii_digits
from psan.workspace.blueprint import bp
from psan.workspace.undo import undo_posted_action


def _window_size() -> int:
    """The site default the project's window size falls back to: the same the dashboard passes
    (psan.store.review.dashboard.project_window_sizes), so both pages give one "windows left"."""
    return int(current_app.config.get("DEFAULT_WINDOW_SIZE", 300))


@bp.route("/")
@user
def home():
    conn = db.get_conn()
    projects = annotator_home.projects(conn, current_user.id, current_user.is_admin, _window_size())
    chosen = annotator_home.choice(conn, current_user.id)
    if chosen.get("chosen_project_id") and chosen["chosen_project_id"] not in {p["id"] for p in projects}:
        annotator_home.choose(conn, current_user.id, current_user.is_admin, None, None)  # no longer allowed
        chosen = {}
    documents = {p["id"]: annotator_home.documents(conn, p["id"]) for p in projects
                 if p["annotators_choose_document"] or current_user.is_admin}
    window = store_windows.current_window(conn, current_user.id)
    current = None
    if window is not None and window.live and (current_user.is_admin or window.member):
        current = {"project_name": window.project_name, "document_name": window.document_name}
    return render_template("workspace/home.html", projects=projects, chosen=chosen, documents=documents,
                           current=current,
                           history=action_refs.with_refs(annotator_home.history(conn, current_user.id,
                                                                                size=shown.shown_size())),
                           second_waiting=store_double.waiting(conn, current_user.id, current_user.is_admin,
                                                                          shown.shown_size()))


def _int_or_none(value: str | None) -> int | None:
    if not value:
        return None
    if not ascii_digits(value) or len(value) > 18:
        abort(400)
    return int(value)


@bp.route("/choose", methods=["POST"])
@user
def choose():
    """Work on this project (and document) from the next window on; the current window is left if allowed."""
    project_id = _int_or_none(request.form.get("project_id"))
    document_id = _int_or_none(request.form.get("document_id"))
    conn = db.get_conn()
    if not annotator_home.choose(conn, current_user.id, current_user.is_admin, project_id, document_id):
        abort(403)
    window = store_windows.current_window(conn, current_user.id)
    if window is not None and project_id is not None and (
            window.project_id != project_id or (document_id is not None and window.document_id != document_id)):
        # an explicit choice takes effect now: the window goes back to the pool with nothing lost (its spans
        # stay undecided for the next annotator).  Keeping it made the page say "your windows now come from
        # the project you chose" above a window of the other project, and w refused to move on.
        store_windows.release(conn, current_user.id)
    if project_id is None:
        flash(gettext("Windows now come from all your projects."), "success")
    else:
        flash(gettext("Your windows now come from the project you chose."), "success")
    if request.form.get("go") == "1":
        return redirect(url_for("annotate.index"))
    return redirect(url_for("workspace.home"))


@bp.route("/undo", methods=["POST"])
@user
def undo():
    """Undo one of the caller's own actions from the history (psan.store.annotation.actions: only the author may)."""
    undo_posted_action()
    return redirect(url_for("workspace.home"))
