"""Rules page: server-side filtered, paginated list with confidence edit, delete and CSV.

Every change is a POST with a CSRF token, is logged in ``decision_log`` and schedules a debounced
re-annotation of the project.  The confidence form also answers JSON for ``psan/static/rules.js``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan import db
from psan.access import admin
from psan.labels import store as label_store
from psan.labels.projects import accessible_projects, chosen_project, project_or_404, reannotate, valid_id
from psan.rules import bp, store
from psan.rules.csv_rules import export_rules, import_rules
from psan.rules.filters import RULE_TYPES, RuleFilter
from psan.rules.forms import ConfidenceForm, DeleteForm, ImportForm


def _page(args: Mapping[str, str]) -> int:
    page = valid_id(args.get("page") or 1)
    return min(page or 1, 10**9)


def _back(project_id: int, source: Mapping[str, str]):
    """Redirect to the list with the filter and page the action was sent from (never a free URL)."""
    rule_filter = RuleFilter.parse(source, project_id)
    return redirect(url_for("rules.index", project=project_id, page=_page(source), **rule_filter.args()))


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _rule_id_or_404(rule_id: int) -> int:
    return valid_id(rule_id) or abort(404)


@bp.route("/")
@admin
def index():
    project = chosen_project(request.args.get("project"))
    rule_filter = RuleFilter.parse(request.args, project["id"])
    total = store.count_rules(project["id"], rule_filter)
    pages = max(1, -(-total // store.PAGE_SIZE))
    page = min(_page(request.args), pages)
    rules = store.list_rules(project["id"], rule_filter, page)
    for rule in rules:
        rule["decision"] = store.decision_of(rule["confidence"])
    return render_template(
        "rules/index.html", project=project, projects=accessible_projects(), rules=rules, total=total,
        page=page, pages=pages, page_size=store.PAGE_SIZE, rule_filter=rule_filter, filter_args=rule_filter.args(),
        rule_types=RULE_TYPES, labels=label_store.public_labels(project["id"]), authors=store.authors(project["id"]),
        confidence_form=ConfidenceForm(), delete_form=DeleteForm())


@bp.route("/<int:project_id>/<int:rule_id>/confidence", methods=["POST"])
@admin
def confidence(project_id: int, rule_id: int):
    project = project_or_404(project_id)
    form = ConfidenceForm()
    if not form.validate_on_submit():
        message = "; ".join(e for errors in form.errors.values() for e in errors)
        if _wants_json():
            return jsonify(error=message), 400
        flash(message, "danger")
        return _back(project["id"], request.form)
    changed = store.set_confidence(project["id"], _rule_id_or_404(rule_id), form.confidence.data, current_user.id)
    if changed is None:
        abort(404)
    reannotate(project["id"])
    if _wants_json():
        return jsonify(id=changed["id"], confidence=changed["confidence"], decision=changed["decision"])
    flash(gettext("Confidence saved."), "success")
    return _back(project["id"], request.form)


@bp.route("/<int:project_id>/<int:rule_id>/delete", methods=["POST"])
@admin
def delete(project_id: int, rule_id: int):
    project = project_or_404(project_id)
    if not DeleteForm().validate_on_submit():
        abort(400)
    if not store.delete_rule(project["id"], _rule_id_or_404(rule_id), current_user.id):
        abort(404)
    reannotate(project["id"])
    flash(gettext("Rule deleted."), "success")
    return _back(project["id"], request.form)


@bp.route("/<int:project_id>/delete-filtered", methods=["GET", "POST"])
@admin
def delete_filtered(project_id: int):
    """GET asks for confirmation showing how many rules match; POST deletes exactly the filtered rules."""
    project = project_or_404(project_id)
    source = request.form if request.method == "POST" else request.args
    rule_filter = RuleFilter.parse(source, project["id"])
    form = DeleteForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        count = store.delete_filtered(project["id"], rule_filter, current_user.id)
        if count:
            reannotate(project["id"])
        flash(gettext("%(count)s rules deleted.", count=count), "success")
        return redirect(url_for("rules.index", project=project["id"], **rule_filter.args()))
    return render_template("rules/delete_filtered.html", project=project, rule_filter=rule_filter,
                           filter_args=rule_filter.args(), count=store.count_rules(project["id"], rule_filter),
                           form=form)


@bp.route("/<int:project_id>/export.csv")
@admin
def export_csv(project_id: int):
    project = project_or_404(project_id)
    return export_rules(project, RuleFilter.parse(request.args, project["id"]))


@bp.route("/<int:project_id>/import", methods=["GET", "POST"])
@admin
def import_csv(project_id: int):
    project = project_or_404(project_id)
    form = ImportForm()
    errors: list[str] = []
    if form.validate_on_submit():
        result = import_rules(project, form.file.data.read(), current_user.id, bool(form.create_labels.data))
        errors = result.errors
        if not errors:
            _log_import(project["id"], result.__dict__)
            reannotate(project["id"])
            message = gettext("Imported rules: %(created)s created, %(updated)s updated, %(unchanged)s unchanged.",
                              created=result.created, updated=result.updated, unchanged=result.unchanged)
            if result.labels_created:
                message += " " + gettext("%(count)s labels created.", count=result.labels_created)
            if result.unknown_authors:
                message += " " + gettext("%(count)s rules named an unknown author and are attributed to you.",
                                         count=result.unknown_authors)
            flash(message, "success")
            return redirect(url_for("rules.index", project=project["id"]))
    if request.method == "POST":
        db.mark_rollback()
    return render_template("rules/import.html", project=project, form=form, errors=errors)


def _log_import(project_id: int, counts: dict[str, Any]) -> None:
    import json
    db.execute("INSERT INTO decision_log (project_id, account_id, action, detail) VALUES (%s, %s, 'rule_import', %s)",
               (project_id, current_user.id, json.dumps({k: v for k, v in counts.items() if k != "errors"})))
