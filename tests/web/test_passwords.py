"""The password policy holds on every way to set a password (forms and the command line), and password
changes are rate-limited.
"""
from __future__ import annotations

import pytest

from tests.helpers import (
    Auth,
    csrf_token,
    make_account,
    sql,
)


# --- the command line applies the password policy -----------------------------------------------------------
@pytest.mark.parametrize("password", ["aaaaaaaaaa", "1234567890", "password123", "cli-admin@example.org",
                                      "abcabcabcabc"])
def test_create_admin_applies_the_password_policy(clean_app, password):
    runner = clean_app.test_cli_runner()
    result = runner.invoke(args=["create-admin", "--email", "cli-admin@example.org", "--password", password])
    assert result.exit_code != 0, result.output
    assert "Error" in result.output and "created" not in result.output
    assert not sql(clean_app, "SELECT id FROM account WHERE email = 'cli-admin@example.org'")
    good = runner.invoke(args=["create-admin", "--email", "cli-admin@example.org",
                               "--password", "quiet violet harbour"])
    assert good.exit_code == 0 and "created" in good.output, good.output


def test_password_change_is_rate_limited(clean_app):
    make_account(clean_app, "e@example.org")
    client = clean_app.test_client()
    assert Auth(client).login("e@example.org").status_code == 302
    token = csrf_token(client, "/auth/password")
    statuses = [client.post("/auth/password", data={"current": f"guess number {n}", "password": "Xk3-plover-tangent",
                                                     "confirm": "Xk3-plover-tangent", "csrf_token": token}).status_code
                for n in range(11)]
    assert statuses[:10] == [200] * 10 and statuses[10] == 429, statuses


@pytest.mark.parametrize("password", ["aaaaaaaaaa", "1234567890", "abcdefghij", "password123", "qwertyuiop",
                                      "iloveyou2024", "f@example.org", "F@Example.org", "abcabcabcabc",
                                      "correct horse battery staple"])
def test_weak_passwords_are_refused(clean_app, password):
    make_account(clean_app, "f@example.org")
    client = clean_app.test_client()
    assert Auth(client).login("f@example.org").status_code == 302
    response = client.post("/auth/password", data={"current": "correct horse battery staple", "password": password,
                                                   "confirm": password,
                                                   "csrf_token": csrf_token(client, "/auth/password")})
    assert response.status_code == 200
    assert "invalid-feedback" in response.get_data(as_text=True) or "is-invalid" in response.get_data(as_text=True)
    assert Auth(clean_app.test_client()).login("f@example.org").status_code == 302  # the old password still works


def test_policy_applies_to_every_password_form(clean_app, admin_client):
    from psan.identity.password_policy import common_passwords
    assert len(common_passwords()) > 5000 and "password1" in common_passwords()
    token = csrf_token(admin_client, "/users/new")
    base = {"name": "G", "role": "USER", "window_size": 300, "active": "y", "csrf_token": token}
    weak = admin_client.post("/users/new", data={**base, "email": "g@example.org", "password": "g@example.org"})
    assert weak.status_code == 200 and not sql(clean_app, "SELECT 1 FROM account WHERE email = 'g@example.org'")
    good = admin_client.post("/users/new", data={**base, "email": "g@example.org", "password": "Xk3-plover-tangent"})
    assert good.status_code == 302
    # a reset link refuses the account's e-mail too
    from psan.identity import accounts, signing
    with clean_app.test_request_context():
        link_token = signing.make_reset_token(accounts.get_by_email("g@example.org"))
    client = clean_app.test_client()
    page = f"/auth/reset/{link_token}"
    response = client.post(page, data={"password": "G@example.org", "confirm": "G@example.org",
                                       "csrf_token": csrf_token(client, page)})
    assert response.status_code == 200 and "e-mail" in response.get_data(as_text=True)
