"""Sessions end on the server: logout and deactivation end them for good, cookies are secure and short-lived,
and the CSRF token rotates at login.
"""
from __future__ import annotations

import re

from tests.helpers import (
    PASSWORD,
    Auth,
    account_id,
    csrf_token,
    make_account,
    sql,
)


# --- secure cookies, CSRF at login ---------------------------------------------------------------------------
def test_production_session_and_remember_cookies_are_secure_httponly_and_samesite(clean_app, database_url,
                                                                                  redis_url):
    from psan import create_app
    from tests.services import app_config
    production = create_app(app_config(database_url, redis_url, PSAN_CONFIG="production",
                                       SECRET_KEY="a-long-enough-production-secret-" + "z" * 16))
    make_account(clean_app, "cookie@example.org")
    client = production.test_client()
    page = client.get("/auth/login", base_url="https://localhost").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"', page)
    response = client.post("/auth/login", data={"email": "cookie@example.org", "password": PASSWORD,
                                                "remember": "y", "csrf_token": token.group(1) or token.group(2)},
                           base_url="https://localhost", headers={"Referer": "https://localhost/auth/login"})
    assert response.status_code == 302
    cookies = {c.split("=", 1)[0]: c.lower() for c in response.headers.getlist("Set-Cookie")}
    assert {"session", "remember_token"} <= set(cookies)
    for name in ("session", "remember_token"):
        flags = [f.strip() for f in cookies[name].split(";")]
        assert "secure" in flags and "httponly" in flags and "samesite=lax" in flags, (name, flags)
    remember = [f.strip() for f in cookies["remember_token"].split(";")]
    assert any(f.startswith("expires=") for f in remember)  # a bounded lifetime (REMEMBER_COOKIE_DURATION)


def test_csrf_token_rotates_at_login_and_a_token_of_another_session_is_refused(clean_app):
    make_account(clean_app, "victim@example.org")
    attacker = clean_app.test_client()
    attackers_token = csrf_token(attacker)
    victim = clean_app.test_client()
    before = csrf_token(victim)
    assert Auth(victim).login("victim@example.org").status_code == 302
    after = csrf_token(victim, "/auth/password")
    assert after != before
    for stale in (before, attackers_token):  # neither the pre-login token nor another session's works
        assert victim.post("/auth/logout", data={"csrf_token": stale}).status_code == 400
    assert victim.get("/workspace/").status_code == 200  # still logged in
    assert victim.post("/auth/logout", data={"csrf_token": after}).status_code == 302


# --- sessions end server-side -------------------------------------------------------------------------------
def _saved_cookies(client) -> dict[str, str]:
    return {name: client.get_cookie(name).value for name in ("session", "remember_token") if client.get_cookie(name)}


def _replay(app, cookies: dict[str, str]) -> int:
    thief = app.test_client()
    for name, value in cookies.items():
        thief.set_cookie(name, value)
    return thief.get("/auth/password").status_code


def _remembered_login(app, email: str):
    client = app.test_client()
    response = client.post("/auth/login", data={"email": email, "password": PASSWORD, "remember": "y",
                                                 "csrf_token": csrf_token(client)})
    assert response.status_code == 302
    cookies = _saved_cookies(client)
    assert set(cookies) == {"session", "remember_token"} and _replay(app, cookies) == 200
    return client, cookies


def test_logout_ends_saved_session_and_remember_cookies(clean_app):
    make_account(clean_app, "a@example.org")
    client, cookies = _remembered_login(clean_app, "a@example.org")
    assert _replay(clean_app, {"remember_token": cookies["remember_token"]}) == 200
    assert client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/auth/password")}).status_code == 302
    assert _replay(clean_app, cookies) == 302
    assert _replay(clean_app, {"session": cookies["session"]}) == 302
    assert _replay(clean_app, {"remember_token": cookies["remember_token"]}) == 302


def test_deactivation_ends_sessions_for_good(clean_app, admin_client):
    make_account(clean_app, "b@example.org")
    _, cookies = _remembered_login(clean_app, "b@example.org")
    uid = account_id(clean_app, "b@example.org")
    token = csrf_token(admin_client, f"/users/{uid}")
    form = {"name": "b", "role": "USER", "window_size": 300, "csrf_token": token}
    assert admin_client.post(f"/users/{uid}", data=form).status_code == 302  # "active" unticked
    assert sql(clean_app, "SELECT active FROM account WHERE id = %s", (uid,))[0]["active"] is False
    assert admin_client.post(f"/users/{uid}", data={**form, "active": "y"}).status_code == 302
    assert _replay(clean_app, cookies) == 302
    assert _replay(clean_app, {"remember_token": cookies["remember_token"]}) == 302


def test_remember_cookie_lifetime_is_short_and_configurable(clean_app):
    make_account(clean_app, "c@example.org")
    client, _ = _remembered_login(clean_app, "c@example.org")
    assert clean_app.config["REMEMBER_COOKIE_DURATION"] == 14 * 24 * 3600
    cookie = client.get_cookie("remember_token")
    import datetime
    assert cookie.expires is not None
    left = cookie.expires.replace(tzinfo=datetime.UTC) - datetime.datetime.now(datetime.UTC)
    assert datetime.timedelta(days=13) < left <= datetime.timedelta(days=14, minutes=1)


# --- CSRF rotation at login ----------------------------------------------------------------------------------
def test_csrf_token_rotates_at_login(clean_app):
    make_account(clean_app, "d@example.org")
    client = clean_app.test_client()
    before = csrf_token(client)
    with client.session_transaction() as session:
        raw_before = session["csrf_token"]
    assert client.post("/auth/login", data={"email": "d@example.org", "password": PASSWORD,
                                            "csrf_token": before}).status_code == 302
    with client.session_transaction() as session:
        assert session.get("csrf_token") != raw_before
    after = csrf_token(client, "/auth/password")
    assert after != before
    # the token from before the login no longer works
    assert client.post("/auth/logout", data={"csrf_token": before}).status_code == 400
    assert client.post("/auth/logout", data={"csrf_token": after}).status_code == 302
