"""Bearer-token authentication of the JSON API (``/api/v1/``), called by :func:`psan.web.access.enforce_access`.

Why no session cookie and no CSRF token: an API view accepts only ``Authorization: Bearer psan_…``, which a
browser never sends by itself, so a forged cross-site request carries no credentials and the CSRF check has
nothing to protect.  The token's owner becomes ``current_user`` for this request only (nothing is written to
the session), so the views and store functions the pages use enforce the same roles, projects and windows.
Every authenticated use is logged (who, when, which endpoint) on a connection of its own, so a request that
fails later still leaves its trace.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence

from flask import current_app, g, jsonify, request
from flask_babel import gettext

from psan.identity import accounts
from psan.identity.api_tokens import Token, lookup
from psan.runtime import db
from psan.store.admin import api_tokens as store_tokens


def error(status: int, code: str, message: str):
    """The API's error answer: a stable ``code`` a script can test and a ``message`` for people."""
    response = jsonify(code=code, message=message)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="psan"'
    return response


def presented_secret() -> str | None:
    """The bearer secret of the request, or ``None`` when there is no Authorization header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, secret = header.strip().partition(" ")
    return secret.strip() if scheme.lower() == "bearer" else ""


def rate_limit_key() -> str:
    """Flask-Limiter's key of an API request: the token (by a digest of its secret), else the client address."""
    secret = presented_secret()
    if secret:
        return "token:" + hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()[:32]
    return "addr:" + (request.remote_addr or "")


def current_token() -> Token:
    """The token of the request (set by :func:`authenticate`)."""
    return g.api_token


_WHY = {
    "invalid": ("token_invalid", lambda: gettext("The API token is not valid.")),
    "revoked": ("token_revoked", lambda: gettext("The API token was revoked.")),
    "inactive": ("token_inactive", lambda: gettext("The API token's account is deactivated or lost its role.")),
}


def authenticate(scopes: Sequence[str]):
    """``None`` when the request carries a live token of one of ``scopes``; else the error answer."""
    secret = presented_secret()
    if secret is None:
        return error(401, "token_required", gettext("Send an API token: Authorization: Bearer psan_…"))
    token, why = lookup(secret) if secret else (None, "invalid")
    if token is None:
        code, message = _WHY[why]
        return error(401, code, message())
    account = accounts.get(token.account_id)
    if account is None or not account.active:
        return error(401, "token_inactive", _WHY["inactive"][1]())
    _record_use(token)
    if token.scope not in scopes:
        return error(403, "scope_insufficient", gettext("This API token's scope (%(scope)s) does not allow this "
                                                        "call; it needs: %(needed)s.", scope=token.scope,
                                                        needed=", ".join(scopes)))
    g.api_token = token
    g._login_user = account  # Flask-Login's current_user for this request only; no session is touched
    return None


def _record_use(token: Token) -> None:
    """Log the use before the view runs (fails closed: no log, no call - the database error answers 503)."""
    with db.transaction(current_app) as conn:
        store_tokens.record_use(conn, token.id, token.account_id, request.method, request.endpoint or "",
                                request.path)
