"""The token page: an admin makes a token (shown once, only its hash stored), sees every use, revokes it."""
from __future__ import annotations

import re

from tests.api.tokens import bearer
from tests.helpers import account_id, csrf_token, make_account, new_project, sql


def _create(admin_client, app, **fields):
    token = csrf_token(admin_client, "/tokens/")
    data = {"csrf_token": token, "name": "nightly export", "account": account_id(app, "admin@example.org"),
            "scope": "admin", **fields}
    return admin_client.post("/tokens/", data=data)


def test_a_token_is_shown_once_and_only_its_hash_is_stored(admin_client, clean_app):
    response = _create(admin_client, clean_app, all_projects="y")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    secret = re.search(r'id="new-token">(psan_[A-Za-z0-9_-]{40,})<', html).group(1)
    stored = sql(clean_app, "SELECT * FROM api_token")
    assert len(stored) == 1 and secret not in str(stored) and secret[5:] not in str(stored)
    assert stored[0]["prefix"] == secret[:11] and len(stored[0]["secret_hash"]) == 64
    assert secret not in admin_client.get("/tokens/").get_data(as_text=True)  # never again
    assert response.headers["Cache-Control"] == "no-store"


def test_every_use_is_logged_with_who_when_and_which_endpoint(admin_client, client, clean_app):
    html = _create(admin_client, clean_app, all_projects="y").get_data(as_text=True)
    secret = re.search(r'id="new-token">(psan_[^<]+)<', html).group(1)
    assert client.get("/api/v1/projects", headers=bearer(secret)).status_code == 200
    assert client.get("/api/v1/projects/999", headers=bearer(secret)).status_code == 404
    uses = sql(clean_app, "SELECT u.method, u.endpoint, u.path, a.email FROM api_token_use u "
                          "JOIN account a ON a.id = u.account_id ORDER BY u.id")
    assert [(u["endpoint"], u["path"], u["email"]) for u in uses] == [
        ("api_projects.list_projects", "/api/v1/projects", "admin@example.org"),
        ("api_projects.get_project", "/api/v1/projects/999", "admin@example.org")]
    token_id = sql(clean_app, "SELECT id FROM api_token")[0]["id"]
    page = admin_client.get(f"/tokens/{token_id}").get_data(as_text=True)
    assert "/api/v1/projects/999" in page and "api_projects.list_projects" in page
    assert sql(clean_app, "SELECT last_used_at IS NOT NULL AS used FROM api_token")[0]["used"]


def test_a_revoked_token_stops_at_once(admin_client, client, clean_app):
    html = _create(admin_client, clean_app, all_projects="y").get_data(as_text=True)
    secret = re.search(r'id="new-token">(psan_[^<]+)<', html).group(1)
    token_id = sql(clean_app, "SELECT id FROM api_token")[0]["id"]
    revoked = admin_client.post(f"/tokens/{token_id}/revoke", data={"csrf_token": csrf_token(admin_client, "/tokens/")})
    assert revoked.status_code == 302
    answer = client.get("/api/v1/projects", headers=bearer(secret))
    assert answer.status_code == 401 and answer.get_json()["code"] == "token_revoked"
    assert admin_client.post(f"/tokens/{token_id}/revoke",
                             data={"csrf_token": csrf_token(admin_client, "/tokens/")}).status_code == 404


def test_the_form_refuses_what_the_account_may_not_hold(admin_client, clean_app):
    make_account(clean_app, "annotator@example.org", "USER")
    project = new_project(clean_app, "Court")
    refused = _create(admin_client, clean_app, account=account_id(clean_app, "annotator@example.org"), scope="read",
                      projects=[project])
    assert refused.status_code == 400 and "only annotate" in refused.get_data(as_text=True)
    no_project = _create(admin_client, clean_app, scope="read")
    assert no_project.status_code == 400
    ok = _create(admin_client, clean_app, account=account_id(clean_app, "annotator@example.org"), scope="annotate",
                 projects=[project])
    assert ok.status_code == 200 and "psan_" in ok.get_data(as_text=True)
    assert sql(clean_app, "SELECT project_id FROM api_token_project") == [{"project_id": project}]


def test_the_token_secret_never_reaches_an_annotators_pages(admin_client, user_client, clean_app):
    html = _create(admin_client, clean_app, all_projects="y").get_data(as_text=True)
    secret = re.search(r'id="new-token">(psan_[^<]+)<', html).group(1)
    for path in ("/annotate/", "/workspace/", "/tokens/"):
        page = user_client.get(path)
        assert secret not in page.get_data(as_text=True) and secret[:11] not in page.get_data(as_text=True), path
    assert user_client.get("/tokens/").status_code == 403
