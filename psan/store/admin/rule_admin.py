"""SQL for the rules admin page: the filtered list, confidence edits, deletes and the CSV upsert.

Every statement is scoped by project and to project-level rules (``annotation_id IS NULL``), so
forged ids of other projects or lookup rules find nothing.  Loading rule sets for matching lives
in :mod:`psan.store.admin.rules`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from psan.runtime import db, sql

PAGE_SIZE = 50
CONFIDENCE_LIMIT = 1000.0   # rule_confidence_finite in the schema
DECISION_CONFIDENCE = {"PUBLIC": 1.0, "PRIVATE": -1.0, "SUSPICIOUS": 0.0}
DECISION_SQL = {"public": "r.confidence > 0", "private": "r.confidence < 0", "suspicious": "r.confidence = 0"}
#: the filter's decision values
DECISIONS = tuple(DECISION_SQL)

_SELECT = ("SELECT r.id, r.type::text AS type, r.condition, r.case_sensitive, r.confidence, r.label_id, "
           "l.name AS label_name, r.author_id, a.email AS author_email, r.created_at "
           "FROM rule r LEFT JOIN label l ON l.id = r.label_id LEFT JOIN account a ON a.id = r.author_id ")
_COUNT = "SELECT count(*) AS n FROM rule r "
_ORDER = " ORDER BY r.type, r.condition, r.case_sensitive, r.id"  # unique tail (id): stable pages
# the WHERE clauses interpolated below come from where_clause(): constant SQL, values are parameters


@dataclass(frozen=True)
class RuleSelection:
    """Which rules of a project a list, export or "delete filtered" covers; empty values match all."""
    type: str = ""
    q: str = ""
    decision: str = ""  # a key of DECISION_SQL or ""
    label: str = ""     # a label id, "none" (rules without a label) or ""
    author: str = ""    # an account id or ""


def like_pattern(text: str) -> str:
    """A substring ILIKE pattern matching ``text`` literally (``%``, ``_`` and ``\\`` escaped)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def where_clause(project_id: int, selection: RuleSelection) -> tuple[str, list[Any]]:
    """The parameterized ``WHERE`` of a rule selection (the project's own rules only) and its parameters."""
    clauses = ["r.project_id = %s", "r.annotation_id IS NULL"]
    params: list[Any] = [project_id]
    if selection.type:
        clauses.append("r.type = %s")
        params.append(selection.type)
    if selection.q:
        clauses.append("r.condition ILIKE %s ESCAPE '\\'")
        params.append(like_pattern(selection.q))
    if selection.decision:
        clauses.append(DECISION_SQL[selection.decision])
    if selection.label == "none":
        clauses.append("r.label_id IS NULL")
    elif selection.label:
        clauses.append("r.label_id = %s")
        params.append(int(selection.label))
    if selection.author:
        clauses.append("r.author_id = %s")
        params.append(int(selection.author))
    return " AND ".join(clauses), params


def decision_of(confidence: float) -> str:
    """The decision a rule votes for: the sign of its confidence."""
    return "PUBLIC" if confidence > 0 else "PRIVATE" if confidence < 0 else "SUSPICIOUS"


def count_rules(conn, project_id: int, selection: RuleSelection) -> int:
    where, params = where_clause(project_id, selection)
    return db.query_one(_COUNT + f"WHERE {where}", params, conn)["n"]


def list_rules(conn, project_id: int, selection: RuleSelection, page: int | None = None) -> list[dict[str, Any]]:
    """One page (1-based) of the selected rules, or all of them when ``page`` is None (export)."""
    where, params = where_clause(project_id, selection)
    sql = _SELECT + f"WHERE {where}" + _ORDER
    if page is not None:
        sql += " LIMIT %s OFFSET %s"
        params = [*params, PAGE_SIZE, (page - 1) * PAGE_SIZE]
    return db.query(sql, params, conn)


def authors(conn, project_id: int) -> list[dict[str, Any]]:
    return db.query("SELECT DISTINCT a.id, a.email FROM rule r JOIN account a ON a.id = r.author_id "
                    "WHERE r.project_id = %s AND r.annotation_id IS NULL ORDER BY a.email", (project_id,), conn)


def log_action(conn, project_id: int, account_id: int, action: str, rule_id: int | None, detail: dict[str, Any],
               decision: str | None = None) -> None:
    """A ``decision_log`` row for a change made on the rules page (SUSPICIOUS is logged as no decision)."""
    db.execute("INSERT INTO decision_log (project_id, account_id, action, rule_id, decision, detail) "
               "VALUES (%s, %s, %s, %s, %s, %s)",
               (project_id, account_id, action, rule_id, decision if decision != "SUSPICIOUS" else None,
                json.dumps(detail)), conn)


def set_confidence(conn, project_id: int, rule_id: int, confidence: float,
                   account_id: int) -> dict[str, Any] | None:
    """Change a rule's confidence and log it (action ``rule_confidence``); None if no such rule."""
    row = db.query_one("SELECT id, type::text AS type, condition, confidence FROM rule "
                       "WHERE id = %s AND project_id = %s AND annotation_id IS NULL FOR UPDATE",
                       (rule_id, project_id), conn)
    if row is None:
        return None
    db.execute("UPDATE rule SET confidence = %s WHERE id = %s", (confidence, rule_id), conn)
    log_action(conn, project_id, account_id, "rule_confidence", rule_id,
               {"old": row["confidence"], "new": confidence, "type": row["type"], "condition": row["condition"]},
               decision_of(confidence))
    return {**row, "confidence": confidence, "decision": decision_of(confidence)}


def delete_rule(conn, project_id: int, rule_id: int, account_id: int) -> bool:
    row = db.query_one("DELETE FROM rule WHERE id = %s AND project_id = %s AND annotation_id IS NULL "
                       "RETURNING type::text AS type, condition, confidence", (rule_id, project_id), conn)
    if row is None:
        return False
    log_action(conn, project_id, account_id, "rule_delete", rule_id, dict(row))
    return True


def delete_selected(conn, project_id: int, selection: RuleSelection, account_id: int,
                    detail: dict[str, Any]) -> int:
    """Delete the selected rules; ``detail`` (the filter as shown in URLs) goes to the log entry."""
    where, params = where_clause(project_id, selection)
    count = db.execute(f"DELETE FROM rule r WHERE {where}", params, conn)  # noqa: S608  # nosec B608
    log_action(conn, project_id, account_id, "rule_delete", None, {"count": count, "filter": detail})
    return count


def upsert_rules(conn, project_id: int,
                 rows: list[tuple[str, str, bool, float, int | None, int]]) -> tuple[int, int]:
    """Insert or update ``(type, condition, case_sensitive, confidence, label_id, author_id)`` rows on the
    unique key; returns (created, updated) — rows identical to the stored rule count as neither."""
    return sql.upsert(
        conn,
        "INSERT INTO rule (project_id, type, condition, case_sensitive, confidence, label_id, author_id) "
        "VALUES %s ON CONFLICT (project_id, type, condition, case_sensitive) WHERE annotation_id IS NULL "
        "DO UPDATE SET confidence = EXCLUDED.confidence, label_id = EXCLUDED.label_id, "
        "author_id = EXCLUDED.author_id "
        "WHERE (rule.confidence, rule.label_id) IS DISTINCT FROM (EXCLUDED.confidence, EXCLUDED.label_id) "
        "RETURNING (xmax = 0) AS inserted",
        [(project_id, *row) for row in rows], template="(%s, %s::rule_type, %s, %s, %s, %s, %s)")


def log_import(conn, project_id: int, account_id: int, counts: dict[str, Any]) -> None:
    """The ``rule_import`` log entry with the import's counts."""
    db.execute("INSERT INTO decision_log (project_id, account_id, action, detail) VALUES (%s, %s, 'rule_import', %s)",
               (project_id, account_id, json.dumps(counts)), conn)
