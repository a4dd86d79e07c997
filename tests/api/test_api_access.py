"""Every API route with every kind of caller: no token, a bad or revoked token, each scope, another project's
token, an annotator's token, a logged-in browser session.  Roles and projects hold as on the pages."""
from __future__ import annotations

import io

import pytest
from werkzeug.routing import IntegerConverter

from psan.web.access import scopes_of
from tests.api.tokens import bearer, make_token
from tests.documents import add_document
from tests.helpers import account_id, csrf_token, make_account, new_project, sql

SCOPES = ("read", "annotate", "admin")


def _api_routes(app, ids: dict[str, int]):
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        args = {name: ids.get(name, 999999) for name, conv in rule._converters.items()
                if isinstance(conv, IntegerConverter)}
        path = rule.build(args, append_unknown=False)[1]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, path


@pytest.fixture()
def world(clean_app):
    """Two projects with a document each, an admin and an annotator (member of the first), tokens of each kind."""
    app = clean_app
    make_account(app, "admin@example.org", "ADMIN")
    make_account(app, "annotator@example.org", "USER")
    mine, other = new_project(app, "Mine"), new_project(app, "Other")
    sql(app, "INSERT INTO project_member (project_id, account_id) VALUES (%s, %s)",
        (mine, account_id(app, "annotator@example.org")))
    document = add_document(app, "John Smith met Mary Brown in London.", [("John Smith", "PERSON")], project_id=mine)
    tokens = {scope: make_token(app, "admin@example.org", scope, [mine]) for scope in SCOPES}
    tokens["other"] = make_token(app, "admin@example.org", "admin", [other])
    tokens["all"] = make_token(app, "admin@example.org", "admin")
    tokens["annotator"] = make_token(app, "annotator@example.org", "annotate", [mine])
    revoked = make_token(app, "admin@example.org", "admin")
    sql(app, "UPDATE api_token SET revoked_at = now() WHERE prefix = %s", (revoked[:11],))
    tokens["revoked"] = revoked
    return {"app": app, "tokens": tokens, "ids": {"project_id": mine, "document_id": document}, "other": other}


def _call(client, method, path, secret=None):
    headers = bearer(secret) if secret else {}
    if method in ("POST", "PATCH"):
        return client.open(path, method=method, headers=headers, json={})
    return client.open(path, method=method, headers=headers)


def test_every_api_route_needs_a_live_token(client, world):
    checked = 0
    for endpoint, method, path in _api_routes(world["app"], world["ids"]):
        for secret, code in ((None, "token_required"), ("psan_not-a-token", "token_invalid"),
                             ("Basic abc", "token_invalid"), (world["tokens"]["revoked"], "token_revoked")):
            response = _call(client, method, path, secret)
            assert response.status_code == 401, (endpoint, method, secret, response.status_code)
            assert response.get_json()["code"] == code, (endpoint, response.get_json())
            assert response.headers["WWW-Authenticate"] == 'Bearer realm="psan"'
        checked += 1
    assert checked >= 19


def test_each_scope_reaches_exactly_its_routes(client, world):
    app = world["app"]
    for endpoint, method, path in _api_routes(app, world["ids"]):
        allowed = scopes_of(endpoint, app)
        assert allowed and set(allowed) <= set(SCOPES), endpoint
        for scope in SCOPES:
            response = _call(client, method, path, world["tokens"][scope])
            body = response.get_json(silent=True)
            assert response.status_code != 500, (endpoint, scope)
            if scope in allowed:
                assert response.status_code != 401, (endpoint, scope, body)
                assert not (response.status_code == 403 and body["code"] == "scope_insufficient"), (endpoint, scope)
            else:
                assert response.status_code == 403 and body["code"] == "scope_insufficient", (endpoint, scope, body)


def test_another_projects_token_reaches_nothing_of_this_project(client, world):
    checked = 0
    for endpoint, method, path in _api_routes(world["app"], world["ids"]):
        if "{" in path or not any(key in path for key in ("/projects/", "/documents/")):
            continue
        if "/projects/" in path and f"/projects/{world['ids']['project_id']}" not in path:
            continue
        response = _call(client, method, path, world["tokens"]["other"])
        body = response.get_json()
        assert (response.status_code, body["code"]) in ((403, "project_not_allowed"), (404, "not_found")), \
            (endpoint, method, response.status_code, body)
        checked += 1
    assert checked >= 10
    listed = client.get("/api/v1/projects", headers=bearer(world["tokens"]["other"])).get_json()["projects"]
    assert [p["id"] for p in listed] == [world["other"]]


def test_an_annotators_token_only_annotates(client, world):
    secret = world["tokens"]["annotator"]
    window = client.get("/api/v1/annotate/window", headers=bearer(secret))
    assert window.status_code == 200 and window.get_json()["window"]["project_id"] == world["ids"]["project_id"]
    for method, path in (("GET", "/api/v1/projects"), ("GET", f"/api/v1/documents/{world['ids']['document_id']}/spans"),
                         ("POST", "/api/v1/projects")):
        response = _call(client, method, path, secret)
        assert (response.status_code, response.get_json()["code"]) == (403, "scope_insufficient"), path


def test_an_annotators_account_cannot_hold_a_read_or_admin_token(clean_app):
    from psan.identity.api_tokens import TokenError
    make_account(clean_app, "annotator@example.org", "USER")
    for scope in ("read", "admin"):
        with pytest.raises(TokenError):
            make_token(clean_app, "annotator@example.org", scope)


def test_a_deactivated_or_demoted_owner_stops_the_token(client, world):
    app, secret = world["app"], world["tokens"]["read"]
    assert client.get("/api/v1/projects", headers=bearer(secret)).status_code == 200
    sql(app, "UPDATE account SET role = 'USER' WHERE email = 'admin@example.org'")
    demoted = client.get("/api/v1/projects", headers=bearer(secret))
    assert (demoted.status_code, demoted.get_json()["code"]) == (401, "token_inactive")
    sql(app, "UPDATE account SET role = 'ADMIN', active = false WHERE email = 'admin@example.org'")
    assert client.get("/api/v1/projects", headers=bearer(secret)).get_json()["code"] == "token_inactive"


def test_a_browser_session_is_not_an_api_credential(admin_client):
    """A logged-in admin's cookie does not open the API (so no CSRF token is needed there)."""
    for method, path in (("GET", "/api/v1/projects"), ("POST", "/api/v1/projects")):
        response = _call(admin_client, method, path)
        assert response.status_code == 401 and response.get_json()["code"] == "token_required"
    # and a form post with the page's CSRF token is still refused without a token
    token = csrf_token(admin_client, "/tokens/")
    response = admin_client.post("/api/v1/projects", data={"csrf_token": token, "name": "x", "language": "en"})
    assert response.status_code == 401


def test_bad_input_is_a_json_error_never_a_500(client, world):
    secret = world["tokens"]["all"]
    pid = world["ids"]["project_id"]
    cases = [("POST", "/api/v1/projects", {"name": "", "language": "xx"}, 422),
             ("POST", "/api/v1/projects", {"name": "Mine", "language": "en"}, 409),
             ("PATCH", f"/api/v1/projects/{pid}", {"private_threshold": 2, "public_threshold": 1}, 400),
             ("PATCH", f"/api/v1/projects/{pid}", {"pipeline": {"steps": "\u0000"}}, 400),
             ("POST", f"/api/v1/projects/{pid}/releases", {"kind": "everything"}, 422),
             ("POST", f"/api/v1/projects/{pid}/qa-samples", {"size": 10**9}, 422),
             ("POST", "/api/v1/annotate/decide", {"document_id": "x"}, 422),
             ("GET", "/api/v1/documents/99999999999999999999", None, 404),
             ("GET", "/api/v1/no-such-thing", None, 404),
             ("DELETE", "/api/v1/projects", None, 405)]
    for method, path, payload, status in cases:
        response = client.open(path, method=method, headers=bearer(secret), json=payload)
        body = response.get_json()
        assert response.status_code == status, (path, payload, response.status_code, body)
        assert set(body) >= {"code", "message"} and isinstance(body["code"], str), body
    garbage = client.post("/api/v1/projects", headers={**bearer(secret), "Content-Type": "application/json"},
                          data=b"{not json")
    assert garbage.status_code in (400, 422) and garbage.get_json()["code"]
    form = client.post(f"/api/v1/projects/{pid}/documents", headers=bearer(secret), data={"language": "en"})
    assert form.status_code == 422 and "files" in str(form.get_json()["errors"])
    binary = client.post(f"/api/v1/projects/{pid}/documents", headers=bearer(secret),
                         data={"files": [(io.BytesIO(b"\x7fELF\x00\x01"), "x.bin")]},
                         content_type="multipart/form-data")
    assert binary.status_code == 400 and binary.get_json()["code"] == "nothing_uploaded"


def test_calls_are_rate_limited_per_token(client, world, monkeypatch):
    monkeypatch.setitem(world["app"].config, "API_RATE_LIMIT", "3 per minute")
    answers = [client.get("/api/v1/projects", headers=bearer(world["tokens"]["read"])) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].get_json()["code"] == "rate_limited"
    # another token has its own budget
    assert client.get("/api/v1/projects", headers=bearer(world["tokens"]["admin"])).status_code == 200


def test_an_api_call_sets_no_cookie(client, world):
    response = client.get("/api/v1/projects", headers=bearer(world["tokens"]["read"]))
    assert response.status_code == 200 and "Set-Cookie" not in response.headers


def test_a_window_in_another_project_is_given_back_and_refused(client, world):
    """The only document lies in "Mine": a token of "Other" gets no window there, and decides nothing in one."""
    app = world["app"]
    answer = client.get("/api/v1/annotate/window", headers=bearer(world["tokens"]["other"]))
    assert (answer.status_code, answer.get_json()["code"]) == (403, "project_not_allowed")
    assert sql(app, "SELECT count(*) AS n FROM annotation_window")[0]["n"] == 0  # given back
    mine = client.get("/api/v1/annotate/window", headers=bearer(world["tokens"]["admin"])).get_json()["window"]
    span = {"document_id": mine["document_id"], "first_token": 0, "end_token": 2, "decision": "PUBLIC"}
    refused = client.post("/api/v1/annotate/decide", headers=bearer(world["tokens"]["other"]), json=span)
    assert (refused.status_code, refused.get_json()["code"]) == (403, "project_not_allowed")
