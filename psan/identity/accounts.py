"""Accounts: loading, creation and the rules that keep at least one active admin."""
from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass
from typing import Any

import psycopg2
from flask import current_app
from flask_babel import lazy_gettext
from flask_login import LoginManager, UserMixin

from psan.identity.passwords import hash_password
from psan.runtime import db
from psan.store.admin import accounts as store_accounts
from psan.store.shared.names import clean_name


class Role(enum.StrEnum):
    ADMIN = "ADMIN"
    USER = "USER"


class AccountError(ValueError):
    """A requested account change is not allowed; the message is shown to the admin."""


@dataclass
class Account(UserMixin):
    id: int
    email: str
    name: str
    role: Role
    window_size: int
    active: bool
    password_hash: str | None = None
    session_version: int = 0

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN

    @property
    def is_active(self) -> bool:  # Flask-Login refuses inactive accounts
        return self.active

    def get_id(self) -> str:
        # the session is bound to the password (changing or resetting it logs out every other session)
        # and to the session version (logout and deactivation end every saved session server-side)
        return f"{self.id}:{password_fingerprint(self.password_hash)}:{self.session_version}"

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Account:
        return cls(id=row["id"], email=row["email"], name=row["name"], role=Role(row["role"]),
                   window_size=row["window_size"], active=row["active"], password_hash=row.get("password_hash"),
                   session_version=row.get("session_version") or 0)


def password_fingerprint(password_hash: str | None) -> str:
    """A short digest of the password hash, used to bind sessions and reset tokens to the current password."""
    return hashlib.sha256((password_hash or "").encode()).hexdigest()[:16]


def normalize_email(email: str) -> str:
    return email.strip().lower()


def _conn(conn):
    return conn or db.get_conn()


def get(account_id: int, conn=None) -> Account | None:
    row = store_accounts.get(_conn(conn), account_id)
    return Account.from_row(row) if row else None


def get_by_email(email: str, conn=None) -> Account | None:
    row = store_accounts.get_by_email(_conn(conn), normalize_email(email))
    return Account.from_row(row) if row else None


def list_all(conn=None) -> list[Account]:
    return [Account.from_row(r) for r in store_accounts.list_all(_conn(conn))]


def count(conn=None) -> int:
    return store_accounts.count(_conn(conn))


def create(email: str, name: str, role: Role, password: str | None, window_size: int | None = None,
           conn=None) -> Account:
    """Create an account; a ``None`` password leaves it without one until the invitation link is used."""
    window = window_size or current_app.config["DEFAULT_WINDOW_SIZE"]
    try:
        row = store_accounts.insert(_conn(conn), normalize_email(email), clean_name(name), role.value,
                                    hash_password(password) if password else None, window)
    except psycopg2.errors.UniqueViolation as exc:
        raise AccountError(lazy_gettext("An account with this e-mail already exists.")) from exc
    return Account.from_row(row)


def set_password(account_id: int, password: str, conn=None) -> None:
    store_accounts.set_password_hash(_conn(conn), account_id, hash_password(password))


def _ensure_not_last_admin(account_id: int, conn) -> None:
    admins = store_accounts.lock_active_admins(conn)
    if admins == [account_id]:
        raise AccountError(lazy_gettext("This is the last active admin: create or activate another admin first."))


def update(account_id: int, *, name: str, role: Role, window_size: int, active: bool, conn=None) -> None:
    conn = _conn(conn)
    current = get(account_id, conn)
    if current is None:
        raise AccountError(lazy_gettext("No such account."))
    if current.is_admin and current.active and (role is not Role.ADMIN or not active):
        _ensure_not_last_admin(account_id, conn)
    store_accounts.update(conn, account_id, name=clean_name(name), role=role.value, window_size=window_size,
                          active=active)


def delete(account_id: int, conn=None) -> None:
    conn = _conn(conn)
    current = get(account_id, conn)
    if current is None:
        raise AccountError(lazy_gettext("No such account."))
    if current.is_admin and current.active:
        _ensure_not_last_admin(account_id, conn)
    store_accounts.delete(conn, account_id)


def end_sessions(account_id: int, conn=None) -> None:
    """Invalidate every session and remember cookie of the account (server-side logout)."""
    store_accounts.bump_session_version(_conn(conn), account_id)


def record_login(account_id: int) -> None:
    store_accounts.record_login(db.get_conn(), account_id)


login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message_category = "info"
login_manager.session_protection = "basic"


@login_manager.user_loader
def _load_user(session_id: str) -> Account | None:
    account_id, _, rest = session_id.partition(":")
    fingerprint, _, version = rest.partition(":")
    try:
        account = get(int(account_id))
    except (TypeError, ValueError):
        return None
    if account is None or not account.active or fingerprint != password_fingerprint(account.password_hash) \
            or version != str(account.session_version):
        return None
    return account
