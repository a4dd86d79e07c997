"""Audit export of one document: every ``decision_log`` row with author, time, span text and rule.

Why admin only, ``no-store`` and an attachment: the export joins the log with the document text
(the span an annotator decided is usually a name), so it is personal data like the
pseudonymization key.  The log itself holds no text (see :mod:`psan.store.decisions`); the span
text is cut out of the document through the token table at export time, so it disappears with
the document, and so do the log rows (foreign key cascade).

CSV cells are made injection-safe by :func:`psan.labels.csvio.csv_response` (``= + - @`` …
prefixed with ``'``).  Times are ISO 8601 in UTC.
"""
from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from flask import Response, abort

from psan import db
from psan.access import admin
from psan.annotate.validate import MAX_ID
from psan.documents import bp
from psan.downloads import mark_private
from psan.labels.csvio import csv_response

#: CSV columns, in order (the JSON entries use the same keys)
COLUMNS = ("time", "author_name", "author_email", "action", "decision", "label", "first_token", "end_token",
           "text", "rule_id", "rule_type", "rule_condition", "rule_confidence", "detail")

# The span text: from the start of the first token to the end of the last one (end_token is exclusive).
_HISTORY_SQL = (
    "SELECT l.id, l.created_at, acc.name AS author_name, acc.email AS author_email, l.action, "
    "l.decision::text AS decision, l.label_name, l.first_token, l.end_token, l.rule_id, l.detail, "
    "r.type::text AS rule_type, r.condition AS rule_condition, r.confidence AS rule_confidence, "
    "CASE WHEN t1.start_char IS NOT NULL AND t2.end_char IS NOT NULL AND t2.end_char >= t1.start_char "
    "THEN substr(d.text, t1.start_char + 1, t2.end_char - t1.start_char) END AS text "
    "FROM decision_log l JOIN document d ON d.id = l.document_id "
    "LEFT JOIN account acc ON acc.id = l.account_id "
    "LEFT JOIN rule r ON r.id = l.rule_id "
    "LEFT JOIN token t1 ON t1.document_id = l.document_id AND t1.idx = l.first_token "
    "LEFT JOIN token t2 ON t2.document_id = l.document_id AND t2.idx = l.end_token - 1 "
    "WHERE l.document_id = %s ORDER BY l.created_at, l.id")


def _utc(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _document_or_404(document_id: int) -> dict[str, Any]:
    if document_id > MAX_ID:
        abort(404)
    return db.query_one("SELECT d.id, d.name, d.project_id, p.name AS project_name FROM document d "
                        "JOIN project p ON p.id = d.project_id WHERE d.id = %s", (document_id,)) or abort(404)


def document_history(conn, document_id: int) -> list[dict[str, Any]]:
    """The document's decision log, oldest first, as plain JSON-ready entries (keys: :data:`COLUMNS`)."""
    entries = []
    for r in db.query(_HISTORY_SQL, (document_id,), conn):
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
