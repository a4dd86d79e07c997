"""Offered project-wide "public" rules through the API (``/api/v1/projects/<id>/public-offers``).

The same store functions as the rules page and the annotate page (:mod:`psan.store.review.public_offers`).
Who may see and answer an offer: an admin (``read`` tokens list, ``admin`` tokens answer).  An offer shows words and
mentions from every document of the project, so an annotator, who may see nothing outside their window, gets 403
like any other admin route.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify
from flask_babel import gettext
from flask_login import current_user
from marshmallow import Schema, fields, validate

from psan.api.common import ADMIN, READ, ApiError, allowed_project, api_blueprint, body_is_json, scoped
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.review import public_offers
from psan.web.reannotate import reannotate

bp = api_blueprint("public_offers", "Offered project-wide public rules: words persons keep deciding public")


class OfferMentionSchema(Schema):
    document_id = fields.Integer(required=True)
    first_token = fields.Integer(required=True)
    end_token = fields.Integer(required=True)
    before = fields.String(required=True, metadata={"description": "up to 10 tokens before the mention"})
    text = fields.String(required=True)
    after = fields.String(required=True, metadata={"description": "up to 10 tokens after the mention"})
    context_first = fields.Integer(required=True)
    context_end = fields.Integer(required=True)


class OfferSchema(Schema):
    form = fields.String(required=True, metadata={"description": "the words, case-folded, single spaces"})
    tokens = fields.List(fields.String(), required=True)
    public_decisions = fields.Integer(required=True)
    documents = fields.Integer(required=True, metadata={"description": "documents of the public decisions"})
    private_share_bound = fields.Float(required=True, metadata={
        "description": "one-sided 95 % upper bound on the share of private mentions the decisions allow"})
    undecided_mentions = fields.Integer(required=True, metadata={
        "description": "spans the rule would decide public now"})
    mentions = fields.List(fields.Nested(OfferMentionSchema), required=True, metadata={
        "description": "up to 5 of those spans with their context, one document after another"})


class AnsweredSchema(Schema):
    form = fields.String(required=True)
    state = fields.String(required=True, validate=validate.OneOf(("CONFIRMED", "DISMISSED")))
    rule_id = fields.Integer(allow_none=True)
    account = fields.String(allow_none=True)


class OfferListSchema(Schema):
    offers = fields.List(fields.Nested(OfferSchema), required=True)
    answered = fields.List(fields.Nested(AnsweredSchema), required=True)


class OfferFormSchema(Schema):
    form = fields.String(required=True, validate=validate.Length(min=1, max=1000))


class OfferAnswerSchema(Schema):
    form = fields.String(required=True)
    state = fields.String(allow_none=True)
    rule_id = fields.Integer(allow_none=True)
    undone = fields.String(metadata={"description": "undo: the state taken back"})
    undecided_mentions = fields.Integer()


def _reachable_project(project_id: int) -> dict[str, Any]:
    """The project if the token reaches it (403 otherwise) and its admin may open it (404 otherwise); the routes'
    admin scope is checked first, so an annotator never gets this far (offers quote every document)."""
    project = allowed_project(project_id)
    if store_projects.accessible_project(db.get_conn(), project_id, current_user.id, current_user.is_admin) is None:
        raise ApiError(404, "not_found", gettext("No such project."))
    return project


def _answer(project_id: int, action) -> Any:  # noqa: ANN001 - one of the store's answer functions
    conn = db.get_conn()
    try:
        result = action(conn, project_id)
    except public_offers.OfferError as exc:
        db.mark_rollback()
        raise ApiError(exc.status, "not_found" if exc.status == 404 else "conflict", str(exc)) from None
    if result.get("rule_id") is not None:
        reannotate(project_id)
    return jsonify(result)


@bp.route("/projects/<int:project_id>/public-offers", methods=["GET"])
@scoped(bp, *READ)
@bp.response(200, OfferListSchema)
def list_offers(project_id: int):
    """Words the project's persons keep deciding public (an organisation or a place, at least 3 public decisions in
    2 documents, never private), each with the mentions a confirmation would decide now; and the offers answered."""
    _reachable_project(project_id)
    conn = db.get_conn()
    return {"offers": [o.json() for o in public_offers.offers(conn, project_id)],
            "answered": [{"form": r["form"], "state": r["state"], "rule_id": r["rule_id"],
                          "account": r["account_email"]} for r in public_offers.answered(conn, project_id)]}


@bp.route("/projects/<int:project_id>/public-offers/confirm", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(OfferFormSchema)
@bp.response(200, OfferAnswerSchema)
def confirm(payload: dict[str, Any], project_id: int):
    """Confirm an offer: a public word rule (case-insensitive, authored by the caller) decides every current and
    future mention public, except spans a person decided.  409 when the form is not offered now."""
    body_is_json()
    _reachable_project(project_id)
    return _answer(project_id, lambda conn, pid: public_offers.confirm(conn, pid, payload["form"], current_user.id))


@bp.route("/projects/<int:project_id>/public-offers/dismiss", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(OfferFormSchema)
@bp.response(200, OfferAnswerSchema)
def dismiss(payload: dict[str, Any], project_id: int):
    """Dismiss an offer: no rule, and the words are not offered again."""
    body_is_json()
    _reachable_project(project_id)
    return _answer(project_id, lambda conn, pid: public_offers.dismiss(conn, pid, payload["form"], current_user.id))


@bp.route("/projects/<int:project_id>/public-offers/undo", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(OfferFormSchema)
@bp.response(200, OfferAnswerSchema)
def undo(payload: dict[str, Any], project_id: int):
    """Undo a confirmation (its rule is deleted and the project re-annotated) or a dismissal (404: none)."""
    body_is_json()
    _reachable_project(project_id)
    conn = db.get_conn()
    try:
        result = public_offers.undo(conn, project_id, payload["form"], current_user.id)
    except public_offers.OfferError as exc:
        db.mark_rollback()
        raise ApiError(exc.status, "not_found", str(exc)) from None
    if result["rule_id"] is not None:
        reannotate(project_id)
    return jsonify(result)
