"""Document administration: upload (text, files, ZIPs), live list, downloads, retry, delete.

Pre-processing is queued only after the request's transaction has committed, so the worker
always finds the NEW document it is asked to process.
"""
from __future__ import annotations

from datetime import UTC, datetime

from flask import abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.celery.retry import log_unscheduled
from psan.documents.blueprint import bp
from psan.documents.forms import ActionForm, UploadForm, check_action_form
from psan.documents.release_gate import refuse_unreviewed
from psan.documents.upload import Limits, TextFile, UploadError, decode, read_upload
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus import documents as store_documents
from psan.store.corpus import processing as store_processing
from psan.store.corpus import task_failures
from psan.store.corpus.pipelines import lacks_ner
from psan.store.publish import archive as store_archive
from psan.store.publish import files as store_files
from psan.store.publish import output as store_output
from psan.store.publish import release as store_release
from psan.store.publish.files import parts_summary
from psan.store.shared.document_status import ANNOTATABLE, BUSY, DocumentStatus
from psan.tool.formats.files import FormatError
from psan.tool.models.fetch import install_hint
from psan.tool.text.language import detect_language
from psan.web.access import admin
from psan.web.code_names import document_status_word, retryable
from psan.web.downloads import private_download
from psan.web.ids import ascii_digits

DOWNLOAD_KINDS = ("input", "xml", *store_output.OUTPUT_MODES)
#: a language change recognizes these again (unless people decided spans); a running worker is left alone
RECOGNIZABLE = (DocumentStatus.NEW, *ANNOTATABLE, DocumentStatus.FAILED)


def _project_or_404(raw: object) -> dict:
    try:
        project_id = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        abort(404)
    return store_projects.get_project(project_id) or abort(404)


def _default_project_id() -> int:
    project_id = store_projects.default_project_id(db.get_conn())
    return project_id if project_id is not None else abort(404)


def _document_or_404(document_id: int) -> dict:
    return store_documents.get_document(db.get_conn(), document_id) or abort(404)


def _posted_document_or_404(document_id: int) -> dict:
    """The document a POST button acts on, once the button's CSRF token is checked."""
    check_action_form()
    return _document_or_404(document_id)


def _enqueue(document_ids: list[int]) -> None:
    """Commit the request's transaction, then queue pre-processing (the worker must see the rows).

    Within the project's cap (MAX_QUEUED_PER_PROJECT); what is not queued now stays NEW and the
    worker's sweeper queues it later — also when the broker is down.
    """
    from psan.celery.queue import enqueue
    db.get_conn().commit()
    result = enqueue(current_app.config, document_ids)
    if result.refused:
        flash(gettext("The background queue (Redis) is unreachable: %(count)s document(s) are stored and will be "
                      "queued automatically when it is back.", count=len(document_ids) - len(result.queued)),
              "warning")
    elif len(result.queued) < len(document_ids):
        flash(gettext("%(count)s document(s) wait for their turn: at most %(cap)s of a project are processed "
                      "at once.", count=len(document_ids) - len(result.queued),
                      cap=current_app.config["MAX_QUEUED_PER_PROJECT"]), "info")


def _documents(project_id: int) -> list[dict]:
    rows = store_documents.list_documents(db.get_conn(), project_id, current_app.config["PROCESSING_STALE_SECONDS"])
    for row in rows:
        row["status_word"] = document_status_word(row)
        row["retryable"] = retryable(row)
        row["parts"] = parts_summary(row.get("format_report"))
    return rows


@bp.route("/")
@admin
def index():
    project = _project_or_404(request.args.get("project") or _default_project_id())
    conn = db.get_conn()
    documents = _documents(project["id"])
    undecided = store_release.undecided_by_category(conn, project["id"])
    for d in documents:
        d["undecided_categories"] = undecided.get(d["id"], {})
    return render_template("documents/index.html", project=project, projects=store_projects.list_projects(),
                           documents=documents, action_form=ActionForm(), kinds=DOWNLOAD_KINDS,
                           languages=store_projects.LANGUAGES, large_tokens=current_app.config["LARGE_DOWNLOAD_TOKENS"],
                           no_ner=lacks_ner(project.get("pipeline"), project["language"]),
                           ner_hint=install_hint(project["language"]),
                           task_failures=task_failures.recent(conn, project["id"]))


@bp.route("/status")
@admin
def status():
    """Live status for documents.js: every document of the project with status and progress."""
    project = _project_or_404(request.args.get("project"))
    rows = _documents(project["id"])
    return jsonify(documents=[{"id": r["id"], "name": r["name"], "status": r["status"], "status_word": r["status_word"],
                               "status_name": r["status_word"],
                               "retryable": r["retryable"], "busy": r["status"] in BUSY,
                               "error": r["error"] or "", "progress": r["progress"], "tokens": r["token_count"]}
                              for r in rows])


@bp.route("/upload", methods=["GET", "POST"])
@admin
def upload():
    form = UploadForm()
    form.project.choices = [(p["id"], p["name"]) for p in store_projects.list_projects()]
    if request.method == "GET" and ascii_digits(request.args.get("project", "")):
        form.project.data = int(request.args["project"])
    if not form.validate_on_submit():
        return render_template("documents/upload.html", form=form)
    project = _project_or_404(form.project.data)
    limits = Limits(current_app.config["MAX_DOCUMENT_CHARS"], current_app.config["MAX_ZIP_MEMBERS"],
                    current_app.config["MAX_ZIP_UNCOMPRESSED"], confirm_conversion=bool(form.confirm_conversion.data),
                    tracked_changes=project.get("tracked_changes") or "accept")
    accepted: list[TextFile] = []
    errors: list[str] = []
    if (form.text.data or "").strip():
        name = (form.name.data or "").strip() or f"text {datetime.now(UTC):%Y-%m-%d %H:%M:%S}"
        try:
            accepted.append(decode(form.text.data.replace("\r\n", "\n").encode("utf-8"), name, limits.max_chars))
        except UploadError as exc:
            errors.append(str(exc))
    for storage in request.files.getlist(form.files.name):
        if not storage or not storage.filename:
            continue
        files, refused = read_upload(storage.read(), storage.filename, limits)
        accepted.extend(files)
        errors.extend(refused)
    for message in errors:
        flash(gettext("Refused: %(message)s", message=message), "danger")
    if not accepted:
        if not errors:
            flash(gettext("Nothing to upload: paste a text or choose files."), "warning")
        db.mark_rollback()
        return render_template("documents/upload.html", form=form), 400 if errors else 200
    conn = db.get_conn()
    # an explicit choice wins; otherwise each document's own language (the project's when unclear)
    ids = [store_documents.create_document(conn, project["id"], f.name,
                                           form.language.data or detect_language(f.text, project["language"]),
                                           f.text, current_user.id, f.original, f.format, f.report)
           for f in accepted]
    for f in accepted:
        if f.note:
            flash(f"{f.name}: {f.note}.", "info")
        if f.format is not None:
            flash(gettext("%(name)s: found %(parts)s.", name=f.name, parts=parts_summary(f.report)), "info")
    flash(gettext("%(count)s document(s) uploaded; recognition is running.", count=len(ids)), "success")
    _enqueue(ids)
    return redirect(url_for("documents.index", project=project["id"]))


@bp.route("/<int:document_id>/download/<kind>")
@admin
def download(document_id: int, kind: str):
    document = _document_or_404(document_id) if kind in DOWNLOAD_KINDS else abort(404)
    refuse_unreviewed(document["project_id"], kind)
    if document["original_format"] and kind != "xml" and request.args.get("as") != "text":
        return _download_file(document, kind)
    if kind == "input":
        content, suffix, mimetype = document["text"], ".txt", "text/plain"
    elif kind == "xml":
        content, suffix, mimetype = document["tagged_xml"], ".xml", "application/xml"
    else:
        ctx = store_output.project_context(db.get_conn(), document["project_id"], document_id)
        content = store_output.render_document(db.get_conn(), document_id, kind, ctx)
        suffix, mimetype = f".{kind}.txt", "text/plain"
    if content is None:
        abort(409, gettext("The document is not recognized yet."))
    response = private_download(content, mimetype, store_output.safe_filename(document["name"], suffix))
    if kind in store_output.OUTPUT_MODES:
        counts = ctx.masked.get(document_id)
        if counts is not None:  # what the fail-closed policy did, for scripts (the page shows it too)
            response.headers["X-Psan-Undecided-Policy"] = counts.policy
            response.headers["X-Psan-Undecided-Spans"] = str(counts.total)
    return response


def _download_file(document: dict, kind: str):
    """A document read from a DOCX/ODT/HTML/PDF file, downloaded in its own format (``?as=text``: the text).

    A file psan cannot write back soundly is not sent half-done: 409 with the reason, and the text offered.
    """
    conn = db.get_conn()
    try:
        if kind == "input":
            got = store_files.input_file(conn, document["id"])
        else:
            ctx = store_output.project_context(conn, document["project_id"], document["id"])
            got = store_files.output_file(conn, document["id"], kind, ctx)
    except FormatError as exc:
        abort(409, gettext("The file cannot be written back in its format (%(reason)s); download the text "
                           "instead.", reason=str(exc)))
    if got is None:
        abort(409, gettext("The document is not recognized yet."))
    data, name = got
    response = private_download(data, store_files.mimetype_of(name), name)
    counts = ctx.masked.get(document["id"]) if kind in store_output.OUTPUT_MODES else None
    if counts is not None:  # what the fail-closed policy did, as for the text download
        response.headers["X-Psan-Undecided-Policy"] = counts.policy
        response.headers["X-Psan-Undecided-Spans"] = str(counts.total)
    return response


@bp.route("/project/<int:project_id>/download/<kind>")
@admin
def download_project(project_id: int, kind: str):
    project = _project_or_404(project_id) if kind in DOWNLOAD_KINDS else abort(404)
    refuse_unreviewed(project_id, kind)
    data = store_archive.project_zip(db.get_conn(), project_id, kind)
    return private_download(data, "application/zip", store_output.safe_filename(project["name"], f"-{kind}.zip"))


@bp.route("/<int:document_id>/delete", methods=["POST"])
@admin
def delete(document_id: int):
    document = _posted_document_or_404(document_id)
    store_documents.delete_document(db.get_conn(), document_id)
    db.get_conn().commit()
    # lookup rules made from this document's annotations are gone: other documents lose their votes
    try:
        from psan.celery.scheduling import schedule_project_reannotation
        schedule_project_reannotation(document["project_id"])
    except Exception as exc:  # noqa: BLE001 - deletion is done; the sweeper schedules the re-annotation later
        log_unscheduled(current_app.logger, "could not schedule re-annotation of project %s; the sweeper will",
                        document["project_id"], exc=exc)
        store_processing.request_reannotation(db.get_conn(), document["project_id"])
    flash(gettext("Document %(name)s deleted.", name=document["name"]), "success")
    return redirect(url_for("documents.index", project=document["project_id"]))


@bp.route("/<int:document_id>/retry", methods=["POST"])
@admin
def retry(document_id: int):
    document = _posted_document_or_404(document_id)
    row = next((r for r in _documents(document["project_id"]) if r["id"] == document_id), None)
    if row is None or not retryable(row):
        flash(gettext("Only failed or stalled documents can be retried; waiting ones are queued automatically."),
              "warning")
    else:
        store_processing.reset_for_retry(db.get_conn(), document_id)
        _enqueue([document_id])
        flash(gettext("Document %(name)s queued again.", name=document["name"]), "success")
    return redirect(url_for("documents.index", project=document["project_id"]))




@bp.route("/<int:document_id>/language", methods=["POST"])
@admin
def set_language(document_id: int):
    """Correct a document's (detected) language; it drives tokenizer, NER, lemmatizer and surrogates.

    Without person decisions the document is recognized again in the new language; with decisions
    only the language changes (tags and surrogates), so no annotator's work is lost.
    """
    document = _posted_document_or_404(document_id)
    language = request.form.get("language", "")
    if language not in store_projects.LANGUAGES:
        abort(400, gettext("Unknown language."))
    if language == document["language"]:
        return redirect(url_for("documents.index", project=document["project_id"]))
    keep = store_documents.has_decisions(db.get_conn(), document_id) or document["status"] not in RECOGNIZABLE
    store_documents.set_language(db.get_conn(), document_id, language, recognize_again=not keep)
    if keep:
        flash(gettext("Language of %(name)s changed; the recognition is kept because people already decided "
                      "spans in it.", name=document["name"]), "warning")
    else:
        flash(gettext("Language of %(name)s changed; it is being recognized again.", name=document["name"]),
              "success")
        _enqueue([document_id])
    return redirect(url_for("documents.index", project=document["project_id"]))
