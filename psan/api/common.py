"""What every API blueprint shares: JSON errors with stable codes, the token's projects, the scope declaration.

Why JSON errors here and not only in :mod:`psan.web.errors`: flask-smorest's validation errors carry the
invalid fields (``errors``), which a script needs to fix its request; routing errors (404/405 of unknown
paths) reach the app-wide handler, which answers the same ``{"code", "message"}`` under ``/api/v1/``.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg2.errors
from flask import current_app, jsonify, request
from flask_babel import gettext
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser
from werkzeug.datastructures import CombinedMultiDict
from werkzeug.exceptions import HTTPException

from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus import documents as store_documents
from psan.web.access import token
from psan.web.api_auth import current_token, rate_limit_key
from psan.web.errors import API_CODES
from psan.web.extensions import limiter

F = TypeVar("F", bound=Callable)
log = logging.getLogger(__name__)
PREFIX = "/api/v1"
#: every scope (the operations a token of any scope may call)
ANY_SCOPE = ("read", "annotate", "admin")
READ = ("read", "admin")
ANNOTATE = ("annotate", "admin")
ADMIN = ("admin",)


class Parser(FlaskParser):
    """webargs' Flask parser with a ``multipart`` location: the form fields and the files of one request, so an
    upload is one schema (OpenAPI allows one request body per operation)."""

    __location_map__ = {**FlaskParser.__location_map__, "multipart": "load_multipart"}

    def load_multipart(self, req, schema):  # noqa: ANN001, ANN201 - webargs' own signature
        return self._makeproxy(CombinedMultiDict([req.form, req.files]), schema)


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = Parser()
    DEFAULT_LOCATION_CONTENT_TYPE_MAPPING = {**Blueprint.DEFAULT_LOCATION_CONTENT_TYPE_MAPPING,
                                             "multipart": "multipart/form-data"}


class ApiError(HTTPException):
    """An error with its own stable code (``project_not_allowed``, ``not_ready`` …) and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.code = status
        self.api_code = code


def api_blueprint(name: str, description: str) -> ApiBlueprint:
    """A flask-smorest blueprint under ``/api/v1`` whose every error is JSON."""
    bp = ApiBlueprint(f"api_{name}", __name__, url_prefix=PREFIX, description=description)
    bp.before_request(_check_path_ids)
    bp.register_error_handler(HTTPException, _json_error)
    bp.register_error_handler(psycopg2.errors.TransactionRollbackError, _concurrent_change)
    bp.register_error_handler(psycopg2.errors.LockNotAvailable, _concurrent_change)
    bp.register_error_handler(psycopg2.errors.ForeignKeyViolation, _concurrent_change)
    return bp


def _check_path_ids() -> None:
    """A project or document id in the path that the token may not reach is refused before the body is read."""
    args = request.view_args or {}
    if "project_id" in args:
        allowed_project(args["project_id"])
    if "document_id" in args:
        allowed_document(args["document_id"])


def _json_error(exc: HTTPException):
    status = exc.code or 500
    code = getattr(exc, "api_code", None) or API_CODES.get(status, "error")
    data: dict[str, Any] = getattr(exc, "data", None) or {}
    payload: dict[str, Any] = {"code": code, "message": exc.description or exc.name}
    messages = data.get("messages")
    if messages:
        payload["errors"] = messages
        payload["message"] = gettext("The request is not valid: see errors.")
    response = jsonify(payload)
    response.status_code = status
    for key, value in (data.get("headers") or {}).items():
        response.headers[key] = value
    return response


def _concurrent_change(exc: Exception):
    log.warning("API request rolled back after a concurrent change: %s", exc.__class__.__name__)
    db.mark_rollback()
    return _json_error(ApiError(409, "concurrent_change", gettext(
        "Someone changed the same data at the same moment; nothing was saved. Try again.")))


def _api_limit() -> str:
    return current_app.config["API_RATE_LIMIT"]


def scoped(bp: Blueprint, *scopes: str) -> Callable[[F], F]:
    """Declare the token scopes of an API view (:func:`psan.web.access.token`) and write them into the document;
    the view is rate-limited per token (``API_RATE_LIMIT``), as the login page is per address."""
    def decorator(view: F) -> F:
        documented = bp.doc(security=[{"bearerAuth": []}], **{"x-psan-scopes": list(scopes)})(view)
        limited = limiter.limit(_api_limit, key_func=rate_limit_key)(documented)
        return token(*scopes)(limited)
    return decorator


def allowed_project(project_id: int) -> dict[str, Any]:
    """The project if the token may reach it (403 ``project_not_allowed`` otherwise, whether or not it exists)."""
    if not current_token().allows_project(project_id):
        raise ApiError(403, "project_not_allowed", gettext("This API token is not valid for that project."))
    project = store_projects.get_project(project_id, db.get_conn())
    if project is None:
        raise ApiError(404, "not_found", gettext("No such project."))
    return project


def allowed_document(document_id: int) -> dict[str, Any]:
    """The document (with its project id) if the token may reach its project."""
    document = store_documents.document_with_project(db.get_conn(), document_id)
    if document is None or not current_token().allows_project(document["project_id"]):
        # a document of a project the token may not see is answered as missing: its id tells nothing
        raise ApiError(404, "not_found", gettext("No such document."))
    return document


def body_is_json() -> None:
    """A JSON body must be declared as JSON (a form post to a JSON endpoint is refused, not misread)."""
    if request.content_length and not request.is_json:
        raise ApiError(415, "unsupported_media_type", gettext("Send the body as application/json."))
