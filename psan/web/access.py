"""Server-side role enforcement for every endpoint, secure by default.

Each view declares who may call it with :func:`public`, :func:`user` or :func:`admin`; the JSON API's views
with :func:`token` and the token scopes they accept (checked by :mod:`psan.web.api_auth`).  A
``before_request`` hook checks the declaration of whatever endpoint matched, so a view that
forgets to declare anything is admin-only rather than open.  Tests walk ``app.url_map`` to check
that every route, present and future, is covered.
"""
from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, abort, current_app, jsonify, redirect, request, url_for
from flask_login import current_user

F = TypeVar("F", bound=Callable)


class Access(enum.StrEnum):
    PUBLIC = "public"
    USER = "user"    # any logged-in, active account
    ADMIN = "admin"
    # the JSON API: a personal API token of one of the view's scopes (psan.web.api_auth); a level, not a secret
    TOKEN = "token"  # noqa: S105  # nosec B105


ACCESS_ATTR = "psan_access"
SCOPES_ATTR = "psan_token_scopes"


def _declare(level: Access) -> Callable[[F], F]:
    def decorator(view: F) -> F:
        setattr(view, ACCESS_ATTR, level)
        return view
    return decorator


public = _declare(Access.PUBLIC)
user = _declare(Access.USER)
admin = _declare(Access.ADMIN)


def token(*scopes: str) -> Callable[[F], F]:
    """An API view: callable only with a bearer token of one of ``scopes`` (never with a session cookie)."""
    def decorator(view: F) -> F:
        setattr(view, ACCESS_ATTR, Access.TOKEN)
        setattr(view, SCOPES_ATTR, tuple(scopes))
        return view
    return decorator


def scopes_of(endpoint: str | None, app: Flask | None = None) -> tuple[str, ...]:
    """The token scopes an API endpoint accepts (empty for every other endpoint)."""
    view = (app or current_app).view_functions.get(endpoint or "")
    return tuple(getattr(view, SCOPES_ATTR, ()))


def access_of(endpoint: str | None, app: Flask | None = None) -> Access:
    """Declared level of an endpoint; undeclared endpoints are admin-only.  Static files are public."""
    app = app or current_app
    if endpoint is None:
        return Access.PUBLIC  # 404/405 are produced by routing, nothing to protect
    if endpoint == "static" or endpoint.endswith(".static"):
        return Access.PUBLIC
    view = app.view_functions.get(endpoint)
    return getattr(view, ACCESS_ATTR, Access.ADMIN)


def _wants_json() -> bool:
    return request.is_json or request.accept_mimetypes.best == "application/json" or request.path.startswith("/api/")


def enforce_access() -> None:
    level = access_of(request.endpoint)
    if level is Access.PUBLIC:
        return None
    if level is Access.TOKEN:
        from psan.web.api_auth import authenticate
        return authenticate(scopes_of(request.endpoint))
    if not current_user.is_authenticated:
        if _wants_json():
            return jsonify(error="login required"), 401
        return redirect(url_for("auth.login", next=request.full_path if request.method == "GET" else None))
    if level is Access.ADMIN and not current_user.is_admin:
        abort(403)
    return None


def init_app(app: Flask) -> None:
    app.before_request(enforce_access)
