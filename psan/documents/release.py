"""Safe release pages (admin only): undecided-span policy, release report, QA sampling and review.

Why here (the documents blueprint): these pages belong to downloading a project; the report is
the same one every ZIP carries (:mod:`psan.store.publish.release`).  The QA review page shows document
text (the reviewer must see the token in context), so it is ``no-store`` like the key.
"""
from __future__ import annotations

import json
from collections.abc import Iterator

from flask import Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.documents.blueprint import bp
from psan.documents.forms import ActionForm, check_action_form
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.publish import qa as store_qa
from psan.store.publish import regions as store_regions
from psan.store.publish.release import project_report, undecided_by_category
from psan.store.review import risk_qa as store_risk_qa
from psan.web.access import admin
from psan.web.ids import ascii_digits


def _project(project_id: int) -> dict:
    return store_projects.get_project(project_id) or abort(404)


def _posted_project(project_id: int) -> dict:
    """The project a POST button acts on, once the button's CSRF token is checked."""
    check_action_form()
    return _project(project_id)


@bp.route("/project/<int:project_id>/undecided", methods=["POST"])
@admin
def set_undecided(project_id: int):
    """Switch what the output does with undecided spans: ``mask`` (default) or ``keep`` (explicit)."""
    project = _posted_project(project_id)
    policy = request.form.get("policy", "")
    if policy not in store_regions.UNDECIDED_POLICIES:
        abort(400, gettext("The policy must be mask or keep."))
    if policy == "keep" and request.form.get("confirmed") != "yes":
        return _confirm_keep(project)
    store_projects.set_undecided_output(db.get_conn(), project_id, policy)
    if policy == "keep":
        flash(gettext("Undecided spans are now KEPT AS PUBLIC in every download of this project."), "warning")
    else:
        flash(gettext("Undecided spans are now masked in every download of this project."), "success")
    return redirect(url_for("documents.index", project=project_id))


def _confirm_keep(project: dict):
    """Fail-closed is switched off only after the admin saw what it releases: the undecided spans now."""
    per_document = undecided_by_category(db.get_conn(), project["id"])
    by_category: dict[str, int] = {}
    for counts in per_document.values():
        for category, n in counts.items():
            by_category[category] = by_category.get(category, 0) + n
    db.mark_rollback()  # nothing changes until the admin confirms
    return render_template("documents/confirm_keep.html", project=project, documents=len(per_document),
                           total=sum(by_category.values()), by_category=dict(sorted(by_category.items())))


@bp.route("/project/<int:project_id>/release")
@admin
def release_report(project_id: int):
    """The release report as a page (the same data as ``RELEASE_REPORT.json`` in every ZIP)."""
    project = _project(project_id)
    report = project_report(db.get_conn(), project_id)
    return render_template("documents/release.html", project=project, report=report, action_form=ActionForm(),
                           default_sample=store_qa.DEFAULT_SAMPLE, max_sample=store_qa.MAX_SAMPLE)


@bp.route("/project/<int:project_id>/release.json")
@admin
def release_report_json(project_id: int) -> Response:
    _project(project_id)
    report = project_report(db.get_conn(), project_id)
    return Response(json.dumps(report, ensure_ascii=False, indent=2), mimetype="application/json")


@bp.route("/project/<int:project_id>/qa", methods=["POST"])
@admin
def qa_draw(project_id: int):
    """Draw a new random QA sample of public candidate tokens."""
    _posted_project(project_id)
    try:
        size = int(request.form.get("size", store_qa.DEFAULT_SAMPLE))
    except ValueError:
        abort(400, gettext("The sample size must be a whole number."))
    if not 1 <= size <= store_qa.MAX_SAMPLE:
        abort(400, gettext("The sample size must be between 1 and %(max)s.", max=store_qa.MAX_SAMPLE))
    sample_id, drawn = store_qa.draw_sample(db.get_conn(), project_id, size, current_user.id,
                                           current_app.config.get("QA_SAMPLE_SEED"))
    flash(gettext("%(count)s tokens drawn for review.", count=drawn), "success")
    return redirect(url_for("documents.qa_review", project_id=project_id, sample_id=sample_id))


def _sample_fields(prefix: str) -> Iterator[tuple[tuple[int, int], str]]:
    """The posted form's ``<prefix>-<document id>-<token>`` fields: ((document id, token), value)."""
    for name, value in request.form.items():
        parts = name.split("-")
        if len(parts) == 3 and parts[0] == prefix and ascii_digits(parts[1]) and ascii_digits(parts[2]):
            yield (int(parts[1]), int(parts[2])), value


def _sample_or_404(project_id: int, sample_id: int) -> dict:
    return store_projects.qa_sample(db.get_conn(), project_id, sample_id) or abort(404)


@bp.route("/project/<int:project_id>/qa/<int:sample_id>", methods=["GET", "POST"])
@admin
def qa_review(project_id: int, sample_id: int):
    """The second reviewer marks each sampled token ok (rightly public) or miss (personal data left)."""
    project = _project(project_id)
    _sample_or_404(project_id, sample_id)
    conn = db.get_conn()
    if request.method == "POST":
        check_action_form()
        verdicts: dict[tuple[int, int], str] = {}
        for place, value in _sample_fields("v"):
            if value not in store_qa.VERDICTS:
                abort(400, gettext("A verdict must be ok or miss."))
            verdicts[place] = value
        saved = store_qa.record_verdicts(conn, sample_id, verdicts, current_user.id)
        flash(gettext("%(count)s verdicts saved.", count=saved), "success")
        return redirect(url_for("documents.qa_review", project_id=project_id, sample_id=sample_id))
    response = Response(render_template("documents/qa.html", project=project, sample_id=sample_id,
                                        tokens=store_qa.sample_tokens(conn, sample_id), action_form=ActionForm(),
                                        summary=store_qa.summary(conn, project_id)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/project/<int:project_id>/review-sample", methods=["POST"])
@admin
def review_sample_draw(project_id: int):
    """Draw a stratified sample of the sentences nobody read (empty size: what certifies the target)."""
    _posted_project(project_id)
    raw = request.form.get("size", "").strip()
    if raw and not (ascii_digits(raw) and 1 <= int(raw) <= store_risk_qa.MAX_SENTENCES):
        abort(400, gettext("The sample size must be between 1 and %(max)s.", max=store_risk_qa.MAX_SENTENCES))
    sample_id, drawn = store_risk_qa.draw(db.get_conn(), project_id, current_user.id, int(raw) if raw else None,
                                          current_app.config.get("QA_SAMPLE_SEED"))
    flash(gettext("%(count)s unread sentences drawn for review.", count=drawn), "success")
    return redirect(url_for("documents.review_sample", project_id=project_id, sample_id=sample_id))


@bp.route("/project/<int:project_id>/review-sample/<int:sample_id>", methods=["GET", "POST"])
@admin
def review_sample(project_id: int, sample_id: int):
    """The reviewer reads each sampled sentence and enters how many personal mentions nobody had marked."""
    project = _project(project_id)
    conn = db.get_conn()
    sample = store_risk_qa.latest(conn, project_id)
    if sample is None or sample["id"] != sample_id:
        abort(404)
    if request.method == "POST":
        check_action_form()
        misses: dict[tuple[int, int], int] = {}
        for place, value in _sample_fields("m"):
            value = value.strip()
            if not value:
                continue
            if not (ascii_digits(value) and int(value) <= store_risk_qa.MAX_MISSES):
                abort(400, gettext("Missed mentions must be a whole number from 0 to %(max)s.",
                                   max=store_risk_qa.MAX_MISSES))
            misses[place] = int(value)
        saved = store_risk_qa.record(conn, sample_id, misses, current_user.id)
        flash(gettext("%(count)s sentences reviewed.", count=saved), "success")
        return redirect(url_for("documents.review_sample", project_id=project_id, sample_id=sample_id))
    response = Response(render_template("documents/review_sample.html", project=project, sample_id=sample_id,
                                        sentences=store_risk_qa.sample_sentences(conn, sample_id),
                                        action_form=ActionForm(), summary=store_risk_qa.summary(conn, project_id)))
    response.headers["Cache-Control"] = "no-store"
    return response
