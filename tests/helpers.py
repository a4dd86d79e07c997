"""Plain helpers of every test folder: direct SQL, accounts and projects, CSRF tokens, logging in.

Why here and not in conftest.py: these are functions the tests call, not fixtures; conftest.py
only holds fixtures (pytest loads it itself, tests never import it).
"""
from __future__ import annotations

import re
from typing import Any

from psan.runtime import db

#: the password of every account a test makes (long enough for the password policy)
PASSWORD = "correct horse battery staple"


def sql(app, statement: str, params: Any = None) -> list[dict[str, Any]]:
    """Run one statement in its own transaction; its rows (empty without RETURNING or SELECT)."""
    with app.app_context(), db.transaction() as conn:
        return db.query(statement, params, conn)


def project_snapshot(app, project_id: int) -> list[tuple]:
    """Every document's status and annotations with their decision, level and rules: compare two ways of applying
    rules (targeted and full) or a state before and after an undo."""
    return [tuple(r.values()) for r in sql(
        app, "SELECT d.id, d.status::text, a.first_token, a.end_token, a.token_decision::text, a.rule_level, "
             "coalesce(array_agg(ar.rule_id ORDER BY ar.rule_id) FILTER (WHERE ar.rule_id IS NOT NULL), '{}') "
             "FROM document d LEFT JOIN annotation a ON a.document_id = d.id "
             "LEFT JOIN annotation_rule ar ON ar.annotation_id = a.id WHERE d.project_id = %s "
             "GROUP BY d.id, a.id ORDER BY d.id, a.first_token, a.end_token", (project_id,))]


def default_project(app) -> int:
    return sql(app, "SELECT id FROM project WHERE is_default")[0]["id"]


def new_project(app, name: str) -> int:
    return sql(app, "INSERT INTO project (name) VALUES (%s) RETURNING id", (name,))[0]["id"]


def make_account(app, email: str, role: str = "USER", password: str = PASSWORD, **kw):
    """An account made through psan.identity.accounts (name: the e-mail's local part unless given)."""
    from psan.identity import accounts
    with app.app_context(), db.transaction() as conn:
        return accounts.create(email, kw.pop("name", email.split("@")[0]), accounts.Role(role), password,
                               conn=conn, **kw)


def account_id(app, email: str) -> int:
    return sql(app, "SELECT id FROM account WHERE email = %s", (email,))[0]["id"]


def join_project(app, project_id: int, email: str) -> None:
    sql(app, "INSERT INTO project_member (project_id, account_id) SELECT %s, id FROM account WHERE email = %s "
             "ON CONFLICT DO NOTHING", (project_id, email))


def set_window_size(app, email: str, size: int) -> None:
    sql(app, "UPDATE account SET window_size = %s WHERE email = %s", (size, email))


def csrf_token(client, path: str = "/auth/login") -> str:
    """The CSRF token of the first form on the page at ``path``."""
    html = client.get(path).get_data(as_text=True)
    match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def meta_csrf(client, path: str = "/annotate/") -> str:
    """The CSRF token the annotation page gives its JavaScript (``<meta name="csrf-token">``)."""
    html = client.get(path).get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert match, f"no csrf-token meta on {path}"
    return match.group(1)


class Auth:
    """Logs one test client in and out through the real forms (the ``auth`` object of Flask's tutorial).

    The ``auth`` fixture wraps the ``client`` fixture; ``Auth(app.test_client())`` wraps any other client.
    """

    def __init__(self, client) -> None:
        self.client = client

    def login(self, email: str, password: str = PASSWORD):
        """POST the login form; the response (302 when logged in, 200 with the form again when refused)."""
        return self.client.post("/auth/login", data={"email": email, "password": password,
                                                     "csrf_token": csrf_token(self.client)})

    def logout(self):
        return self.client.post("/auth/logout", data={"csrf_token": csrf_token(self.client, "/")})


def logged_in_client(app, email: str, role: str = "USER", **account):
    """A new account (``account``: more arguments of ``make_account``) and a test client logged in as it."""
    make_account(app, email, role, **account)
    client = app.test_client()
    assert Auth(client).login(email).status_code == 302
    return client
