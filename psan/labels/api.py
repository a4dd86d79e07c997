"""JSON API for the annotation window: label names, ids and categories, never replacements.

``GET /labels/api/<project_id>`` lists, ``POST`` creates from ``{"name": ..., "category": ...}``
(CSRF token in the ``X-CSRFToken`` header).  Projects the account may not use answer 404.
"""
from __future__ import annotations

from flask import jsonify, request
from flask_login import current_user
from werkzeug.exceptions import NotFound

from psan.labels import validate
from psan.labels.blueprint import bp
from psan.runtime import db
from psan.store.admin import labels as store_labels
from psan.web.access import user
from psan.web.project_picker import project_or_404


def _project_or_json_404(project_id: int):
    try:
        return project_or_404(project_id), None
    except NotFound:
        return None, (jsonify(error="project not found"), 404)


@bp.route("/api/<int:project_id>", methods=["GET"])
@user
def api_list(project_id: int):
    project, error = _project_or_json_404(project_id)
    if error:
        return error
    return jsonify(labels=store_labels.public_labels(db.get_conn(), project["id"]))


@bp.route("/api/<int:project_id>", methods=["POST"])
@user
def api_create(project_id: int):
    project, error = _project_or_json_404(project_id)
    if error:
        return error
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        return jsonify(error="send a JSON object"), 400
    name, name_error = validate.clean_name(payload.get("name"))
    category, category_error = validate.clean_category(payload.get("category"))
    if name_error or category_error:
        return jsonify(error="; ".join(e for e in (name_error, category_error) if e)), 400
    try:
        label_id = store_labels.create_label(db.get_conn(), project["id"], name, category, None, current_user.id)
    except store_labels.LabelError as exc:
        labels = store_labels.public_labels(db.get_conn(), project["id"])
        existing = next((r for r in labels if r["name"] == name), None)
        return jsonify(error=str(exc), label=existing), 409
    return jsonify(id=label_id, name=name, category=category), 201
