"""The annotation page; everything dynamic comes from the JSON API (no page reloads)."""
from __future__ import annotations

from flask import abort, render_template, request

from psan.annotate.blueprint import bp
from psan.annotate.messages import js_messages
from psan.annotate.validate import MAX_INT
from psan.runtime import db
from psan.store.admin.labels import CATEGORIES
from psan.store.annotation.windows import MAX_ADMIN_WINDOW, document_for_admin
from psan.web.access import admin, user


@bp.route("/")
@user
def index():
    return render_template("annotate/index.html", open_document=None, categories=CATEGORIES, messages=js_messages())


@bp.route("/document/<int:document_id>")
@admin
def document(document_id: int):
    """An admin opens any document at any token (``?start=``) with any window size (``?size=``).

    The GET only renders the page; the page then POSTs ``/annotate/api/open`` (with the CSRF token)
    to move the admin's window, so following a link never changes state by itself.
    """
    if document_id > MAX_INT or document_for_admin(db.get_conn(), document_id) is None:
        abort(404)
    start = request.args.get("start", default=0, type=int)
    size = request.args.get("size", default=0, type=int)
    return render_template("annotate/index.html", categories=CATEGORIES, messages=js_messages(), open_document={
        "id": document_id, "start": max(0, min(start, MAX_INT)), "size": max(0, min(size, MAX_ADMIN_WINDOW)),
        "exact": request.args.get("exact") == "1"})
