"""The key through the API is the key page's own export: refused without a reason, logged with who, when and why.

Real PostgreSQL (``clean_app``); the document inserted directly (tests/documents.py), its PERSON spans made private
by the NE_TYPE rule's confidence -1 as in tests/web/test_key_ring.py.
"""
from __future__ import annotations

from tests.api.tokens import bearer, make_token
from tests.documents import add_document
from tests.helpers import make_account, new_project, sql

TEXT = "Peter Novak signed the contract with Anna Berg in Brno.\n"


def test_an_api_key_export_needs_a_reason_and_every_export_is_logged_with_the_tokens_account(clean_app, client):
    app = clean_app
    make_account(app, "keeper@example.org", "ADMIN")
    pid = new_project(app, "api key")
    add_document(app, TEXT, [("Peter Novak", "PERSON"), ("Anna Berg", "PERSON")], project_id=pid)
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    headers = bearer(make_token(app, "keeper@example.org", "admin", [pid]))
    for bad in ("", "?reason=", "?reason=%20%20%20", "?reason=ok"):
        response = client.get(f"/api/v1/projects/{pid}/key{bad}", headers=headers)
        assert response.status_code in (400, 422), (bad, response.status_code)
        assert "reason" in response.get_data(as_text=True)
    assert sql(app, "SELECT count(*) AS n FROM key_access_log")[0]["n"] == 0
    response = client.get(f"/api/v1/projects/{pid}/key?reason=data%20subject%20request%2017", headers=headers)
    assert response.status_code == 200 and response.headers["Cache-Control"].startswith("no-store")
    originals = {e["original_text"] for e in response.get_json()["entries"]}
    assert {"Peter Novak", "Anna Berg"} <= originals
    rows = sql(app, "SELECT action, reason, account, project_id, document_id FROM key_access_log ORDER BY id")
    assert [(r["action"], r["reason"], r["account"], r["project_id"], r["document_id"]) for r in rows] == [
        ("export", "data subject request 17", "keeper@example.org", pid, None)]
