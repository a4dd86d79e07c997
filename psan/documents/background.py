"""Downloads prepared in the background (admin): start a job, watch its stage, take the file.

Why: a large document's or project's output can take longer to render than a web request may
last (uWSGI's harakiri); see :mod:`psan.store.corpus.download_jobs`.  The documents page offers it for
every project ZIP and, for documents over ``LARGE_DOWNLOAD_TOKENS`` tokens, instead of the direct
links.  Only the admin who started a job sees it; its file is ``no-store`` like every download.
"""
from __future__ import annotations

from flask import abort, current_app, jsonify, redirect, render_template, url_for
from flask_babel import gettext, lazy_gettext
from flask_login import current_user

from psan.documents.blueprint import bp
from psan.documents.forms import check_action_form
from psan.documents.release_gate import refuse_unreviewed
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus import documents as store_documents
from psan.store.corpus import download_jobs
from psan.store.publish import files as store_files
from psan.store.publish import output as store_output
from psan.web.access import admin
from psan.web.downloads import private_download

KINDS = ("input", "xml", *store_output.OUTPUT_MODES)
STAGES = {"": lazy_gettext("waiting for a worker"), "rendering": lazy_gettext("rendering"),
          "done": lazy_gettext("done")}


def _queue(job_id: int) -> None:
    from psan.celery.download_tasks import prepare_download
    db.get_conn().commit()  # the worker must see the job
    limit = float(current_app.config.get("DOWNLOAD_TIME_LIMIT", 3600))
    prepare_download.apply_async((job_id,), soft_time_limit=limit, time_limit=limit + 60,
                                 queue=current_app.config.get("CELERY_QUEUE") or None)


@bp.route("/<int:document_id>/prepare/<kind>", methods=["POST"])
@admin
def prepare_document(document_id: int, kind: str):
    check_action_form()
    document = store_documents.document_with_project(db.get_conn(), document_id)
    if document is None or kind not in KINDS:
        abort(404)
    refuse_unreviewed(document["project_id"], kind)
    suffix = {"input": ".txt", "xml": ".xml"}.get(kind, f".{kind}.txt")
    mimetype = "application/xml" if kind == "xml" else "text/plain"
    filename = store_output.safe_filename(document["name"], suffix)
    fmt = document.get("original_format")
    if fmt and kind != "xml":  # an office file, page or PDF: prepared in its own format
        filename = (store_files.input_name(document["name"], fmt) if kind == "input"
                    else store_files.file_name(document["name"], kind, fmt))
        mimetype = store_files.mimetype_of(filename)
    job = download_jobs.create(db.get_conn(), current_user.id, document["project_id"], document_id, kind,
                               filename, mimetype)
    _queue(job)
    return redirect(url_for("documents.prepared", job_id=job))


@bp.route("/project/<int:project_id>/prepare/<kind>", methods=["POST"])
@admin
def prepare_project(project_id: int, kind: str):
    check_action_form()
    project = store_projects.get_project(project_id)
    if project is None or kind not in KINDS:
        abort(404)
    refuse_unreviewed(project_id, kind)
    job = download_jobs.create(db.get_conn(), current_user.id, project_id, None, kind,
                               store_output.safe_filename(project["name"], f"-{kind}.zip"), "application/zip")
    _queue(job)
    return redirect(url_for("documents.prepared", job_id=job))


def _job_or_404(job_id: int) -> dict:
    return download_jobs.get(db.get_conn(), job_id, current_user.id) or abort(404)


def _state(job: dict) -> dict:
    return {"id": job["id"], "status": job["status"], "stage": job["stage"],
            "stage_name": str(STAGES.get(job["stage"], job["stage"])), "seconds": round(job["seconds"]),
            "size": job["size"], "error": job["error"] or "", "done": job["done"], "total": job["total"],
            "file": url_for("documents.prepared_file", job_id=job["id"]) if job["status"] == "DONE" else None}


@bp.route("/prepared/<int:job_id>")
@admin
def prepared(job_id: int):
    job = _job_or_404(job_id)
    return render_template("documents/prepared.html", job=job, state=_state(job))


@bp.route("/prepared/<int:job_id>/status")
@admin
def prepared_status(job_id: int):
    return jsonify(_state(_job_or_404(job_id)))


@bp.route("/prepared/<int:job_id>/file")
@admin
def prepared_file(job_id: int):
    job = _job_or_404(job_id)
    refuse_unreviewed(job["project_id"], job["kind"])  # the bound may have changed since it was started
    content = download_jobs.data(db.get_conn(), job_id, current_user.id)
    if content is None:
        abort(409, gettext("The download is not ready."))
    return private_download(content, job["mimetype"], job["filename"])
