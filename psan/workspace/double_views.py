"""Double annotation pages: the second annotator's independent version, the admin's adjudication."""
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
from psan.store.review import annotator_home
from psan.store.review import double_annotation as store_double
from psan.web import shown
from psan.web.access import admin, user
from psan.workspace.blueprint import bp

log = logging.getLogger(__name__)


def _form_decisions(window_spans: list[dict]) -> dict[tuple[int, int], str]:
    """The form's ``d-<first>-<end>`` fields of the window's spans (others are ignored)."""
    out = {}
    for s in window_spans:
        value = request.form.get(f"d-{s['first_token']}-{s['end_token']}")
        if value:
            out[(s["first_token"], s["end_token"])] = value
    return out


@bp.route("/second/claim", methods=["POST"])
@user
def claim_second():
    conn = db.get_conn()
    double_id = store_double.claim(conn, current_user.id, current_user.is_admin, shown.shown_size())
    if double_id is None:
        flash(gettext("No window waits for a second annotation right now."), "info")
        return redirect(url_for("workspace.home"))
    return redirect(url_for("workspace.second", double_id=double_id))


@bp.route("/second/<int:double_id>", methods=["GET", "POST"])
@user
def second(double_id: int):
    """Annotate a window a second time, without seeing the first version (it is never applied)."""
    conn = db.get_conn()
    window = store_double.second_window(conn, double_id, current_user.id) or abort(404)
    if not annotator_home.may_annotate(conn, current_user.id, current_user.is_admin, window["project_id"]):
        abort(404)  # no longer in the project: nothing of it to see
    size = shown.shown_size()
    window_spans = store_double.second_spans(window, store_double.spans(conn, double_id), size)
    chosen: dict[tuple[int, int], str] = {}
    if request.method == "POST":
        chosen = _form_decisions(window_spans)
        try:
            state = store_double.save_second(conn, double_id, current_user.id, chosen, size)
        except store_double.DoubleError as exc:
            flash(str(exc), "danger")
        else:
            flash(gettext("Your version is saved.") if state == "agreed" else
                  gettext("Your version is saved; an administrator will compare both versions."), "success")
            return redirect(url_for("workspace.home"))
    # never the first version: the pre-annotation as the first annotator saw it, and the text the size allows;
    # each row with its words, and after a refused save with the choices the person had made (not reset)
    segments = store_double.segments(conn, window, window_spans, size)
    texts: dict[int, list[str]] = {}
    for seg in segments:
        if seg["span"] is not None:
            texts.setdefault(seg["span"], []).append(seg["text"])
    visible = [{**{k: s[k] for k in ("first_token", "end_token", "category", "auto_decision")},
                "text": " … ".join(texts.get(i, [])),
                "chosen": chosen.get((s["first_token"], s["end_token"]),
                                     None if request.method == "POST" else s["auto_decision"])}
               for i, s in enumerate(window_spans)]
    return render_template("workspace/second.html", window=window, spans=visible, segments=segments)


@bp.route("/projects/<int:project_id>/adjudicate")
@admin
def adjudication_list(project_id: int):
    project = store_projects.get_project(project_id) or abort(404)
    conn = db.get_conn()
    return render_template("workspace/adjudication_list.html", project=project,
                           windows=store_double.to_adjudicate(conn, project_id),
                           counts=store_double.counts(conn, project_id))


@bp.route("/adjudicate/<int:double_id>", methods=["GET", "POST"])
@admin
def adjudicate(double_id: int):
    """Both versions side by side; the admin picks (or sets) the final decision of each span."""
    conn = db.get_conn()
    window = store_double.get(conn, double_id) or abort(404)
    window_spans = store_double.spans(conn, double_id)
    if request.method == "POST":
        try:
            store_double.adjudicate(conn, double_id, current_user.id, _form_decisions(window_spans))
        except store_double.DoubleError as exc:
            flash(str(exc), "danger")
        else:
            conn.commit()
            try:
                scheduling.schedule_project_reannotation(window["project_id"],
                                                         exclude_document_id=window["document_id"])
            except Exception as exc:  # noqa: BLE001 - the decisions are saved; the sweeper schedules the run later
                log_unscheduled(log, "could not schedule the re-annotation of project %s", window["project_id"],
                                exc=exc)
                request_reannotation(conn, window["project_id"])
            flash(gettext("The final version is saved."), "success")
            return redirect(url_for("workspace.adjudication_list", project_id=window["project_id"]))
    segments = store_double.segments(conn, window, window_spans)
    texts = {}
    for seg in segments:
        if seg["span"] is not None:
            texts[seg["span"]] = seg["text"]
    for i, s in enumerate(window_spans):
        s["text"] = texts.get(i, "")
        s["first"] = s["first_decision"] or "PRIVATE"
        s["second"] = s["second_decision"] or "PRIVATE"
    return render_template("workspace/adjudicate.html", window=window, spans=window_spans, segments=segments)
