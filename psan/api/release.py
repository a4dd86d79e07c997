"""Releases through the API: start the project ZIP in the background, poll it, download it; the report; QA.

The ZIP is rendered by the same background job as the documents page's "prepare" button
(:mod:`psan.store.corpus.download_jobs`, :mod:`psan.celery.download_tasks`), behind the same release gate (a
project reviewed by risk releases nothing before its QA bound allows it: 409), and only the account that
started a job sees it.
"""
from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, url_for
from flask_babel import gettext

from psan.api.common import ADMIN, READ, ApiError, allowed_project, api_blueprint, body_is_json, scoped
from psan.api.schemas import (
    KeyQuerySchema,
    QaDrawSchema,
    QaSampleSchema,
    QaVerdictsSchema,
    ReleaseJobSchema,
    ReleaseStartSchema,
    ReportSchema,
    ReviewDrawSchema,
    ReviewMissesSchema,
    ReviewSampleSchema,
    SavedSchema,
)
from psan.documents.release_gate import refuse_unreviewed
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus import download_jobs
from psan.store.publish import output as store_output
from psan.store.publish import qa as store_qa
from psan.store.publish.release import project_report
from psan.store.review import risk_qa as store_risk_qa
from psan.web.api_auth import current_token
from psan.web.downloads import private_download

bp = api_blueprint("release", "Releases (project ZIPs), the release report and the QA sample")


def job_json(job: dict[str, Any]) -> dict[str, Any]:
    return {"id": job["id"], "project_id": job["project_id"], "kind": job["kind"], "status": job["status"],
            "stage": job["stage"], "seconds": round(job["seconds"]), "size": job["size"], "error": job["error"],
            "done": job["done"], "total": job["total"],
            "file": url_for("api_release.release_file", job_id=job["id"]) if job["status"] == "DONE" else None}


def _job(job_id: int) -> dict[str, Any]:
    job = download_jobs.get(db.get_conn(), job_id, current_token().account_id)
    if job is None or job["document_id"] is not None or not current_token().allows_project(job["project_id"]):
        raise ApiError(404, "not_found", gettext("No such release job."))
    return job


@bp.route("/projects/<int:project_id>/releases", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(ReleaseStartSchema)
@bp.response(202, ReleaseJobSchema)
def start_release(payload: dict[str, Any], project_id: int):
    """Start rendering the project ZIP (``kind``: remove, tag or pseudonymize); poll the job until DONE."""
    body_is_json()
    project = allowed_project(project_id)
    kind = payload["kind"]
    refuse_unreviewed(project_id, kind)
    conn = db.get_conn()
    job_id = download_jobs.create(conn, current_token().account_id, project_id, None, kind,
                                  store_output.safe_filename(project["name"], f"-{kind}.zip"), "application/zip")
    conn.commit()  # the worker must see the job
    from psan.celery.download_tasks import prepare_download
    limit = float(current_app.config.get("DOWNLOAD_TIME_LIMIT", 3600))
    prepare_download.apply_async((job_id,), soft_time_limit=limit, time_limit=limit + 60,
                                 queue=current_app.config.get("CELERY_QUEUE") or None)
    return job_json(_job(job_id))


@bp.route("/release-jobs/<int:job_id>", methods=["GET"])
@scoped(bp, *ADMIN)
@bp.response(200, ReleaseJobSchema)
def release_job(job_id: int):
    """The state of a release job the token's account started."""
    return job_json(_job(job_id))


@bp.route("/release-jobs/<int:job_id>/file", methods=["GET"])
@scoped(bp, *ADMIN)
@bp.response(200, {"format": "binary", "type": "string"}, content_type="application/zip")
def release_file(job_id: int):
    """The finished ZIP (409 ``not_ready`` before the job is DONE)."""
    job = _job(job_id)
    refuse_unreviewed(job["project_id"], job["kind"])  # the bound may have changed since it was started
    content = download_jobs.data(db.get_conn(), job_id, current_token().account_id)
    if content is None:
        raise ApiError(409, "not_ready", gettext("The download is not ready."))
    return private_download(content, job["mimetype"], job["filename"])


@bp.route("/projects/<int:project_id>/release-report", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, ReportSchema)
def release_report(project_id: int):
    """The release report as it stands now (what ``RELEASE_REPORT.json`` of a ZIP made now would hold)."""
    allowed_project(project_id)
    return jsonify(project_report(db.get_conn(), project_id))  # passed through: the report has no fixed shape


def _sample(project_id: int, sample_id: int) -> dict[str, Any]:
    conn = db.get_conn()
    if store_projects.qa_sample(conn, project_id, sample_id) is None:
        raise ApiError(404, "not_found", gettext("No such QA sample."))
    return {"sample_id": sample_id, "tokens": store_qa.sample_tokens(conn, sample_id),
            "summary": store_qa.summary(conn, project_id)}


@bp.route("/projects/<int:project_id>/qa-samples", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(QaDrawSchema)
@bp.response(201, QaSampleSchema)
def draw_qa_sample(payload: dict[str, Any], project_id: int):
    """Draw a random QA sample of public candidate tokens (each with a short context) for a second reviewer."""
    body_is_json()
    allowed_project(project_id)
    sample_id, _ = store_qa.draw_sample(db.get_conn(), project_id, payload["size"], current_token().account_id,
                                       current_app.config.get("QA_SAMPLE_SEED"))
    return _sample(project_id, sample_id)


@bp.route("/projects/<int:project_id>/qa-samples/<int:sample_id>", methods=["GET"])
@scoped(bp, *ADMIN)
@bp.response(200, QaSampleSchema)
def qa_sample(project_id: int, sample_id: int):
    """A QA sample's tokens with their verdicts, and the project's QA summary (upper bound on the miss rate)."""
    allowed_project(project_id)
    return _sample(project_id, sample_id)


@bp.route("/projects/<int:project_id>/qa-samples/<int:sample_id>/verdicts", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(QaVerdictsSchema)
@bp.response(200, SavedSchema)
def qa_verdicts(payload: dict[str, Any], project_id: int, sample_id: int):
    """The reviewer's verdicts (ok: rightly public, miss: personal data left); tokens not in the sample are ignored."""
    body_is_json()
    allowed_project(project_id)
    if store_projects.qa_sample(db.get_conn(), project_id, sample_id) is None:
        raise ApiError(404, "not_found", gettext("No such QA sample."))
    verdicts = {(v["document_id"], v["token_id"]): v["verdict"] for v in payload["verdicts"]}
    return {"saved": store_qa.record_verdicts(db.get_conn(), sample_id, verdicts, current_token().account_id)}


@bp.route("/projects/<int:project_id>/key", methods=["GET"])
@scoped(bp, *ADMIN)
@bp.arguments(KeyQuerySchema, location="query")
@bp.response(200, {"type": "object"})
def project_key(query: dict[str, Any], project_id: int):
    """The pseudonymization key of the project (JSON, fits the pseudonymized ZIP); logged with who, when and the
    ``reason`` — the key page's own export."""
    from psan.documents.key import project_key_json
    allowed_project(project_id)
    return project_key_json(project_id)


def _review(project_id: int, sample_id: int) -> dict[str, Any]:
    conn = db.get_conn()
    sample = store_risk_qa.latest(conn, project_id)
    if sample is None or sample["id"] != sample_id:
        raise ApiError(404, "not_found", gettext("No such review sample (only the latest can be reviewed)."))
    return {"sample_id": sample_id, "sentences": store_risk_qa.sample_sentences(conn, sample_id),
            "summary": store_risk_qa.summary(conn, project_id)}


@bp.route("/projects/<int:project_id>/review-samples", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(ReviewDrawSchema)
@bp.response(201, ReviewSampleSchema)
def draw_review_sample(payload: dict[str, Any], project_id: int):
    """Review by risk: draw a stratified sample of the sentences nobody read (default size: what certifies the
    project's target when at most one miss is found)."""
    body_is_json()
    allowed_project(project_id)
    sample_id, _ = store_risk_qa.draw(db.get_conn(), project_id, current_token().account_id, payload.get("size"),
                                      current_app.config.get("QA_SAMPLE_SEED"))
    return _review(project_id, sample_id)


@bp.route("/projects/<int:project_id>/review-samples/<int:sample_id>", methods=["GET"])
@scoped(bp, *ADMIN)
@bp.response(200, ReviewSampleSchema)
def review_sample(project_id: int, sample_id: int):
    """The latest review sample: its sentences (with their text), the misses entered, the bound."""
    allowed_project(project_id)
    return _review(project_id, sample_id)


@bp.route("/projects/<int:project_id>/review-samples/<int:sample_id>/misses", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(ReviewMissesSchema)
@bp.response(200, SavedSchema)
def review_misses(payload: dict[str, Any], project_id: int, sample_id: int):
    """How many personal mentions nobody had marked each sampled sentence holds (sentences not sampled: ignored)."""
    body_is_json()
    _review(project_id, sample_id)
    misses = {(m["document_id"], m["first_token"]): m["misses"] for m in payload["misses"]}
    return {"saved": store_risk_qa.record(db.get_conn(), sample_id, misses, current_token().account_id)}
