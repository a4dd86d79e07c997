"""Password reset and invitation links: built here, e-mailed when SMTP is configured.

Why not in the views: the login pages (forgot password) and the account admin pages (invitation
of a new account) both send them.
"""
from __future__ import annotations

import logging

from flask import current_app, url_for

from psan.identity import accounts, mail, signing

log = logging.getLogger(__name__)


def reset_link(account: accounts.Account) -> str:
    return current_app.config["SERVER_URL"].rstrip("/") + url_for("auth.reset_password",
                                                                  token=signing.make_reset_token(account))


def send_reset_link(account: accounts.Account, subject: str = "psan: set your password") -> bool:
    """E-mail a reset/invitation link; returns False when mail is not configured or fails."""
    link = reset_link(account)
    minutes = current_app.config["PASSWORD_RESET_MAX_AGE"] // 60
    body = (f"Hello {account.name or account.email},\n\nopen this link to set your psan password "
            f"(valid for {minutes} minutes, usable once):\n\n{link}\n\n"
            "If you did not ask for it, ignore this message.\n")
    try:
        mail.send(account.email, subject, body)
        return True
    except mail.MailNotConfigured:
        log.warning("password reset requested for account %s but SMTP is not configured", account.id)
    except OSError:
        log.exception("could not send the reset e-mail for account %s", account.id)
    return False
