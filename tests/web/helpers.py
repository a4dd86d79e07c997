"""Helpers of several web tests: labels and rules inserted directly, logged-in annotator clients."""
from __future__ import annotations

from tests.helpers import Auth, default_project, join_project, make_account, meta_csrf, set_window_size, sql


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


def annotator_client(app, email: str, role: str = "USER", *, window_size: int | None = None, member: bool = True,
                     environ: dict[str, str] | None = None, **account):
    """A new account and a test client logged in as it, sending the CSRF header the annotation API wants.

    ``member``: the account joins the default project; ``environ``: set on the client before it logs in
    (a client address of its own, for instance); ``account``: more arguments of ``make_account``.
    """
    make_account(app, email, role, **account)
    if member:
        join_project(app, default_project(app), email)
    if window_size:
        set_window_size(app, email, window_size)
    client = app.test_client()
    client.environ_base.update(environ or {})
    assert Auth(client).login(email).status_code == 302
    client.environ_base["HTTP_X_CSRFTOKEN"] = meta_csrf(client)
    return client


def api_window(client, **params):
    """GET the annotation window: (status code, JSON)."""
    response = client.get("/annotate/api/window", query_string=params)
    return response.status_code, response.get_json()


def api_post(client, path: str, payload):
    """POST to the annotation API: (status code, JSON)."""
    response = client.post(f"/annotate/api/{path}", json=payload)
    return response.status_code, response.get_json()


def api_decide(client, doc: int, first: int, end: int, decision: str, scope: str = "token", **extra):
    return api_post(client, "decide", {"document_id": doc, "first_token": first, "end_token": end,
                                       "decision": decision, "scope": scope, **extra})


def decide_window_and_leave(client, decision: str, limit: int | None = None) -> list[dict]:
    """Through the annotation API: decide the window's highlighted spans (the first ``limit``), take the next.

    Returns the spans decided (the window's annotations as the API gave them).
    """
    body = api_window(client)[1]
    pending = [a for a in body["annotations"] if a["decision"] == "SUSPICIOUS"][:limit]
    for a in pending:
        assert api_decide(client, body["window"]["document_id"], a["first_token"], a["end_token"], decision)[0] == 200
    assert api_post(client, "next", {})[0] == 200
    return pending
