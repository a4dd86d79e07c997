"""Personal API tokens: made by an admin, shown once, stored as a hash, checked on every API call.

Why SHA-256 and not a password hash: the secret is 256 random bits (``secrets.token_urlsafe(32)``), so a fast
hash loses nothing against guessing and lets every request find its token by an index lookup.  The ``psan_``
prefix makes a leaked token recognisable to secret scanners.  A token acts as its owner's account, never more:
``read`` and ``admin`` tokens need an admin owner (the pages they mirror are admin pages), an ``annotate`` token
works through its owner's own annotation window, exactly as the annotate page does.
"""
from __future__ import annotations

import enum
import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext

from psan.runtime import db
from psan.store.admin import api_tokens as store_tokens

PREFIX = "psan_"
#: characters of the secret kept in clear (after the prefix) so an admin can tell tokens apart
SHOWN_CHARS = 6
MAX_TOKEN_LENGTH = 200


class Scope(enum.StrEnum):
    READ = "read"
    ANNOTATE = "annotate"
    ADMIN = "admin"


#: scopes an account of each role may hold
ROLE_SCOPES = {"ADMIN": (Scope.READ, Scope.ANNOTATE, Scope.ADMIN), "USER": (Scope.ANNOTATE,)}


class TokenError(ValueError):
    """A token cannot be made as asked; the message is shown to the admin."""


@dataclass(frozen=True, slots=True)
class Token:
    """A live token as a request sees it (never its secret)."""

    id: int
    account_id: int
    name: str
    scope: Scope
    all_projects: bool
    project_ids: frozenset[int]
    owner_is_admin: bool

    def allows_project(self, project_id: int) -> bool:
        return self.all_projects or project_id in self.project_ids



def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create(account: dict[str, Any], name: str, scope: Scope, all_projects: bool, project_ids: Iterable[int],
           created_by: int | None, conn=None) -> tuple[int, str]:
    """Make a token for ``account`` (a row of psan.store.admin.accounts); (its id, the secret to show once)."""
    name = " ".join((name or "").split())
    if not 1 <= len(name) <= 200:
        raise TokenError(lazy_gettext("Give the token a name (at most 200 characters)."))
    if scope not in ROLE_SCOPES.get(account["role"], ()):
        raise TokenError(lazy_gettext("An annotator's token can only annotate."))
    projects = sorted(set(project_ids))
    if not all_projects and not projects:
        raise TokenError(lazy_gettext("Choose the token's projects (or all projects)."))
    secret = PREFIX + secrets.token_urlsafe(32)
    token_id = store_tokens.create(conn or db.get_conn(), account["id"], name, scope.value, all_projects,
                                   projects, hash_secret(secret), secret[:len(PREFIX) + SHOWN_CHARS], created_by)
    return token_id, secret


def lookup(secret: str, method: str, endpoint: str, path: str,
           conn=None) -> tuple[Token | None, dict[str, Any] | None, str]:
    """The live token of a presented secret and its owner's account row, or ``(None, None, why)``: ``invalid``,
    ``revoked`` or ``inactive``.  Every use of an existing token is logged, refused ones too.

    A token stops working when it is revoked, when its owner is deactivated, and (for read and admin scopes)
    when its owner is no longer an admin.
    """
    if not secret.startswith(PREFIX) or len(secret) > MAX_TOKEN_LENGTH:
        return None, None, "invalid"
    row = store_tokens.use(conn or db.get_conn(), hash_secret(secret), method, endpoint, path)
    if row is None:
        return None, None, "invalid"
    account = row["account"]
    if row["revoked_at"] is not None:
        return None, None, "revoked"
    if not account["active"] or Scope(row["scope"]) not in ROLE_SCOPES.get(account["role"], ()):
        return None, None, "inactive"
    return Token(id=row["id"], account_id=row["account_id"], name=row["name"], scope=Scope(row["scope"]),
                 all_projects=row["all_projects"], project_ids=frozenset(row["project_ids"] or ()),
                 owner_is_admin=account["role"] == "ADMIN"), account, ""
