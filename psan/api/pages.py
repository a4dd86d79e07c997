"""Admin pages of the API: personal tokens (create, list, revoke, use log) and the API's documentation.

Why the secret appears only in the answer to the create form: only its hash is stored, so it cannot be shown
again; the page is ``no-store`` like every page (:mod:`psan.web.security`).  The docs page renders the OpenAPI
document on the server (no script, no CDN), so it works under the strict CSP.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, url_for
from flask_babel import gettext
from flask_login import current_user

from psan.api.forms import TokenForm
from psan.api.meta import openapi_document
from psan.identity import api_tokens
from psan.runtime import db
from psan.store.admin import accounts as store_accounts
from psan.store.admin import api_tokens as store_tokens
from psan.store.admin import projects as store_projects
from psan.web.access import admin

bp = Blueprint("api_pages", __name__)


def _form() -> TokenForm:
    form = TokenForm()
    conn = db.get_conn()
    form.account.choices = [(a["id"], f"{a['name']} <{a['email']}> ({a['role']})" if a["name"] else a["email"])
                            for a in store_accounts.list_all(conn) if a["active"]]
    form.projects.choices = [(p["id"], p["name"]) for p in store_projects.list_projects(conn)]
    return form


def _render(form: TokenForm, secret: str | None = None, status: int = 200):
    return render_template("api/tokens.html", form=form, tokens=store_tokens.list_all(db.get_conn()),
                           secret=secret), status


@bp.route("/tokens/", methods=["GET", "POST"])
@admin
def tokens():
    """The token list and the form that makes one; the new secret is shown in this answer only."""
    form = _form()
    if not form.validate_on_submit():
        return _render(form, status=400 if form.is_submitted() else 200)
    account = store_accounts.get(db.get_conn(), form.account.data)
    if account is None or not account["active"]:
        form.account.errors.append(gettext("Choose an active account."))
        return _render(form, status=400)
    try:
        _, secret = api_tokens.create(account, form.name.data, api_tokens.Scope(form.scope.data),
                                      bool(form.all_projects.data), form.projects.data or [], current_user.id)
    except api_tokens.TokenError as exc:
        form.name.errors.append(str(exc))
        db.mark_rollback()
        return _render(form, status=400)
    flash(gettext("Token created. Copy it now: it is not shown again."), "success")
    return _render(_form(), secret=secret)


@bp.route("/tokens/<int:token_id>/revoke", methods=["POST"])
@admin
def revoke(token_id: int):
    if not store_tokens.revoke(db.get_conn(), token_id):
        abort(404)
    flash(gettext("Token revoked."), "success")
    return redirect(url_for("api_pages.tokens"))


@bp.route("/tokens/<int:token_id>")
@admin
def token_uses(token_id: int):
    """Who used the token, when, and which endpoint (newest first)."""
    conn = db.get_conn()
    token = store_tokens.get(conn, token_id) or abort(404)
    return render_template("api/token_uses.html", token=token, uses=store_tokens.uses(conn, token_id))


def _operations(spec: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for path, item in spec.get("paths", {}).items():
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            body = op.get("requestBody", {}).get("content", {})
            out.append({"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                        "description": op.get("description", ""), "tags": op.get("tags", []),
                        "scopes": op.get("x-psan-scopes", []),
                        "parameters": [p.get("name") for p in op.get("parameters", []) if isinstance(p, dict)],
                        "body": ", ".join(body), "responses": sorted(op.get("responses", {}))})
    return out


@bp.route("/api-docs/")
@admin
def docs():
    """The operations of ``/api/v1/`` with their scopes, parameters and schemas, from the OpenAPI document."""
    spec = openapi_document()
    schemas = {name: sorted((s.get("properties") or {}).items())
               for name, s in spec.get("components", {}).get("schemas", {}).items()}
    return render_template("api/docs.html", spec=spec, operations=_operations(spec), schemas=schemas)


@bp.route("/api-docs/openapi.json")
@admin
def docs_json():
    """The OpenAPI document for an admin's browser (the API itself takes only tokens)."""
    return jsonify(openapi_document())
