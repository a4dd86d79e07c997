"""Accounts of people who sign in through the institution's identity provider (OpenID Connect).

Why here and not in the sign-in view: the rules are about accounts, not about the protocol.  A person
is found by the provider's (issuer, subject) — never by e-mail alone, since an e-mail can be re-assigned
or typed into a provider profile by anyone; an existing local account with the same e-mail is linked only
when the admin allows it (``OIDC_LINK_VERIFIED_EMAIL``) and the provider vouches for the address
(``email_verified``).  A new person becomes an annotator without a project until an admin adds them to
one, unless the configured claim maps to a role.  A role the claim gave is taken back when the claim no
longer gives it; a role an admin set is never touched.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from email_validator import EmailNotValidError, validate_email
from flask import current_app
from flask_babel import lazy_gettext

from psan.identity import accounts
from psan.runtime import db
from psan.store.admin import accounts as store_accounts

log = logging.getLogger(__name__)


class SignInRefused(ValueError):
    """The provider vouched for the person but psan does not let them in; the message is shown to them."""


def claim_role(claims: Mapping[str, Any], config: Mapping[str, Any]) -> accounts.Role | None:
    """The role the configured claim gives (``OIDC_ROLE_CLAIM`` holding one of ``OIDC_ADMIN_VALUES``), if any.

    The claim may be one string or a list of them (a ``groups`` claim).
    """
    name = config.get("OIDC_ROLE_CLAIM")
    admin_values = {str(v) for v in config.get("OIDC_ADMIN_VALUES") or []}
    if not name or not admin_values:
        return None
    value = claims.get(name)
    values = {str(v) for v in value} if isinstance(value, (list, tuple)) else {str(value)} if value else set()
    return accounts.Role.ADMIN if values & admin_values else None


def _email(claims: Mapping[str, Any]) -> str:
    raw = claims.get("email")
    if not isinstance(raw, str) or not raw.strip():
        raise SignInRefused(lazy_gettext("The identity provider did not give an e-mail address; ask your admin."))
    try:
        return accounts.normalize_email(validate_email(raw.strip(), check_deliverability=False).normalized)
    except EmailNotValidError as exc:
        raise SignInRefused(lazy_gettext("The identity provider gave an e-mail address psan cannot use.")) from exc


def _name(claims: Mapping[str, Any], email: str) -> str:
    for key in ("name", "preferred_username"):
        value = claims.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()[:200]
    return email.partition("@")[0][:200]


def _apply_role(account: accounts.Account, given: accounts.Role | None, before: str | None, conn) -> None:
    """Give the claim's role; take back only a role an earlier claim gave (never the last active admin)."""
    if given is accounts.Role.ADMIN and not account.is_admin:
        store_accounts.set_role(conn, account.id, accounts.Role.ADMIN.value)
        log.info("account %s became admin through the identity provider's claim", account.id)
    elif given is None and before == accounts.Role.ADMIN.value and account.is_admin:
        try:
            accounts.update(account.id, name=account.name, role=accounts.Role.USER, window_size=account.window_size,
                            active=account.active, conn=conn)
            log.info("account %s is no longer admin: the identity provider's claim no longer says so", account.id)
        except accounts.AccountError:
            log.warning("account %s keeps the admin role the claim no longer gives: it is the last admin", account.id)


def sign_in(claims: Mapping[str, Any], conn=None) -> accounts.Account:
    """The account of the person the provider's ID token names (created or linked at the first sign-in).

    Raises :class:`SignInRefused` for a deactivated account, a missing or unusable e-mail, or an e-mail
    that a local account already uses and may not be linked by.
    """
    conn = conn or db.get_conn()
    config = current_app.config
    issuer, subject = str(claims.get("iss") or ""), str(claims.get("sub") or "")
    if not issuer or not subject or len(issuer) > 1000 or len(subject) > 255:
        raise SignInRefused(lazy_gettext("The identity provider's answer names nobody."))
    given = claim_role(claims, config)
    link = store_accounts.identity(conn, issuer, subject)
    if link is not None:
        account = accounts.get(link["account_id"], conn)
        if account is None or not account.active:
            raise SignInRefused(lazy_gettext("This account is deactivated; ask your admin."))
        _apply_role(account, given, link["claim_role"], conn)
        store_accounts.record_identity_login(conn, issuer, subject, given.value if given else None)
        return accounts.get(account.id, conn)
    email = _email(claims)
    account = accounts.get_by_email(email, conn)
    if account is not None:
        if not (config.get("OIDC_LINK_VERIFIED_EMAIL") and claims.get("email_verified") is True):
            raise SignInRefused(lazy_gettext("An account with this e-mail already exists in psan; ask your admin "
                                             "to link it to your institution's sign-in."))
        if not account.active:
            raise SignInRefused(lazy_gettext("This account is deactivated; ask your admin."))
        log.info("account %s linked to the identity provider by its verified e-mail", account.id)
    else:
        account = accounts.create(email, _name(claims, email), given or accounts.Role.USER, None, conn=conn)
        log.info("account %s created at its first sign-in through the identity provider", account.id)
    store_accounts.link_identity(conn, issuer, subject, account.id, given.value if given else None)
    _apply_role(account, given, None, conn)
    return accounts.get(account.id, conn)


def external_account_ids(conn=None) -> set[int]:
    """The accounts that sign in through the identity provider (the Users page marks them)."""
    return store_accounts.with_identity(conn or db.get_conn())


def signs_in_externally(account_id: int, conn=None) -> bool:
    """Whether the account signs in through the identity provider (its password is the provider's business)."""
    return store_accounts.has_identity(conn or db.get_conn(), account_id)
