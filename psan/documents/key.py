"""Pseudonymization key export and de-pseudonymization (admin only).

Why separate routes and files: the key holds every original private string, so it is never put
into the output ZIP; it is downloaded on its own, by an admin, with ``Cache-Control: no-store`` so
no browser or proxy keeps a copy.  The key is built by the same project pass as the
pseudonymized output (:func:`psan.store.publish.output.pseudonymize_project`), so it fits the output
downloaded with the same project state, and de-pseudonymization restores it byte for byte.
"""
from __future__ import annotations

from flask import Response, abort, render_template, request
from flask_babel import gettext
from flask_login import current_user

from psan.documents.blueprint import bp
from psan.runtime import db
from psan.store.admin import key_access
from psan.store.admin import projects as store_projects
from psan.store.corpus import documents as store_documents
from psan.store.publish import output as store_output
from psan.tool.release.key import KeyFileError, key_csv, key_json, parse_key, restore_output
from psan.web.access import admin
from psan.web.downloads import private_download
from psan.web.ids import ascii_digits

#: upper bound of an uploaded key or output file (both are plain text of one project)
MAX_UPLOAD_BYTES = 32 * 1024 * 1024


def _private_download(data: str, mimetype: str, name: str) -> Response:
    """An attachment that no cache may store (it holds personal data)."""
    return private_download(data, mimetype, name)


def _reason(value: str | None) -> str:
    """The reason given for using the key; 400 with what is expected when there is none."""
    try:
        return key_access.clean_reason(value)
    except key_access.ReasonRequired:
        abort(400, gettext("Give the reason for using the key (at least %(n)d characters): every key export and "
                           "de-pseudonymization is logged with who, when and why.", n=key_access.MIN_REASON))


def _log(action: str, reason: str, project_id: int | None, document_id: int | None = None, **detail) -> None:
    key_access.record(db.get_conn(), action, reason, current_user.id, current_user.email, project_id, document_id,
                      detail)


def _project_key(project_id: int, fmt: str) -> Response:
    project = store_projects.get_project(project_id) or abort(404)
    reason = _reason(request.args.get("reason"))
    docs = store_output.pseudonymize_project(db.get_conn(), project_id)
    entries = [e for d in docs for e in d.entries]
    _log("export", reason, project_id, format=fmt, documents=len(docs))
    if fmt == "csv":
        return _private_download(key_csv(entries), "text/csv",
                                 store_output.safe_filename(project["name"], "-key.csv"))
    content = key_json([{"id": d.document_id, "name": d.name} for d in docs], entries,
                       {"id": project["id"], "name": project["name"]})
    return _private_download(content, "application/json", store_output.safe_filename(project["name"], "-key.json"))


@bp.route("/project/<int:project_id>/key.json")
@admin
def project_key_json(project_id: int) -> Response:
    """Key of every annotated document of the project (JSON, for ``depseudonymize``)."""
    return _project_key(project_id, "json")


@bp.route("/project/<int:project_id>/key.csv")
@admin
def project_key_csv(project_id: int) -> Response:
    """Key of every annotated document of the project (CSV, for review or spreadsheets)."""
    return _project_key(project_id, "csv")


@bp.route("/<int:document_id>/key.json")
@admin
def document_key_json(document_id: int) -> Response:
    """Key of one document, fitting its ``download/pseudonymize`` output."""
    row = store_documents.document_with_project(db.get_conn(), document_id) or abort(404)
    reason = _reason(request.args.get("reason"))
    got = store_output.pseudonymized_document(db.get_conn(), document_id)
    if got is None:
        abort(409, gettext("The document is not recognized yet."))
    _log("export", reason, row["project_id"], document_id, format="json", documents=1)
    content = key_json([{"id": got.document_id, "name": got.name}], got.entries,
                       {"id": row["project_id"], "name": row["project_name"]})
    return _private_download(content, "application/json", store_output.safe_filename(row["name"], ".key.json"))


def _upload_text(field: str, what: str) -> tuple[str, str]:
    """(text, file name) of an uploaded file, decoded strictly as UTF-8 (no newline changes)."""
    storage = request.files.get(field)
    if storage is None or not storage.filename:
        abort(400, gettext("Choose the %(what)s file.", what=what))
    data = storage.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        abort(413)
    try:
        return data.decode("utf-8"), storage.filename
    except UnicodeDecodeError:
        abort(400, gettext("The %(what)s file is not UTF-8 text.", what=what))


def _restored_name(output_name: str) -> str:
    base = output_name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    for suffix in (".pseudonymize.txt", ".txt"):
        if base.lower().endswith(suffix):
            base = base[:-len(suffix)]
            break
    return store_output.safe_filename(base, ".restored.txt")


@bp.route("/depseudonymize", methods=["POST"])
@admin
def depseudonymize() -> Response:
    """Original text from an uploaded pseudonymized output and its key (fields ``output``, ``key``).

    Optional ``document`` (id or name) picks the document of a project key; without it the one
    document whose key entries fit the output is used.  A wrong or malformed key is a 400 with
    the reason, never a 500.
    """
    reason = _reason(request.form.get("reason"))
    output_text, output_name = _upload_text("output", gettext("output"))
    key_text, key_name = _upload_text("key", gettext("key"))
    fmt = "csv" if key_name.lower().endswith(".csv") else "json"
    try:
        key = parse_key(key_text, fmt)
        document, original = restore_output(key, output_text, request.form.get("document"))
    except KeyFileError as exc:
        abort(400, str(exc))
    project = (key.project or {}).get("id")
    _log("depseudonymize", reason, project if isinstance(project, int) and not isinstance(project, bool) else None,
         int(document) if ascii_digits(document) and len(document) < 19 else None, output=output_name[:200],
         key_document=document[:200])
    return _private_download(original, "text/plain", _restored_name(output_name))


@bp.route("/project/<int:project_id>/key-access")
@admin
def key_access_log(project_id: int) -> str:
    """Who exported the project's key or restored an original with it, when and why (newest first)."""
    project = store_projects.get_project(project_id) or abort(404)
    return render_template("documents/key_access.html", project=project,
                           entries=key_access.entries(db.get_conn(), project_id))

