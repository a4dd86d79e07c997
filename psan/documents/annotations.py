"""Annotation files of other tools (INCEpTION, Label Studio, BRAT, CoNLL, Presidio …) in and out, per document
and per project: import as suspicious or (a gold standard) decided spans, export of the decided spans.

The store does the work (:mod:`psan.store.review.span_import`, :func:`psan.store.publish.files.export_file`), the
same functions the API calls; this page adds the form, the label table and the messages.  A file that cannot
be imported is refused whole with the reason (nothing half-imported), never a 500.
"""
from __future__ import annotations

from flask import Response, abort, flash, redirect, render_template, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.documents.blueprint import bp
from psan.documents.forms import SpanImportForm
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus import documents as store_documents
from psan.store.publish import files as span_export
from psan.store.publish import output as store_output
from psan.store.review import span_import
from psan.tool.formats.annotations import (
    DEFAULT_CATEGORY,
    AnnotationFormatError,
    Written,
    format_names,
    get_format,
    table_rows,
)
from psan.web.access import admin
from psan.web.downloads import private_download


def _formats() -> list[tuple[str, str]]:
    return [(name, f"{get_format(name).title} ({name})") for name in format_names()]


def _page(project: dict, document: dict | None):
    form = SpanImportForm()
    form.format.choices = _formats()
    if form.validate_on_submit():
        upload = form.file.data
        data = upload.read()
        try:
            result = span_import.import_file(db.get_conn(), project_id=project["id"], format_name=form.format.data,
                                             data=data, filename=upload.filename or "", gold=bool(form.gold.data),
                                             account_id=int(current_user.id),
                                             document_id=document["id"] if document else None)
        except AnnotationFormatError as exc:
            db.mark_rollback()
            flash(gettext("The file was not imported: %(reason)s", reason=str(exc)), "danger")
            return _render(project, document, form), 400
        message = gettext("%(spans)s span(s) imported into %(documents)s document(s).", spans=result.spans,
                          documents=len(result.documents))
        if result.decided:
            message += " " + gettext("%(count)s decided private (gold standard).", count=result.decided)
        if result.widened:
            message += " " + gettext("%(count)s started or ended inside a word and were widened to whole words.",
                                     count=result.widened)
        if result.skipped:
            message += " " + gettext("%(count)s covered only blanks and were left out.", count=result.skipped)
        flash(message, "success")
        target = url_for("documents.document_annotations", document_id=document["id"]) if document else \
            url_for("documents.project_annotations", project_id=project["id"])
        return redirect(target)
    status = 400 if form.is_submitted() else 200
    return _render(project, document, form), status


def _render(project: dict, document: dict | None, form: SpanImportForm) -> str:
    return render_template("documents/annotations.html", project=project, document=document, form=form,
                           formats=_formats(), table=table_rows(), default_category=str(DEFAULT_CATEGORY))


@bp.route("/project/<int:project_id>/annotations", methods=["GET", "POST"])
@admin
def project_annotations(project_id: int):
    project = store_projects.get_project(project_id) or abort(404)
    return _page(project, None)


@bp.route("/<int:document_id>/annotations", methods=["GET", "POST"])
@admin
def document_annotations(document_id: int):
    document = store_documents.get_document(db.get_conn(), document_id) or abort(404)
    project = store_projects.get_project(document["project_id"]) or abort(404)
    return _page(project, document)


def _send(name: str, format_name: str, written: Written) -> Response:
    suffix = written.suffix
    return private_download(written.data, written.mimetype,
                            store_output.safe_filename(name, f"-{format_name}{suffix}"))


def _format_or_404(format_name: str) -> str:
    try:
        return get_format(format_name).name
    except AnnotationFormatError:
        abort(404)


@bp.route("/project/<int:project_id>/annotations/export/<format_name>")
@admin
def export_project_annotations(project_id: int, format_name: str):
    project = store_projects.get_project(project_id) or abort(404)
    written = span_export.export_file(db.get_conn(), _format_or_404(format_name), project_id=project_id)
    return _send(project["name"], format_name, written)


@bp.route("/<int:document_id>/annotations/export/<format_name>")
@admin
def export_document_annotations(document_id: int, format_name: str):
    document = store_documents.get_document(db.get_conn(), document_id) or abort(404)
    fmt = _format_or_404(format_name)
    if span_export.export_spans(db.get_conn(), document_id) is None:
        abort(409, gettext("The document is not pre-processed yet."))
    written = span_export.export_file(db.get_conn(), fmt, project_id=document["project_id"], document_id=document_id)
    return _send(document["name"].rsplit(".", 1)[0], format_name, written)
