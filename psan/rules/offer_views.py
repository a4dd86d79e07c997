"""Offered project-wide public rules on the pages: the list (JSON for the annotate page's panel) and the answers.

Who may see and answer: an admin only.  An offer shows words and mentions from every document of the project, and
an annotator may see nothing outside their window.  Every answer is a POST with a CSRF token (a form of the rules
page, or the annotate page's ``X-CSRFToken``), logged in ``decision_log``; a confirmation or the undo of one
schedules the project's re-annotation.  The store: :mod:`psan.store.review.public_offers`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import flash, jsonify, redirect, request, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.rules.blueprint import bp
from psan.runtime import db
from psan.store.review import public_offers
from psan.web.access import admin
from psan.web.project_picker import project_or_404
from psan.web.reannotate import reannotate


def _form() -> str:
    data = request.get_json(silent=True) if request.is_json else request.form
    return str((data or {}).get("form") or "").strip()[:1000]


def _answers_json() -> bool:
    return request.is_json or request.accept_mimetypes.best == "application/json"


def _offers_json(project_id: int) -> dict[str, Any]:
    conn = db.get_conn()
    return {"project_id": project_id, "offers": [o.json() for o in public_offers.offers(conn, project_id)],
            "answered": [{"form": r["form"], "state": r["state"], "rule_id": r["rule_id"]}
                         for r in public_offers.answered(conn, project_id)]}


@bp.route("/offers/<int:project_id>")
@admin
def offers(project_id: int):
    """The project's offers and answered offers as JSON (the annotate page's panel)."""
    project = project_or_404(project_id)
    return jsonify(_offers_json(project["id"]))


def _answer(project_id: int, action: Callable[[Any, int, str, int], dict[str, Any]], done: Callable[[str], str]):
    project = project_or_404(project_id)
    form = _form()
    if not form:
        if _answers_json():
            return jsonify(error=gettext("No words given.")), 400
        flash(gettext("No words given."), "danger")
        return redirect(url_for("rules.index", project=project["id"]))
    try:
        result = action(db.get_conn(), project["id"], form, current_user.id)
    except public_offers.OfferError as exc:
        db.mark_rollback()
        message = str(exc)
        if _answers_json():
            return jsonify(error=message), exc.status
        flash(message, "warning")
        return redirect(url_for("rules.index", project=project["id"]))
    if result.get("rule_id") is not None:
        reannotate(project["id"])
    message = done(result["form"])
    if _answers_json():
        return jsonify(**result, message=message, **_offers_json(project["id"]))
    flash(message, "success")
    return redirect(url_for("rules.index", project=project["id"]))


@bp.route("/offers/<int:project_id>/confirm", methods=["POST"])
@admin
def confirm_offer(project_id: int):
    return _answer(project_id, public_offers.confirm, lambda form: gettext(
        "Rule made: “%(form)s” is public everywhere in the project, except where a person decided it.", form=form))


@bp.route("/offers/<int:project_id>/dismiss", methods=["POST"])
@admin
def dismiss_offer(project_id: int):
    return _answer(project_id, public_offers.dismiss,
                   lambda form: gettext("“%(form)s” will not be offered again.", form=form))


@bp.route("/offers/<int:project_id>/undo", methods=["POST"])
@admin
def undo_offer(project_id: int):
    return _answer(project_id, public_offers.undo,
                   lambda form: gettext("Answer to “%(form)s” taken back.", form=form))
