"""Shared helpers for the rules and labels page tests: direct SQL seeding and HTML scraping."""
from __future__ import annotations

import re
from typing import Any

import pytest

from psan import db


def sql(app, statement: str, params: Any = None) -> list[dict[str, Any]]:
    with app.app_context(), db.transaction() as conn:
        return db.query(statement, params, conn)


def default_project(app) -> int:
    return sql(app, "SELECT id FROM project WHERE is_default")[0]["id"]


def new_project(app, name: str) -> int:
    return sql(app, "INSERT INTO project (name) VALUES (%s) RETURNING id", (name,))[0]["id"]


def account_id(app, email: str) -> int:
    return sql(app, "SELECT id FROM account WHERE email = %s", (email,))[0]["id"]


def add_label(app, project_id: int, name: str, category: str | None = None, replacement: str | None = None) -> int:
    return sql(app, "INSERT INTO label (project_id, name, category, replacement) VALUES (%s, %s, %s, %s) RETURNING id",
               (project_id, name, category, replacement))[0]["id"]


def add_rule(app, project_id: int, condition: str, rule_type: str = "WORD_TYPE", confidence: float = 1.0,
             label_id: int | None = None, author_id: int | None = None, case_sensitive: bool = True) -> int:
    return sql(app, "INSERT INTO rule (project_id, type, condition, confidence, label_id, author_id, case_sensitive) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
               (project_id, rule_type, condition, confidence, label_id, author_id, case_sensitive))[0]["id"]


def rules_of(app, project_id: int) -> set[tuple]:
    """Rules as comparable tuples (type, condition, case, confidence, label name, author e-mail)."""
    rows = sql(app, "SELECT r.type::text AS type, r.condition, r.case_sensitive, r.confidence, l.name, a.email "
                    "FROM rule r LEFT JOIN label l ON l.id = r.label_id LEFT JOIN account a ON a.id = r.author_id "
                    "WHERE r.project_id = %s", (project_id,))
    return {tuple(r.values()) for r in rows}


def page_token(client, path: str) -> str:
    html = client.get(path).get_data(as_text=True)
    match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


@pytest.fixture(name="reannotations")
def reannotations_fixture(monkeypatch) -> list[int]:
    """Record schedule_project_reannotation calls instead of queueing Celery tasks."""
    import psan.celery.scheduling
    calls: list[int] = []
    monkeypatch.setattr(psan.celery.scheduling, "schedule_project_reannotation",
                        lambda project_id, exclude_document_id=None, delay=None: calls.append(project_id))
    return calls
