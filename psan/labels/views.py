"""HTML pages for labels.  The list and "create" are open to annotators of the project (without
replacements); editing, deleting and the CSV key are admin-only."""
from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.labels.blueprint import bp
from psan.labels.csv_key import export_key, import_key
from psan.labels.forms import LabelForm, NewAdminLabelForm, NewLabelForm
from psan.runtime import db
from psan.store.admin import labels as store_labels
from psan.store.admin.labels import CATEGORIES
from psan.web.access import admin, user
from psan.web.forms import CsvImportForm, DeleteForm
from psan.web.ids import valid_id
from psan.web.import_page import csv_import_page
from psan.web.project_picker import accessible_projects, chosen_project, project_or_404
from psan.web.reannotate import reannotate


def _label_or_404(project_id: int, label_id: int) -> dict[str, Any]:
    label = store_labels.get_label(db.get_conn(), project_id, label_id) if valid_id(label_id) else None
    return label or abort(404)


def _render_index(project: dict[str, Any], form: NewLabelForm):
    if current_user.is_admin:
        labels = store_labels.list_labels(db.get_conn(), project["id"])
    else:  # never the pseudonymization key, and counts of the annotator's own window only
        labels = store_labels.window_labels(db.get_conn(), project["id"], current_user.id)
    return render_template("labels/index.html", project=project, projects=accessible_projects(),
                           labels=labels, form=form, delete_form=DeleteForm())


def _new_form() -> NewLabelForm:
    return NewAdminLabelForm() if current_user.is_admin else NewLabelForm()


@bp.route("/")
@user
def index():
    return _render_index(chosen_project(request.args.get("project")), _new_form())


@bp.route("/<int:project_id>/new", methods=["POST"])
@user
def create(project_id: int):
    project = project_or_404(project_id)
    form = _new_form()
    if form.validate_on_submit():
        replacement = form.replacement.data if isinstance(form, LabelForm) else None
        try:
            store_labels.create_label(db.get_conn(), project["id"], form.name.data.strip(), form.category.data or None,
                                      (replacement or "").strip() or None, current_user.id)
        except store_labels.LabelError as exc:
            form.name.errors.append(str(exc))
        else:
            flash(gettext("Label %(name)s created.", name=form.name.data.strip()), "success")
            return redirect(url_for("labels.index", project=project["id"]))
    db.mark_rollback()
    return _render_index(project, form)


@bp.route("/<int:project_id>/<int:label_id>", methods=["GET", "POST"])
@admin
def edit(project_id: int, label_id: int):
    project = project_or_404(project_id)
    label = _label_or_404(project["id"], label_id)
    form = LabelForm(data=None if request.method == "POST" else
                     {"name": label["name"], "category": label["category"] or "",
                      "replacement": label["replacement"] or ""})
    if form.validate_on_submit():
        try:
            store_labels.update_label(db.get_conn(), project["id"], label["id"], form.name.data.strip(),
                                      form.category.data or None, (form.replacement.data or "").strip() or None)
        except store_labels.LabelError as exc:
            form.name.errors.append(str(exc))
            db.mark_rollback()
        else:
            flash(gettext("Label saved."), "success")
            return redirect(url_for("labels.index", project=project["id"]))
    return render_template("labels/edit.html", project=project, label=label, form=form)


@bp.route("/<int:project_id>/<int:label_id>/delete", methods=["GET", "POST"])
@admin
def delete(project_id: int, label_id: int):
    """GET shows what the deletion does (rules and annotations lose the label); POST deletes."""
    project = project_or_404(project_id)
    label = _label_or_404(project["id"], label_id)
    form = DeleteForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        store_labels.delete_label(db.get_conn(), project["id"], label["id"])
        if label["rule_count"] or label["annotation_count"]:
            reannotate(project["id"])
        flash(gettext("Label %(name)s deleted.", name=label["name"]), "success")
        return redirect(url_for("labels.index", project=project["id"]))
    return render_template("labels/delete.html", project=project, label=label, form=form)


@bp.route("/<int:project_id>/export.csv")
@admin
def export_csv(project_id: int):
    return export_key(project_or_404(project_id))


@bp.route("/<int:project_id>/import", methods=["GET", "POST"])
@admin
def import_csv(project_id: int):
    project = project_or_404(project_id)

    def run(data: bytes) -> list[str]:
        errors, created, changed = import_key(project, data, current_user.id)
        if not errors:
            flash(gettext("Imported the label key: %(created)s labels created, %(changed)s updated.",
                          created=created, changed=changed), "success")
        return errors

    # the categories the import accepts are the ones the label form offers (the help listed 7 of the 9)
    return csv_import_page(project, CsvImportForm(), "labels/import.html", "labels.index", run,
                           categories=CATEGORIES)
