"""Rules page: server-side filtered, paginated list with confidence edit, delete and CSV.

Every change is a POST with a CSRF token, is logged in ``decision_log`` and schedules a debounced
re-annotation of the project.  The confidence form also answers JSON for ``psan/static/rules.js``.
"""
from __future__ import annotations

from collections.abc import Mapping

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.rules.blueprint import bp
from psan.rules.csv_rules import export_rules, import_rules
from psan.rules.filters import RULE_TYPES, RuleFilter
from psan.rules.forms import ConfidenceForm, ImportForm
from psan.runtime import db
from psan.store.admin import labels as store_labels
from psan.store.admin import rule_admin
from psan.store.review import public_offers
from psan.web.access import admin
from psan.web.code_names import decision_name
from psan.web.forms import DeleteForm
from psan.web.ids import valid_id
from psan.web.import_page import csv_import_page
from psan.web.project_picker import accessible_projects, chosen_project, project_or_404
from psan.web.reannotate import reannotate


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
    conn = db.get_conn()
    total = rule_admin.count_rules(conn, project["id"], rule_filter)
    pages = max(1, -(-total // rule_admin.PAGE_SIZE))
    page = min(_page(request.args), pages)
    rules = rule_admin.list_rules(conn, project["id"], rule_filter, page)
    for rule in rules:
        rule["decision"] = rule_admin.decision_of(rule["confidence"])
    return render_template(
        "rules/index.html", project=project, projects=accessible_projects(), rules=rules, total=total,
        page=page, pages=pages, page_size=rule_admin.PAGE_SIZE, rule_filter=rule_filter,
        filter_args=rule_filter.args(), rule_types=RULE_TYPES, labels=store_labels.public_labels(conn, project["id"]),
        authors=rule_admin.authors(conn, project["id"]),
        confidence_form=ConfidenceForm(), delete_form=DeleteForm(),
        offers=public_offers.offers(conn, project["id"]), answered_offers=public_offers.answered(conn, project["id"]),
        min_public=public_offers.rules_offered.MIN_PUBLIC)


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
    changed = rule_admin.set_confidence(db.get_conn(), project["id"], _rule_id_or_404(rule_id), form.confidence.data,
                                        current_user.id)
    if changed is None:
        abort(404)
    reannotate(project["id"])
    if _wants_json():
        return jsonify(id=changed["id"], confidence=changed["confidence"], decision=changed["decision"],
                       decision_name=decision_name(changed["decision"]))
    flash(gettext("Confidence saved."), "success")
    return _back(project["id"], request.form)


@bp.route("/<int:project_id>/<int:rule_id>/delete", methods=["POST"])
@admin
def delete(project_id: int, rule_id: int):
    project = project_or_404(project_id)
    if not DeleteForm().validate_on_submit():
        abort(400)
    if not rule_admin.delete_rule(db.get_conn(), project["id"], _rule_id_or_404(rule_id), current_user.id):
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
        count = rule_admin.delete_selected(db.get_conn(), project["id"], rule_filter, current_user.id,
                                           rule_filter.args())
        if count:
            reannotate(project["id"])
        flash(gettext("%(count)s rules deleted.", count=count), "success")
        return redirect(url_for("rules.index", project=project["id"], **rule_filter.args()))
    count = rule_admin.count_rules(db.get_conn(), project["id"], rule_filter)
    return render_template("rules/delete_filtered.html", project=project, rule_filter=rule_filter,
                           filter_args=rule_filter.args(), count=count, form=form)


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

    def run(data: bytes) -> list[str]:
        result = import_rules(project, data, current_user.id, bool(form.create_labels.data))
        if result.errors:
            return result.errors
        rule_admin.log_import(db.get_conn(), project["id"], current_user.id,
                              {k: v for k, v in result.__dict__.items() if k != "errors"})
        reannotate(project["id"])
        message = gettext("Imported rules: %(created)s created, %(updated)s updated, %(unchanged)s unchanged.",
                          created=result.created, updated=result.updated, unchanged=result.unchanged)
        if result.labels_created:
            message += " " + gettext("%(count)s labels created.", count=result.labels_created)
        if result.unknown_authors:
            message += " " + gettext("%(count)s rules named an unknown author and are attributed to you.",
                                     count=result.unknown_authors)
        flash(message, "success")
        return []

    return csv_import_page(project, form, "rules/import.html", "rules.index", run)

