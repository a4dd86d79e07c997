"""Deciding spans through the API: the annotate page's own window, through its own views.

Why call the annotate blueprint's views (``psan.annotate.api``) instead of re-implementing them: a token
acts as its owner (``current_user``), so the window is assigned, renewed, checked (a span outside it, a
forged document id, the elided middle of a long window: 403) and decided by exactly the code the page uses —
nothing an annotator cannot see or decide on the page can be seen or decided with a token.  A token of chosen
projects also refuses a window of another project (the window is given back, 403 ``project_not_allowed``) and
decides nothing while the account's window lies in one.
"""
from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask_babel import gettext
from flask_login import current_user

from psan.annotate import api as annotate_api
from psan.annotate import workflow
from psan.annotate.content import window_json
from psan.api.common import ADMIN, ANNOTATE, ApiError, api_blueprint, body_is_json, scoped
from psan.api.schemas import (
    AcceptSchema,
    DecideSchema,
    EntityQuerySchema,
    EntitySchema,
    LabelSpanSchema,
    OpenSchema,
    WindowQuerySchema,
    WindowSchema,
)
from psan.runtime import db
from psan.store.annotation import windows as store_windows
from psan.web import shown
from psan.web.api_auth import current_token

bp = api_blueprint("annotate", "Annotation windows and decisions, exactly as on the annotate page")


@bp.errorhandler(workflow.AlreadySaved)
def _already_saved(exc: workflow.AlreadySaved):
    """A retry of a saved decision (its ``request_id`` is known): the window as it is, nothing decided again."""
    conn = db.get_conn()
    conn.rollback()
    window = store_windows.current_window(conn, current_user.id)
    if window is None:
        return jsonify(window=None, already_saved=True)
    return jsonify(**window_json(conn, window, current_user.is_admin, size=shown.shown_size()), already_saved=True)


def _other_project() -> ApiError:
    return ApiError(403, "project_not_allowed", gettext(
        "Your annotation window is in a project this API token is not valid for."))


def _refuse_other_project() -> None:
    """403 before a decision when the caller's window lies in a project the token may not reach."""
    window = store_windows.current_window(db.get_conn(), current_user.id)
    if window is not None and not current_token().allows_project(window.project_id):
        raise _other_project()


def _checked_window(answer: Response) -> Response:
    """The window answer, unless its window lies in a project the token may not reach: then the window is given
    back (the account's next request, on the page or with another token, gets a window of its own) and 403."""
    window = (answer.get_json(silent=True) or {}).get("window") if answer.status_code == 200 else None
    if window and not current_token().allows_project(window["project_id"]):
        conn = db.get_conn()
        store_windows.release(conn, current_user.id)
        conn.commit()
        raise _other_project()
    return answer


@bp.route("/annotate/window", methods=["GET"])
@scoped(bp, *ANNOTATE)
@bp.arguments(WindowQuerySchema, location="query")
@bp.response(200, WindowSchema)
def window(query: dict[str, Any]):
    """The caller's annotation window (assigned on first use); with ``document_id, first_token, end_token`` a part
    of it (anything outside the window is 403)."""
    return _checked_window(annotate_api.api_window())


@bp.route("/annotate/next", methods=["POST"])
@scoped(bp, *ANNOTATE)
@bp.response(200, WindowSchema)
def next_window():
    """Leave the window for the next one (409 while it has undecided spans and nothing was decided in it)."""
    return _checked_window(annotate_api.api_next())


@bp.route("/annotate/decide", methods=["POST"])
@scoped(bp, *ANNOTATE)
@bp.arguments(DecideSchema)
@bp.response(200, WindowSchema)
def decide(payload: dict[str, Any]):
    """Decide a span of the caller's window: by token, word type, NE type or every mention of its entity.

    Answers the window after the decision, with ``action_id`` (what undo takes back).
    """
    body_is_json()
    _refuse_other_project()
    return annotate_api.api_decide()


@bp.route("/annotate/accept", methods=["POST"])
@scoped(bp, *ANNOTATE)
@bp.arguments(AcceptSchema)
@bp.response(200, WindowSchema)
def accept(payload: dict[str, Any]):
    """Accept the suggestions of every suspicious span left in the window, by token (the page's key ``a``)."""
    body_is_json()
    _refuse_other_project()
    return annotate_api.api_accept()


@bp.route("/annotate/label", methods=["POST"])
@scoped(bp, *ANNOTATE)
@bp.arguments(LabelSpanSchema)
@bp.response(200, WindowSchema)
def label(payload: dict[str, Any]):
    """Mark a span of the window private with a label (by id, or by name: made when new)."""
    body_is_json()
    _refuse_other_project()
    return annotate_api.api_label()


@bp.route("/annotate/entity", methods=["GET"])
@scoped(bp, *ANNOTATE)
@bp.arguments(EntityQuerySchema, location="query")
@bp.response(200, EntitySchema)
def entity(query: dict[str, Any]):
    """The entity of a span of the window (an opaque reference, its category and mentions in the window only)."""
    _refuse_other_project()
    return annotate_api.api_entity()


@bp.route("/annotate/read", methods=["POST"])
@scoped(bp, *ANNOTATE)
@bp.response(200, WindowSchema)
def read():
    """The next stretch of text the project routes to reading in full (``window: null`` when none is left)."""
    return _checked_window(annotate_api.api_read())


@bp.route("/annotate/open", methods=["POST"])
@scoped(bp, *ADMIN)
@bp.arguments(OpenSchema)
@bp.response(200, WindowSchema)
def open_at(payload: dict[str, Any]):
    """Admins: open a window anywhere in a document (``start`` token, ``size`` tokens), as the admin page does."""
    body_is_json()
    if not current_token().allows_project(_project_of(payload["document_id"])):
        raise ApiError(404, "not_found", gettext("No such document."))
    return annotate_api.api_open()


def _project_of(document_id: int) -> int:
    from psan.store.corpus import documents as store_documents
    row = store_documents.document_with_project(db.get_conn(), document_id)
    return row["project_id"] if row else 0
