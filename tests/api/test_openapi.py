"""The OpenAPI document is valid, describes every /api/v1 route, and is shown on a docs page under the strict CSP."""
from __future__ import annotations

import re

from openapi_spec_validator import validate

from tests.api.tokens import bearer, make_token
from tests.helpers import make_account


def _document(app) -> dict:
    with app.app_context():
        return app.extensions["psan_api"].spec.to_dict()


def test_the_openapi_document_validates(app):
    document = _document(app)
    validate(document)
    assert document["openapi"].startswith("3.")
    assert document["components"]["securitySchemes"]["bearerAuth"] == {"type": "http", "scheme": "bearer"}


def test_every_api_route_is_in_the_document(app):
    paths = _document(app)["paths"]
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if method.lower() not in paths.get(path, {}):
                missing.append(f"{method} {path}")
    assert missing == []


def test_every_operation_declares_its_scopes_and_a_json_error(app):
    for path, item in _document(app)["paths"].items():
        for method, operation in item.items():
            if method == "parameters":  # the path's own parameters (ids), not an operation
                continue
            assert operation["x-psan-scopes"], (method, path)
            assert operation["responses"]["default"] == {"$ref": "#/components/responses/DEFAULT_ERROR"}


def test_the_error_schema_is_code_and_message(app):
    error = _document(app)["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "message"}


def test_openapi_json_with_a_token_equals_the_generated_document(client, clean_app):
    make_account(clean_app, "reader@example.org", "ADMIN")
    served = client.get("/api/v1/openapi.json", headers=bearer(make_token(clean_app, "reader@example.org", "read")))
    assert served.status_code == 200
    assert served.get_json()["paths"].keys() == _document(clean_app)["paths"].keys()


def test_the_docs_page_lists_the_operations_without_scripts(admin_client):
    response = admin_client.get("/api-docs/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "/api/v1/projects/{project_id}/documents" in html and "annotate, admin" in html
    scripts = re.findall(r"<script([^>]*)>", html)
    assert all(re.search(r'src="/', attributes) for attributes in scripts), scripts  # no inline script, no CDN
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    assert admin_client.get("/api-docs/openapi.json").get_json()["openapi"].startswith("3.")
