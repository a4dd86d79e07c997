"""Projects, their settings, rules and labels as JSON (``/api/v1/projects``).

The settings are checked as the project page checks them (name free, private threshold below public, a
pipeline that builds), and saved by the same store functions, so a change through the API re-annotates
exactly when the page's would.
"""
from __future__ import annotations

from typing import Any

from flask_babel import gettext

from psan.api.common import ADMIN, READ, ApiError, allowed_project, api_blueprint, body_is_json, scoped
from psan.api.schemas import (
    LabelListSchema,
    ProjectCreateSchema,
    ProjectListSchema,
    ProjectSchema,
    ProjectSettingsSchema,
    RuleListSchema,
)
from psan.runtime import db
from psan.store.admin import labels as store_labels
from psan.store.admin import projects as store_projects
from psan.store.admin import rule_admin
from psan.store.admin.rules import project_sensitive_types
from psan.store.corpus.pipelines import validate_config
from psan.store.corpus.reannotate import refresh_project_statuses
from psan.store.shared.names import clean_name
from psan.web.api_auth import current_token
from psan.web.input_guard import json_problem
from psan.web.reannotate import reannotate

bp = api_blueprint("projects", "Projects, their settings, rules and labels")

#: settings a project keeps when a change does not name them
SETTINGS = ("name", "language", "pipeline", "public_threshold", "private_threshold", "ask_labels", "sensitive_types",
            "annotators_choose_document", "lookups_everywhere", "tracked_changes", "double_share", "review_mode",
            "qa_target")
DEFAULTS = {"pipeline": {}, "public_threshold": 1.0, "private_threshold": -1.0, "ask_labels": False,
            "sensitive_types": [], "annotators_choose_document": False, "lookups_everywhere": False,
            "tracked_changes": "accept", "double_share": 0.0, "review_mode": "full", "qa_target": 0.005}


def project_json(project: dict[str, Any], members: list[int] | None = None) -> dict[str, Any]:
    out = {key: project.get(key) for key in (*SETTINGS, "id", "is_default", "undecided_output", "documents")}
    out["pipeline"] = out["pipeline"] or {}
    out["sensitive_types"] = list(out["sensitive_types"] or [])
    if members is not None:
        out["members"] = members
    return {k: v for k, v in out.items() if v is not None or k == "pipeline"}


@bp.route("/projects", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, ProjectListSchema)
def list_projects():
    """The projects the token may reach."""
    token = current_token()
    projects = [p for p in store_projects.list_projects(db.get_conn()) if token.allows_project(p["id"])]
    return {"projects": [project_json(p) for p in projects]}


def _checked(values: dict[str, Any], project_id: int | None) -> dict[str, Any]:
    """The settings to save, checked as the project page checks them (400 ``invalid_settings`` with why)."""
    name = clean_name(values["name"])
    if not name:
        raise ApiError(400, "invalid_settings", gettext("The name is empty."))
    if store_projects.name_taken(name, project_id, db.get_conn()):
        raise ApiError(409, "name_taken", gettext("A project with this name exists."))
    if values["private_threshold"] >= values["public_threshold"]:
        raise ApiError(400, "invalid_settings", gettext("Must be below the public threshold."))
    pipeline = values.get("pipeline") or {}
    problem = json_problem(pipeline)
    if problem:
        raise ApiError(400, "invalid_settings", problem)
    error = validate_config(pipeline, values["language"]) if pipeline else None
    if error:
        raise ApiError(400, "invalid_pipeline", str(error))
    sensitive = store_projects.parse_sensitive_types(",".join(values.get("sensitive_types") or []))
    return {**values, "name": name, "pipeline": pipeline, "sensitive_types": sensitive}


def _save(values: dict[str, Any], members: list[int] | None, project_id: int | None) -> int:
    conn = db.get_conn()
    before = project_sensitive_types(conn, project_id) if project_id is not None else frozenset()
    saved_id = store_projects.save_project(values, project_id, conn)
    if members is not None:
        store_projects.set_members(saved_id, members, conn)
    refresh_project_statuses(conn, saved_id)
    if project_id is not None and store_projects.note_blocking_changes(
            conn, saved_id, before, frozenset(values["sensitive_types"])):
        reannotate(saved_id)  # the sensitive list changed which rules outrank which, as on the page
    return saved_id


def _answer(project_id: int) -> dict[str, Any]:
    conn = db.get_conn()
    project = store_projects.get_project(project_id, conn) or {}
    return project_json(project, store_projects.member_ids(project_id, conn))


@bp.route("/projects", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(ProjectCreateSchema)
@bp.response(201, ProjectSchema)
def create_project(payload: dict[str, Any]):
    """Create a project (a token for every project only: a token of chosen projects cannot reach a new one)."""
    body_is_json()
    if not current_token().all_projects:
        raise ApiError(403, "project_not_allowed", gettext("Only a token for all projects can create projects."))
    members = payload.pop("members", None)
    values = _checked({**DEFAULTS, **payload}, None)
    return _answer(_save(values, members, None))


@bp.route("/projects/<int:project_id>", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, ProjectSchema)
def get_project(project_id: int):
    """A project's settings and annotators."""
    allowed_project(project_id)
    return _answer(project_id)


@bp.route("/projects/<int:project_id>", methods=["PATCH"])
@scoped(bp, *ADMIN)
@bp.arguments(ProjectSettingsSchema)
@bp.response(200, ProjectSchema)
def change_project(payload: dict[str, Any], project_id: int):
    """Change some settings; the others keep their values."""
    body_is_json()
    project = allowed_project(project_id)
    members = payload.pop("members", None)
    current = {key: project.get(key) for key in SETTINGS}
    current["sensitive_types"] = list(current["sensitive_types"] or [])
    values = _checked({**current, **payload}, project_id)
    return _answer(_save(values, members, project_id))


@bp.route("/projects/<int:project_id>/rules", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, RuleListSchema)
def list_rules(project_id: int):
    """Every rule of the project: the rules CSV export as JSON."""
    allowed_project(project_id)
    rules = rule_admin.list_rules(db.get_conn(), project_id, rule_admin.RuleSelection())
    return {"rules": [{"id": r["id"], "type": r["type"], "condition": r["condition"],
                       "decision": rule_admin.decision_of(r["confidence"]), "confidence": r["confidence"],
                       "case_sensitive": r["case_sensitive"], "label": r["label_name"], "author": r["author_email"]}
                      for r in rules]}


@bp.route("/projects/<int:project_id>/labels", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, LabelListSchema)
def list_labels(project_id: int):
    """Every label of the project (name, category, replacement): the labels CSV export as JSON."""
    allowed_project(project_id)
    return {"labels": [{"id": r["id"], "name": r["name"], "category": r["category"], "replacement": r["replacement"]}
                       for r in store_labels.list_labels(db.get_conn(), project_id)]}
