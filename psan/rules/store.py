"""SQL for rules.  Every statement is scoped by project and to project-level rules
(``annotation_id IS NULL``), so forged ids of other projects or lookup rules find nothing."""
from __future__ import annotations

import json
from typing import Any

import psycopg2.extras

from psan import db
from psan.rules.filters import RuleFilter

PAGE_SIZE = 50
CONFIDENCE_LIMIT = 1000.0   # rule_confidence_finite in the schema
DECISION_CONFIDENCE = {"PUBLIC": 1.0, "PRIVATE": -1.0, "SUSPICIOUS": 0.0}

_SELECT = ("SELECT r.id, r.type::text AS type, r.condition, r.case_sensitive, r.confidence, r.label_id, "
           "l.name AS label_name, r.author_id, a.email AS author_email, r.created_at "
           "FROM rule r LEFT JOIN label l ON l.id = r.label_id LEFT JOIN account a ON a.id = r.author_id ")
_COUNT = "SELECT count(*) AS n FROM rule r "
_ORDER = " ORDER BY r.type, r.condition, r.case_sensitive, r.id"  # unique tail (id): stable pages
# the WHERE clauses interpolated below come from RuleFilter.where(): constant SQL, values are parameters


def decision_of(confidence: float) -> str:
    """The decision a rule votes for: the sign of its confidence."""
    return "PUBLIC" if confidence > 0 else "PRIVATE" if confidence < 0 else "SUSPICIOUS"


def count_rules(project_id: int, rule_filter: RuleFilter) -> int:
    where, params = rule_filter.where(project_id)
    return db.query_one(_COUNT + f"WHERE {where}", params)["n"]


def list_rules(project_id: int, rule_filter: RuleFilter, page: int | None = None) -> list[dict[str, Any]]:
    """One page (1-based) of the filtered rules, or all of them when ``page`` is None (export)."""
    where, params = rule_filter.where(project_id)
    sql = _SELECT + f"WHERE {where}" + _ORDER
    if page is not None:
        sql += " LIMIT %s OFFSET %s"
        params = [*params, PAGE_SIZE, (page - 1) * PAGE_SIZE]
    return db.query(sql, params)


def authors(project_id: int) -> list[dict[str, Any]]:
    return db.query("SELECT DISTINCT a.id, a.email FROM rule r JOIN account a ON a.id = r.author_id "
                    "WHERE r.project_id = %s AND r.annotation_id IS NULL ORDER BY a.email", (project_id,))


def _log(project_id: int, account_id: int, action: str, rule_id: int | None, detail: dict[str, Any],
         decision: str | None = None) -> None:
    db.execute("INSERT INTO decision_log (project_id, account_id, action, rule_id, decision, detail) "
               "VALUES (%s, %s, %s, %s, %s, %s)",
               (project_id, account_id, action, rule_id, decision if decision != "SUSPICIOUS" else None,
                json.dumps(detail)))


def set_confidence(project_id: int, rule_id: int, confidence: float, account_id: int) -> dict[str, Any] | None:
    """Change a rule's confidence and log it (action ``rule_confidence``); None if no such rule."""
    row = db.query_one("SELECT id, type::text AS type, condition, confidence FROM rule "
                       "WHERE id = %s AND project_id = %s AND annotation_id IS NULL FOR UPDATE",
                       (rule_id, project_id))
    if row is None:
        return None
    db.execute("UPDATE rule SET confidence = %s WHERE id = %s", (confidence, rule_id))
    _log(project_id, account_id, "rule_confidence", rule_id,
         {"old": row["confidence"], "new": confidence, "type": row["type"], "condition": row["condition"]},
         decision_of(confidence))
    return {**row, "confidence": confidence, "decision": decision_of(confidence)}


def delete_rule(project_id: int, rule_id: int, account_id: int) -> bool:
    row = db.query_one("DELETE FROM rule WHERE id = %s AND project_id = %s AND annotation_id IS NULL "
                       "RETURNING type::text AS type, condition, confidence", (rule_id, project_id))
    if row is None:
        return False
    _log(project_id, account_id, "rule_delete", rule_id, dict(row))
    return True


def delete_filtered(project_id: int, rule_filter: RuleFilter, account_id: int) -> int:
    where, params = rule_filter.where(project_id)
    count = db.execute(f"DELETE FROM rule r WHERE {where}", params)  # noqa: S608  # nosec B608
    _log(project_id, account_id, "rule_delete", None, {"count": count, "filter": rule_filter.args()})
    return count


def upsert_rules(project_id: int, rows: list[tuple[str, str, bool, float, int | None, int]]) -> tuple[int, int]:
    """Insert or update ``(type, condition, case_sensitive, confidence, label_id, author_id)`` rows on the
    unique key; returns (created, updated) — rows identical to the stored rule count as neither."""
    if not rows:
        return 0, 0
    with db.get_conn().cursor() as cur:
        result = psycopg2.extras.execute_values(
            cur,
            "INSERT INTO rule (project_id, type, condition, case_sensitive, confidence, label_id, author_id) "
            "VALUES %s ON CONFLICT (project_id, type, condition, case_sensitive) WHERE annotation_id IS NULL "
            "DO UPDATE SET confidence = EXCLUDED.confidence, label_id = EXCLUDED.label_id, "
            "author_id = EXCLUDED.author_id "
            "WHERE (rule.confidence, rule.label_id) IS DISTINCT FROM (EXCLUDED.confidence, EXCLUDED.label_id) "
            "RETURNING (xmax = 0) AS inserted",
            [(project_id, *row) for row in rows], template="(%s, %s::rule_type, %s, %s, %s, %s, %s)",
            page_size=1000, fetch=True)
    created = sum(1 for (inserted,) in result if inserted)
    return created, len(result) - created
