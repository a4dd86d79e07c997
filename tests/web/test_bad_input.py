"""Bad input gets a 400 with a message, never a 500: every form and JSON endpoint fuzzed, NUL characters,
nested pipelines, CR/LF in ``next``.
"""
from __future__ import annotations

from werkzeug.routing import FloatConverter, IntegerConverter

from tests.helpers import (
    PASSWORD,
    csrf_token,
    make_account,
)

# --- bad input gets a 400 with a message, never a 500 -------------------------------------------------------
DEEP_ARRAY = "[" * 100_000 + "]" * 100_000


DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


GENERIC_FIELDS = ("name", "email", "password", "confirm", "current", "text", "title", "pipeline", "language",
                  "category", "replacement", "condition", "label", "q", "project", "next", "role")


def _routes(app):
    """Every page route (the token API under /api/v1/ answers a session 401 first; tests/api fuzzes it with tokens)."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static") or rule.rule.startswith("/api/v1/"):
            continue
        args = {name: 1 if isinstance(conv, (IntegerConverter, FloatConverter)) else "x"
                for name, conv in rule._converters.items()}
        path = rule.build(args, append_unknown=False)[1]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, path


def _form_fields(client, path: str) -> set[str]:
    import re
    response = client.get(path)
    if response.status_code != 200 or response.mimetype != "text/html":
        return set()
    return set(re.findall(r'<(?:input|textarea|select)[^>]*\bname="([^"]+)"', response.get_data(as_text=True)))


def _assert_400_with_message(response, what) -> None:
    assert response.status_code == 400, (what, response.status_code, response.get_data(as_text=True)[:300])
    if response.is_json:
        assert response.get_json()["error"], what
    else:
        body = response.get_data(as_text=True)
        assert "NUL" in body or "nested too deeply" in body, (what, body[:500])


def test_fuzz_every_form_and_json_endpoint(clean_app, admin_client):
    from psan.web.extensions import limiter
    token = csrf_token(admin_client, "/auth/password")
    checked = 0
    for endpoint, method, path in _routes(clean_app):
        if method == "GET":
            with clean_app.app_context():
                limiter.reset()
            _assert_400_with_message(admin_client.get(path, query_string={"q": "a\x00b"}), (endpoint, "query"))
            continue
        fields = (_form_fields(admin_client, path) | set(GENERIC_FIELDS)) - {"csrf_token"}
        form = {name: "x\x00y" for name in fields}
        bodies = {"form NUL": {"data": {**form, "csrf_token": token}},
                  "JSON surrogate": {"data": '{"name": "\\ud800", "document_id": 1, "pipeline": "\\ud800"}'},
                  "JSON deep array": {"data": DEEP_ARRAY},
                  "JSON deep object": {"data": DEEP_OBJECT},
                  "JSON NUL": {"data": '{"name": "a\\u0000b", "label": "\\u0000"}'},
                  "JSON nested pipeline": {"data": '{"pipeline": ' + DEEP_OBJECT + "}"}}
        for what, kwargs in bodies.items():
            headers = {"X-CSRFToken": token}
            if what.startswith("JSON"):
                kwargs = {**kwargs, "content_type": "application/json"}
            with clean_app.app_context():
                limiter.reset()
            response = admin_client.open(path, method=method, headers=headers, **kwargs)
            _assert_400_with_message(response, (endpoint, method, what))
            checked += 1
    assert checked >= 6 * 20


def test_anonymous_forms_with_nul(client):
    for path in ("/auth/login", "/auth/forgot"):
        response = client.post(path, data={"email": "a\x00@example.org", "password": "x\x00",
                                           "csrf_token": csrf_token(client, path)})
        _assert_400_with_message(response, path)


def test_nested_pipeline_in_project_form(admin_client):
    token = csrf_token(admin_client, "/projects/new")
    deep = "[" * 9000 + "]" * 9000  # within the field's 20,000 characters
    response = admin_client.post("/projects/new", data={"name": "deep", "language": "en", "pipeline": deep,
                                                       "public_threshold": 1, "private_threshold": -1,
                                                       "csrf_token": token})
    _assert_400_with_message(response, "pipeline")
    nested = '{"ner": ' + "[" * 40 + "]" * 40 + "}"
    response = admin_client.post("/projects/new", data={"name": "deep", "language": "en", "pipeline": nested,
                                                       "public_threshold": 1, "private_threshold": -1,
                                                       "csrf_token": token})
    _assert_400_with_message(response, "pipeline 40")


def test_crlf_in_next_after_login(clean_app):
    make_account(clean_app, "h@example.org")
    client = clean_app.test_client()
    token = csrf_token(client)
    response = client.post("/auth/login?next=/x%0d%0aSet-Cookie:%20evil=1",
                           data={"email": "h@example.org", "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    assert response.headers["Location"] == "/" and "evil" not in str(response.headers)
