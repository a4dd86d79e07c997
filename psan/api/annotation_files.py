"""Annotation files of other tools through the API: import spans into a document or a project, export the decided
spans, in any of psan's annotation formats (BRAT, WebAnno TSV, XMI, Label Studio, CoNLL, CoNLL-U, Presidio, JSONL).

The store does the work, as for the documents pages (:mod:`psan.store.review.span_import`,
:func:`psan.store.publish.files.export_file`); a file that cannot be imported is refused whole with the reason
(400 ``invalid_file``), nothing half-imported.
"""
from __future__ import annotations

from typing import Any

from flask_babel import gettext
from flask_smorest.fields import Upload
from marshmallow import Schema, fields, validate

from psan.api.common import ADMIN, ApiError, allowed_document, allowed_project, api_blueprint, scoped
from psan.runtime import db
from psan.store.publish import files as span_export
from psan.store.review import span_import
from psan.tool.formats.annotations import AnnotationFormatError, format_names, get_format
from psan.web.api_auth import current_token
from psan.web.downloads import private_download

bp = api_blueprint("annotation_files", "Annotation files: import pre-annotations or a gold standard, export spans")


class SpanImportSchema(Schema):
    """A multipart annotation file and how to read it."""

    file = Upload(required=True, metadata={"description": "the annotation file (or a ZIP of one-document files)"})
    format = fields.String(required=True, validate=validate.OneOf(format_names()),
                           metadata={"description": "the file's format"})
    gold = fields.Boolean(load_default=False,
                          metadata={"description": "a gold standard: its spans are decided private, not suspicious"})


class SpanImportResultSchema(Schema):
    documents = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                            metadata={"description": "document id → spans imported into it"})
    spans = fields.Integer(required=True)
    decided = fields.Integer(required=True, metadata={"description": "spans decided private (gold standard)"})
    widened = fields.Integer(required=True, metadata={"description": "spans widened to whole words"})
    skipped = fields.Integer(required=True, metadata={"description": "spans over blanks only, left out"})


class SpanExportSchema(Schema):
    format = fields.String(required=True, validate=validate.OneOf(format_names()))


def _import(form: dict[str, Any], project_id: int, document_id: int | None) -> dict[str, Any]:
    upload = form["file"]
    try:
        result = span_import.import_file(db.get_conn(), project_id=project_id, format_name=form["format"],
                                         data=upload.read(), filename=upload.filename or "", gold=bool(form["gold"]),
                                         account_id=current_token().account_id, document_id=document_id)
    except AnnotationFormatError as exc:
        db.mark_rollback()
        raise ApiError(400, "invalid_file", gettext("The file was not imported: %(reason)s", reason=str(exc))) \
            from exc
    return {"documents": {str(k): v for k, v in result.documents.items()}, "spans": result.spans,
            "decided": result.decided, "widened": result.widened, "skipped": result.skipped}


def _send(name: str, format_name: str, project_id: int, document_id: int | None):
    from psan.store.publish.output import safe_filename
    written = span_export.export_file(db.get_conn(), get_format(format_name).name, project_id=project_id,
                                      document_id=document_id)
    return private_download(written.data, written.mimetype,
                            safe_filename(name, f"-{format_name}{written.suffix}"))


@bp.route("/projects/<int:project_id>/annotation-files", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(SpanImportSchema, location="multipart")
@bp.response(201, SpanImportResultSchema)
def import_project_file(form: dict[str, Any], project_id: int):
    """Import an annotation file into the project's documents (matched by document name)."""
    allowed_project(project_id)
    return _import(form, project_id, None)


@bp.route("/documents/<int:document_id>/annotation-files", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(SpanImportSchema, location="multipart")
@bp.response(201, SpanImportResultSchema)
def import_document_file(form: dict[str, Any], document_id: int):
    """Import an annotation file into one pre-processed document (a file of one document, whatever its name)."""
    document = allowed_document(document_id)
    return _import(form, document["project_id"], document_id)


@bp.route("/projects/<int:project_id>/annotation-files", methods=["GET"])
@scoped(bp, *ADMIN)
@bp.arguments(SpanExportSchema, location="query")
@bp.response(200, {"format": "binary", "type": "string"}, content_type="application/octet-stream")
def export_project_file(query: dict[str, Any], project_id: int):
    """The decided private spans of every pre-processed document of the project, with their categories
    (personal data: the file holds the texts)."""
    project = allowed_project(project_id)
    return _send(project["name"], query["format"], project_id, None)


@bp.route("/documents/<int:document_id>/annotation-files", methods=["GET"])
@scoped(bp, *ADMIN)
@bp.arguments(SpanExportSchema, location="query")
@bp.response(200, {"format": "binary", "type": "string"}, content_type="application/octet-stream")
def export_document_file(query: dict[str, Any], document_id: int):
    """The document's decided private spans with their categories (409 ``not_ready`` before pre-processing)."""
    document = allowed_document(document_id)
    if span_export.export_spans(db.get_conn(), document_id) is None:
        raise ApiError(409, "not_ready", gettext("The document is not pre-processed yet."))
    return _send(document["name"].rsplit(".", 1)[0], query["format"], document["project_id"], document_id)
