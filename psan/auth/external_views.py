"""Sign-in through the institution's identity provider (OpenID Connect, Authlib's Flask client).

The flow is the authorization code flow: psan redirects to the provider with a state and a nonce kept in
the session, the provider sends the person back with a code, psan exchanges it for an ID token whose
signature, issuer, audience, expiry and nonce Authlib checks.  A state that is not this session's (a forged
or replayed callback) is refused.  The account rules are in :mod:`psan.identity.external`; logout and
deactivation work as for local accounts (the session is bound to the account's session version).
"""
from __future__ import annotations

import logging
from typing import Any

from authlib.integrations.flask_client import OAuth
from flask import abort, current_app, flash, redirect, session, url_for
from flask_babel import gettext
from flask_login import current_user, login_user

from psan.auth.blueprint import bp
from psan.identity import accounts, external
from psan.runtime import db
from psan.web.access import public
from psan.web.extensions import limiter

log = logging.getLogger(__name__)

_EXTENSION = "psan.oidc"


def discovery_url(config: Any) -> str | None:
    """The provider's discovery document: configured, or derived from the issuer."""
    if config.get("OIDC_DISCOVERY_URL"):
        return str(config["OIDC_DISCOVERY_URL"])
    issuer = config.get("OIDC_ISSUER")
    return str(issuer).rstrip("/") + "/.well-known/openid-configuration" if issuer else None


def configured() -> bool:
    """Whether the login page offers the provider (a client id and where to discover the provider)."""
    return bool(current_app.config.get("OIDC_CLIENT_ID") and discovery_url(current_app.config))


def _client():
    """This app's Authlib client, registered at first use (the provider's metadata is fetched lazily)."""
    app = current_app._get_current_object()  # noqa: SLF001 - Flask's documented way to the app object
    oauth = app.extensions.get(_EXTENSION)
    if oauth is None:
        oauth = OAuth(app)
        oauth.register("idp", client_id=app.config["OIDC_CLIENT_ID"],
                       client_secret=app.config.get("OIDC_CLIENT_SECRET"),
                       server_metadata_url=discovery_url(app.config),
                       client_kwargs={"scope": app.config.get("OIDC_SCOPE") or "openid email profile",
                                      "timeout": float(app.config.get("OIDC_TIMEOUT") or 10)})
        app.extensions[_EXTENSION] = oauth
    return oauth.create_client("idp")


def _redirect_uri() -> str:
    return current_app.config["SERVER_URL"].rstrip("/") + url_for("auth.oidc_callback")


def _limit() -> str:
    return current_app.config["LOGIN_RATE_LIMIT"]


@bp.app_context_processor
def _sign_in_button() -> dict[str, Any]:
    label = current_app.config.get("OIDC_BUTTON_LABEL") or gettext("Sign in with your institution")
    return {"oidc_sign_in": label if configured() else None}


def _with_userinfo(token: dict, claims: dict) -> dict:
    """The ID token's claims completed by the provider's userinfo endpoint (the ID token's own claims win)."""
    try:
        extra = dict(_client().userinfo(token=token))
    except Exception:  # noqa: BLE001 - without userinfo the sign-in goes on with what the ID token says
        log.warning("the identity provider's userinfo endpoint did not answer", exc_info=True)
        return claims
    return {**extra, **claims} if extra.get("sub") == claims.get("sub") else claims


@bp.route("/oidc/login")
@limiter.limit(_limit)
@public
def oidc_login():
    if not configured():
        abort(404)
    if current_user.is_authenticated:
        return redirect(url_for("main.index"))
    try:
        return _client().authorize_redirect(_redirect_uri())
    except Exception:  # noqa: BLE001 - the provider is down or misconfigured: say so, never a 500
        log.exception("could not start the sign-in at the identity provider")
        flash(gettext("The identity provider cannot be reached; try again later or ask your admin."), "danger")
        return redirect(url_for("auth.login"))


@bp.route("/oidc/callback")
@limiter.limit(_limit)
@public
def oidc_callback():
    if not configured():
        abort(404)
    try:
        token = _client().authorize_access_token()
    except Exception:  # noqa: BLE001 - a forged state, a refused code or an invalid ID token: refused, never a 500
        log.warning("sign-in through the identity provider refused", exc_info=True)
        flash(gettext("The sign-in through your institution failed; please try again."), "danger")
        return redirect(url_for("auth.login"))
    claims = token.get("userinfo")
    if not claims:
        flash(gettext("The sign-in through your institution failed; please try again."), "danger")
        return redirect(url_for("auth.login"))
    claims = dict(claims)
    if not claims.get("email"):  # some providers put the e-mail (and groups) only into their userinfo answer
        claims = _with_userinfo(token, claims)
    try:
        account = external.sign_in(claims)
    except (external.SignInRefused, accounts.AccountError) as exc:
        db.mark_rollback()
        flash(str(exc), "danger")
        return redirect(url_for("auth.login"))
    session.pop("csrf_token", None)  # a token seen before the login (e.g. planted) is worthless after it
    login_user(account)
    accounts.record_login(account.id)
    return redirect(url_for("main.index"))
