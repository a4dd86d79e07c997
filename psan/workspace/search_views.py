"""Concordance search for admins (psan.store.review.concordance) and bulk decisions from its result list."""
from __future__ import annotations

import logging

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.celery import scheduling
from psan.celery.retry import log_unscheduled
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus.processing import request_reannotation
from psan.store.review import bulk_decisions, concordance
from psan.web import action_refs
from psan.web.access import admin
from psan.web.ids import ascii_digits
from psan.workspace.blueprint import bp
from psan.workspace.undo import undo_posted_action

log = logging.getLogger(__name__)


def _query() -> concordance.Query | None:
    text = request.values.get("q", "")
    if not text:
        return None
    mode = request.values.get("mode", "word")
    return concordance.Query(mode if mode in concordance.MODES else "word", text[:concordance.MAX_PATTERN + 1],
                             request.values.get("case") == "1")


@bp.route("/projects/<int:project_id>/search")
@admin
def search(project_id: int):
    project = store_projects.get_project(project_id) or abort(404)
    query, result, error = _query(), None, None
    if query is not None:
        try:
            result = concordance.search(db.get_conn(), project_id, project["language"], query)
        except concordance.SearchError as exc:
            error = str(exc)
    undo = request.args.get("undo", "")
    return render_template("workspace/search.html", project=project, query=query, result=result, error=error,
                           modes=concordance.MODES, max_hits=concordance.MAX_HITS,
                           undo=int(undo) if ascii_digits(undo) and len(undo) < 17 else None)


def _selected() -> list[tuple[int, int, int]]:
    """The ticked occurrences (``document:first:end``); malformed values are a 400."""
    spans = []
    for value in request.form.getlist("occurrence")[:bulk_decisions.MAX_BULK]:
        parts = value.split(":")
        if len(parts) != 3 or not all(ascii_digits(p) and len(p) < 12 for p in parts):
            abort(400)
        spans.append((int(parts[0]), int(parts[1]), int(parts[2])))
    return spans


@bp.route("/projects/<int:project_id>/search/decide", methods=["POST"])
@admin
def bulk_decide(project_id: int):
    """Decide the ticked occurrences PUBLIC or PRIVATE (each logged like a decision in the window)."""
    store_projects.get_project(project_id) or abort(404)
    decision = request.form.get("decision")
    if decision not in ("PUBLIC", "PRIVATE"):
        abort(400)
    spans = _selected()
    params = {"q": request.form.get("q", ""), "mode": request.form.get("mode", "word"),
              "case": request.form.get("case", "")}
    back = url_for("workspace.search", project_id=project_id, **params)
    if not spans:
        flash(gettext("Tick at least one occurrence first."), "warning")
        return redirect(back)
    conn = db.get_conn()
    decided, rules_changed, action_id = bulk_decisions.decide_occurrences(conn, project_id, spans, decision,
                                                                          current_user.id)
    if rules_changed:
        try:
            scheduling.schedule_project_reannotation(project_id)
        except Exception as exc:  # noqa: BLE001 - the decisions are saved; the sweeper schedules the run later
            log_unscheduled(log, "could not schedule the re-annotation of project %s; the sweeper will", project_id,
                            exc=exc)
            request_reannotation(conn, project_id)
    flash(gettext("%(n)s occurrences decided %(decision)s.", n=decided,
                  decision=gettext("public") if decision == "PUBLIC" else gettext("private")), "success")
    return redirect(url_for("workspace.search", project_id=project_id, undo=action_refs.to_ref(action_id), **params))


@bp.route("/projects/<int:project_id>/search/undo", methods=["POST"])
@admin
def bulk_undo(project_id: int):
    """Undo a bulk decision of the caller (every occurrence it decided, in every document)."""
    store_projects.get_project(project_id) or abort(404)
    undo_posted_action()
    return redirect(url_for("workspace.search", project_id=project_id, q=request.form.get("q", ""),
                            mode=request.form.get("mode", "word"), case=request.form.get("case", "")))
