"""The navbar language switcher: ``POST /lang/<code>`` (CSRF-protected) stores the choice in the session."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, request, session, url_for

from psan.web.access import public
from psan.web.i18n import SESSION_KEY, languages

bp = Blueprint("i18n", __name__)


def _same_site(target: str | None) -> str | None:
    """``target`` if it is a same-site relative path (no open redirect), else None."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    if any(ord(c) < 32 or ord(c) == 127 for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


@bp.route("/lang/<code>", methods=["POST"])
@public
def set_language(code: str):
    if code not in languages():
        abort(404)
    session[SESSION_KEY] = code
    return redirect(_same_site(request.form.get("next")) or url_for("main.index"))
