"""Sending e-mail over SMTP with the settings from the config (smtplib; STARTTLS or SSL optional)."""
from __future__ import annotations

import logging
import smtplib
import ssl
from email.message import EmailMessage

from flask import current_app

log = logging.getLogger(__name__)


class MailNotConfigured(RuntimeError):
    """SMTP_HOST is unset."""


def is_configured() -> bool:
    return bool(current_app.config.get("SMTP_HOST"))


def send(to: str, subject: str, body: str) -> None:
    """Send a plain-text message; raises on SMTP errors so the caller can tell the user."""
    cfg = current_app.config
    if not cfg.get("SMTP_HOST"):
        raise MailNotConfigured("SMTP_HOST is not configured")
    msg = EmailMessage()
    msg["From"] = cfg["MAIL_FROM"]
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    smtp_class = smtplib.SMTP_SSL if cfg["SMTP_SSL"] else smtplib.SMTP
    kwargs = {"context": ssl.create_default_context()} if cfg["SMTP_SSL"] else {}
    with smtp_class(cfg["SMTP_HOST"], int(cfg["SMTP_PORT"]), timeout=cfg["SMTP_TIMEOUT"], **kwargs) as smtp:
        if cfg["SMTP_STARTTLS"] and not cfg["SMTP_SSL"]:
            smtp.starttls(context=ssl.create_default_context())
        if cfg.get("SMTP_USERNAME"):
            smtp.login(cfg["SMTP_USERNAME"], cfg["SMTP_PASSWORD"] or "")
        smtp.send_message(msg)
    log.info("sent %r to %s", subject, to)
