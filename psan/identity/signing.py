"""Signed, time-limited tokens (itsdangerous) for password resets and the first-admin registration.

A reset token carries a fingerprint of the account's current password hash, so it stops working
as soon as the password changes: that makes it single-use without a server-side token table.
The registration token carries a nonce stored in ``instance_setting``; it is only honoured while
the instance has no account at all.
"""
from __future__ import annotations

import secrets

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from psan.identity import accounts
from psan.runtime import db
from psan.store.admin import instance_settings

RESET_SALT = "psan.password-reset"
REGISTRATION_SALT = "psan.first-admin"
REGISTRATION_KEY = "first_admin_nonce"


class InvalidToken(ValueError):
    """The link is invalid, expired or already used."""


def _serializer(salt: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=salt)


def make_reset_token(account: accounts.Account) -> str:
    return _serializer(RESET_SALT).dumps({"a": account.id, "p": accounts.password_fingerprint(account.password_hash)})


def account_for_reset_token(token: str, max_age: int | None = None) -> accounts.Account:
    max_age = max_age if max_age is not None else current_app.config["PASSWORD_RESET_MAX_AGE"]
    try:
        data = _serializer(RESET_SALT).loads(token, max_age=max_age)
    except SignatureExpired as exc:
        raise InvalidToken("This link has expired. Ask for a new one.") from exc
    except BadSignature as exc:
        raise InvalidToken("This link is invalid.") from exc
    account = accounts.get(int(data.get("a", 0)))
    if account is None or not account.active or data.get("p") != accounts.password_fingerprint(account.password_hash):
        raise InvalidToken("This link is invalid or has already been used.")
    return account


def registration_token(conn=None) -> str | None:
    """The first-admin registration token, or ``None`` once an account exists."""
    conn = conn or db.get_conn()
    if accounts.count(conn) > 0:
        return None
    nonce = instance_settings.get(conn, REGISTRATION_KEY)
    if nonce is None:
        nonce = instance_settings.add(conn, REGISTRATION_KEY, secrets.token_urlsafe(16))
    return _serializer(REGISTRATION_SALT).dumps({"n": nonce})


def check_registration_token(token: str, conn=None) -> None:
    """Raise :class:`InvalidToken` unless the token is valid and the instance is still empty."""
    try:
        data = _serializer(REGISTRATION_SALT).loads(token, max_age=current_app.config["REGISTRATION_MAX_AGE"])
    except SignatureExpired as exc:
        raise InvalidToken("This registration link has expired; print a new one with `flask --app psan "
                           "registration-link`.") from exc
    except BadSignature as exc:
        raise InvalidToken("This registration link is invalid.") from exc
    conn = conn or db.get_conn()
    # lock the row so that two simultaneous registrations cannot both create an admin
    nonce = instance_settings.get(conn, REGISTRATION_KEY, lock=True)
    if nonce is None or not secrets.compare_digest(nonce, str(data.get("n", ""))) or accounts.count(conn) > 0:
        raise InvalidToken("This registration link has already been used.")


def consume_registration(conn=None) -> None:
    instance_settings.delete(conn or db.get_conn(), REGISTRATION_KEY)
