"""Documents of a project: upload (files, many at once, ZIPs), status with progress, delete, spans with decisions.

Uploads are read by the same code as the upload page (:mod:`psan.documents.upload`: encodings, binary files,
ZIP bombs, office files), and pre-processing is queued only after the documents are committed, as there.
"""
from __future__ import annotations

from typing import Any

from flask import current_app
from flask_babel import gettext

from psan.annotate.content import final_decision, rule_label
from psan.api.common import ADMIN, READ, ApiError, allowed_document, allowed_project, api_blueprint, scoped
from psan.api.schemas import (
    DocumentListSchema,
    DocumentSchema,
    SpanListSchema,
    UploadResultSchema,
    UploadSchema,
)
from psan.celery.retry import log_unscheduled
from psan.documents.upload import Limits, TextFile, read_upload
from psan.runtime import db
from psan.store.annotation import window_content
from psan.store.corpus import documents as store_documents
from psan.store.corpus import processing as store_processing
from psan.store.corpus.document_text import document_text
from psan.store.publish.files import parts_summary
from psan.store.shared.document_status import ANNOTATED, BUSY
from psan.tool.decisions.voting import Thresholds
from psan.tool.text.language import detect_language
from psan.web.api_auth import current_token

bp = api_blueprint("documents", "Documents: upload, status, delete, spans with their decisions")


def document_json(row: dict[str, Any], project_id: int) -> dict[str, Any]:
    return {"id": row["id"], "project_id": project_id, "name": row["name"], "language": row.get("language"),
            "status": row["status"], "busy": row["status"] in BUSY, "ready": row["status"] in ANNOTATED,
            "error": row.get("error") or None, "tokens": row.get("token_count"), "progress": row.get("progress", 0),
            "decided": row.get("decided", 0), "undecided": row.get("open", 0)}


def _rows(project_id: int) -> list[dict[str, Any]]:
    return store_documents.list_documents(db.get_conn(), project_id, current_app.config["PROCESSING_STALE_SECONDS"])


@bp.route("/projects/<int:project_id>/documents", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, DocumentListSchema)
def list_documents(project_id: int):
    """Every document of the project with its status and progress (poll this while pre-processing runs)."""
    allowed_project(project_id)
    return {"documents": [document_json(r, project_id) for r in _rows(project_id)]}


@bp.route("/projects/<int:project_id>/documents", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(UploadSchema, location="multipart")
@bp.response(201, UploadResultSchema)
def upload_documents(form: dict[str, Any], project_id: int):
    """Upload one or many files (``files``, multipart): text, DOCX/ODT/HTML/PDF, or ZIPs of them.

    201 when at least one document was stored (``refused`` lists the files that were not, and why); 400
    ``nothing_uploaded`` when none was.
    """
    project = allowed_project(project_id)
    limits = Limits(current_app.config["MAX_DOCUMENT_CHARS"], current_app.config["MAX_ZIP_MEMBERS"],
                    current_app.config["MAX_ZIP_UNCOMPRESSED"], confirm_conversion=bool(form["confirm_conversion"]),
                    tracked_changes=project.get("tracked_changes") or "accept")
    accepted: list[TextFile] = []
    refused: list[str] = []
    for storage in form["files"]:
        if not storage or not storage.filename:
            continue
        got, errors = read_upload(storage.read(), storage.filename, limits)
        accepted.extend(got)
        refused.extend(errors)
    if not accepted:
        db.mark_rollback()
        raise ApiError(400, "nothing_uploaded", "; ".join(refused) or gettext("Nothing to upload: send files."))
    conn = db.get_conn()
    account_id = current_token().account_id
    ids = [store_documents.create_document(conn, project_id, f.name,
                                           form.get("language") or detect_language(f.text, project["language"]),
                                           f.text, account_id, f.original, f.format, f.report)
           for f in accepted]
    notes = [f"{f.name}: {f.note}" for f in accepted if f.note]
    notes += [f"{f.name}: {parts_summary(f.report)}" for f in accepted if f.format is not None]
    waiting = _enqueue(ids)
    rows = {r["id"]: r for r in _rows(project_id)}
    return {"documents": [document_json(rows[i], project_id) for i in ids if i in rows], "refused": refused,
            "notes": notes, "waiting": waiting}


def _enqueue(document_ids: list[int]) -> int:
    """Commit, then queue pre-processing within the project's cap; how many wait for the sweeper instead."""
    from psan.celery.queue import enqueue
    db.get_conn().commit()
    result = enqueue(current_app.config, document_ids)
    return len(document_ids) - len(result.queued)


@bp.route("/documents/<int:document_id>", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, DocumentSchema)
def get_document(document_id: int):
    """One document's status and progress."""
    document = allowed_document(document_id)
    row = next((r for r in _rows(document["project_id"]) if r["id"] == document_id), None)
    if row is None:
        raise ApiError(404, "not_found", gettext("No such document."))
    return document_json(row, document["project_id"])


@bp.route("/documents/<int:document_id>", methods=["DELETE"])
@scoped(bp, *ADMIN)
@bp.response(204)
def delete_document(document_id: int):
    """Delete a document with its spans and decisions (the project is re-annotated: its lookups are gone)."""
    document = allowed_document(document_id)
    conn = db.get_conn()
    store_documents.delete_document(conn, document_id)
    conn.commit()
    try:
        from psan.celery.scheduling import schedule_project_reannotation
        schedule_project_reannotation(document["project_id"])
    except Exception as exc:  # noqa: BLE001 - deletion is done; the sweeper schedules the re-annotation later
        log_unscheduled(current_app.logger, "could not schedule re-annotation of project %s; the sweeper will",
                        document["project_id"], exc=exc)
        store_processing.request_reannotation(conn, document["project_id"])
    return None


@bp.route("/documents/<int:document_id>/spans", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, SpanListSchema)
def document_spans(document_id: int):
    """Every span of the document with its text, character offsets, final decision, who decided it and its label.

    409 ``not_ready`` while the document is pre-processed.
    """
    document = allowed_document(document_id)
    project = allowed_project(document["project_id"])
    conn = db.get_conn()
    row = store_documents.get_document(conn, document_id) or {}
    if row.get("status") not in ANNOTATED:
        raise ApiError(409, "not_ready", gettext("The document is not pre-processed yet."))
    text = document_text(conn, document_id)
    if text is None:
        return {"document_id": document_id, "status": row["status"], "spans": []}
    rows = window_content.annotation_rows(conn, document_id, 0, text.token_count)
    types = window_content.entity_types(window_content.entity_rows(conn, document_id, 0, text.token_count))
    thresholds = Thresholds(project["public_threshold"], project["private_threshold"])
    label_of = {r["id"]: r["token_label_id"] if r["token_label_id"] is not None else rule_label(r["rules"])
                for r in rows}
    names = window_content.label_names(conn, {v for v in label_of.values() if v is not None})
    spans = []
    for r in rows:
        decision = final_decision(r, thresholds)
        label_id = label_of[r["id"]] if decision == "PRIVATE" else None
        start, end = int(text.starts[r["first_token"]]), int(text.ends[r["end_token"] - 1])
        spans.append({"first_token": r["first_token"], "end_token": r["end_token"], "start": start, "end": end,
                      "text": text.text[start:end], "decision": decision,
                      "decided_by": "person" if r["token_decision"] else "rule", "rule_level": r["rule_level"],
                      "ne_types": types.get((r["first_token"], r["end_token"]), []),
                      "label_id": label_id, "label": names.get(label_id) if label_id is not None else None})
    return {"document_id": document_id, "status": row["status"], "spans": spans}
