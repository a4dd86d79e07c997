"""Audit export of one document: every ``decision_log`` row with author, time, span text and rule.

Why admin only, ``no-store`` and an attachment: the export joins the log with the document text
(the span an annotator decided is usually a name), so it is personal data like the
pseudonymization key.  The span text is cut out of the document at export time
(:mod:`psan.store.corpus.document_history`), so it disappears with the document.

CSV cells are made injection-safe by :func:`psan.web.csvio.csv_response` (``= + - @`` …
prefixed with ``'``).  Times are ISO 8601 in UTC.
"""
from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from flask import Response, abort

from psan.documents.blueprint import bp
from psan.runtime import db
from psan.store.corpus import document_history as store_history
from psan.store.corpus import documents as store_documents
from psan.web.access import admin
from psan.web.csvio import csv_response
from psan.web.downloads import mark_private
from psan.web.ids import MAX_ID

#: CSV columns, in order (the JSON entries use the same keys)
COLUMNS = ("time", "author_name", "author_email", "action", "decision", "label", "first_token", "end_token",
           "text", "rule_id", "rule_type", "rule_condition", "rule_confidence", "detail")

def _utc(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _document_or_404(document_id: int) -> dict[str, Any]:
    if document_id > MAX_ID:
        abort(404)
    return store_documents.document_with_project(db.get_conn(), document_id) or abort(404)


def document_history(conn, document_id: int) -> list[dict[str, Any]]:
    """The document's decision log, oldest first, as plain JSON-ready entries (keys: :data:`COLUMNS`)."""
    entries = []
    for r in store_history.history_rows(conn, document_id):
        entries.append({
            "time": _utc(r["created_at"]), "author_name": r["author_name"], "author_email": r["author_email"],
            "action": r["action"], "decision": r["decision"], "label": r["label_name"],
            "first_token": r["first_token"], "end_token": r["end_token"], "text": r["text"],
            "rule_id": r["rule_id"], "rule_type": r["rule_type"], "rule_condition": r["rule_condition"],
            "rule_confidence": r["rule_confidence"], "detail": r["detail"] or {},
        })
    return entries


def _no_store(response: Response) -> Response:
    return mark_private(response)


@bp.route("/<int:document_id>/history.csv")
@admin
def history_csv(document_id: int) -> Response:
    """Every decision on the document as CSV (UTF-8 with BOM, injection-safe cells)."""
    document = _document_or_404(document_id)
    entries = document_history(db.get_conn(), document["id"])
    rows = ([*(e[c] for c in COLUMNS[:-1]), json.dumps(e["detail"], ensure_ascii=False, sort_keys=True)]
            for e in entries)
    return _no_store(csv_response(f"document-{document['id']}-history.csv", COLUMNS, rows))


@bp.route("/<int:document_id>/history.json")
@admin
def history_json(document_id: int) -> Response:
    """Every decision on the document as JSON: ``{"document": {…}, "exported_at", "entries": […]}``."""
    document = _document_or_404(document_id)
    body = {
        "document": {"id": document["id"], "name": document["name"], "project_id": document["project_id"],
                     "project_name": document["project_name"]},
        "exported_at": _utc(datetime.now(UTC)),
        "entries": document_history(db.get_conn(), document["id"]),
    }
    response = Response(json.dumps(body, ensure_ascii=False, indent=1), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="document-{document["id"]}-history.json"'
    return _no_store(response)
