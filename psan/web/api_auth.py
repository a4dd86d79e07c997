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

from flask import g, jsonify, request
from flask_babel import gettext

from psan.identity import accounts
from psan.identity.api_tokens import Token, lookup
from psan.runtime import db


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
    """``None`` when the request carries a live token of one of ``scopes``; else the error answer.

    The lookup logs the use in the same statement, committed by itself before the view runs (so a request
    that fails later still leaves its trace); the request's own transaction starts after it.
    """
    secret = presented_secret()
    if secret is None:
        return error(401, "token_required", gettext("Send an API token: Authorization: Bearer psan_…"))
    token, row, why = None, None, "invalid"
    if secret:
        conn = db.get_conn()
        saved_before = conn.committed
        with db.single_statements(conn):
            token, row, why = lookup(secret, request.method, request.endpoint or "", request.path, conn)
        conn.committed = saved_before  # only the use log was committed: nothing of the request is saved yet
    if token is None or row is None:
        code, message = _WHY[why]
        return error(401, code, message())
    if token.scope not in scopes:
        return error(403, "scope_insufficient", gettext("This API token's scope (%(scope)s) does not allow this "
                                                        "call; it needs: %(needed)s.", scope=token.scope,
                                                        needed=", ".join(scopes)))
    g.api_token = token
    g._login_user = accounts.Account.from_row(row)  # current_user for this request only; no session is touched
    return None
