"""Why a span is decided: its annotation, rules with their authors, the decision history, what was found.

The rows behind the annotation detail panel (:mod:`psan.annotate.detail` shapes them); authors come
with their names, label replacements are never selected.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db
from psan.tool.detection.classifier.model import CLASSIFIER_SOURCES


def model_span_score(conn, document_id: int, first_token: int, end_token: int) -> float | None:
    """p(private) the project model or a pre-trained classifier gave exactly this span (``None``: no model
    suggestion)."""
    row = db.query_one("SELECT max(score) AS p FROM named_entity WHERE document_id = %s AND first_token = %s "
                       "AND end_token = %s AND source = ANY(%s)",
                       (document_id, first_token, end_token, list(CLASSIFIER_SOURCES)), conn)
    return round(float(row["p"]), 4) if row and row["p"] is not None else None


def annotation_row(conn, annotation_id: int) -> dict[str, Any] | None:
    """The annotation with the name and e-mail of whoever decided it last."""
    return db.query_one(
        "SELECT a.id, a.document_id, a.first_token, a.end_token, a.token_decision::text AS token_decision, "
        "a.token_label_id, a.rule_level, a.decided_at, acc.name AS decided_by_name, acc.email AS decided_by_email "
        "FROM annotation a LEFT JOIN account acc ON acc.id = a.decided_by WHERE a.id = %s", (annotation_id,), conn)


def annotation_rules(conn, annotation_id: int) -> list[dict[str, Any]]:
    """The annotation's rules with their authors, strongest vote first."""
    return db.query(
        "SELECT r.id, r.type::text AS type, r.condition, r.confidence, r.label_id, r.case_sensitive, "
        "r.annotation_id IS NOT NULL AS lookup, acc.name AS author_name, acc.email AS author_email "
        "FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id LEFT JOIN account acc ON acc.id = r.author_id "
        "WHERE ar.annotation_id = %s ORDER BY abs(r.confidence) DESC, r.id", (annotation_id,), conn)


def span_history(conn, document_id: int, first_token: int, end_token: int, limit: int) -> list[dict[str, Any]]:
    """The newest ``limit`` decision-log entries of a span with their authors."""
    return db.query(
        "SELECT l.action, l.decision::text AS decision, l.label_name, l.created_at, acc.name AS author_name, "
        "acc.email AS author_email FROM decision_log l LEFT JOIN account acc ON acc.id = l.account_id "
        "WHERE l.document_id = %s AND l.first_token = %s AND l.end_token = %s ORDER BY l.created_at DESC, l.id DESC "
        "LIMIT %s", (document_id, first_token, end_token, limit), conn)


def span_entities(conn, document_id: int, first_token: int, end_token: int) -> list[dict[str, Any]]:
    """Distinct (type, category) of what recognizers found at exactly this span."""
    return db.query(
        "SELECT DISTINCT type, category FROM named_entity WHERE document_id = %s AND first_token = %s "
        "AND end_token = %s ORDER BY type", (document_id, first_token, end_token), conn)
