"""Every route, present and future, denies anonymous users and enforces its role server-side."""
import re

import pytest
from werkzeug.routing import FloatConverter, IntegerConverter

from psan.web.access import Access, access_of
from tests.helpers import csrf_token

PUBLIC_ENDPOINTS = {"auth.login", "auth.logout", "auth.register", "auth.forgot_password", "auth.reset_password",
                    "main.health", "main.favicon", "i18n.set_language", "static", "bootstrap.static",
                    # sign-in through the identity provider (404 while it is not configured)
                    "auth.oidc_login", "auth.oidc_callback"}


def _routes(app):
    for rule in app.url_map.iter_rules():
        args = {}
        for name, converter in rule._converters.items():
            args[name] = 1 if isinstance(converter, (IntegerConverter, FloatConverter)) else "x"
        path = rule.build(args, append_unknown=False)[1]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, path


def test_public_endpoints_are_exactly_the_expected_ones(app):
    public = {endpoint for endpoint in app.view_functions if access_of(endpoint, app) is Access.PUBLIC}
    assert public == PUBLIC_ENDPOINTS


def test_anonymous_is_denied_everywhere_but_public_endpoints(client, clean_app):
    token = csrf_token(client)
    checked = 0
    for endpoint, method, path in _routes(clean_app):
        if endpoint in PUBLIC_ENDPOINTS:
            continue
        response = client.open(path, method=method, data={"csrf_token": token})
        assert response.status_code in (302, 401), (endpoint, method, response.status_code)
        if response.status_code == 302:
            assert re.search(r"/auth/login", response.headers["Location"]), (endpoint, response.headers["Location"])
        checked += 1
    assert checked >= 5


def test_annotators_cannot_reach_admin_endpoints(user_client, clean_app):
    token = csrf_token(user_client, "/auth/password")
    checked = 0
    for endpoint, method, path in _routes(clean_app):
        if access_of(endpoint, clean_app) is not Access.ADMIN:
            continue
        response = user_client.open(path, method=method, data={"csrf_token": token})
        assert response.status_code == 403, (endpoint, method, response.status_code)
        checked += 1
    assert checked >= 4


def test_admin_reaches_admin_pages(admin_client):
    for path in ("/users/", "/users/new", "/"):
        assert admin_client.get(path).status_code == 200, path


def test_json_clients_get_401_not_a_redirect(client):
    response = client.get("/users/", headers={"Accept": "application/json"})
    assert response.status_code == 401
    assert response.get_json() == {"error": "login required"}


@pytest.mark.parametrize("path", ["/auth/login", "/users/new", "/auth/logout"])
def test_post_without_csrf_token_is_rejected(admin_client, path):
    response = admin_client.post(path, data={"email": "x@example.org", "name": "x", "role": "ADMIN",
                                             "window_size": 100})
    assert response.status_code == 400
    assert b"security token" in response.data


def test_ajax_post_accepts_csrf_header(admin_client):
    token = csrf_token(admin_client, "/users/new")
    response = admin_client.post("/users/new", headers={"X-CSRFToken": token},
                                 data={"email": "ajax@example.org", "name": "Ajax", "role": "USER",
                                       "window_size": 100, "active": "y", "password": "long enough password"})
    assert response.status_code == 302


def test_security_headers(client):
    response = client.get("/auth/login")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "object-src 'none'" in csp
    assert "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Cache-Control"] == "no-store"


def test_assets_are_served_locally(client):
    html = client.get("/auth/login").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:css|js))"', html)
    assert assets, "no stylesheet or script found"
    for asset in assets:
        assert asset.startswith("/"), f"{asset} is not served by psan itself"
        assert client.get(asset).status_code == 200, asset
    assert "<script>" not in html  # no inline scripts: the CSP forbids them
