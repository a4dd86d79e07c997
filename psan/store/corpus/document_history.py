"""The decision log of one document joined with what a reviewer needs: author, rule and span text.

Why the text is cut out here: the log itself holds no text (see :mod:`psan.store.annotation.decisions`); the
span is taken from the document through the token table at export time, so it disappears with
the document (and so do the log rows, by foreign key cascade).
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db

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


def history_rows(conn, document_id: int) -> list[dict[str, Any]]:
    """The document's ``decision_log`` rows, oldest first, with author, rule and span text."""
    return db.query(_HISTORY_SQL, (document_id,), conn)
