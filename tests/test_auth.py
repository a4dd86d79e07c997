"""Login, rate limits, password change, reset by e-mail through a real SMTP sink, first-admin link."""
import email
import email.policy
import re
import socket
import time

import pytest
from aiosmtpd.controller import Controller

from psan.identity import signing
from tests.helpers import PASSWORD, Auth, csrf_token, make_account


def test_login_and_logout(client, clean_app, auth):
    make_account(clean_app, "ann@example.org")
    response = auth.login("ann@example.org")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert client.get("/").status_code == 200
    assert auth.logout().status_code == 302
    assert client.get("/").status_code == 302


def test_login_failure_does_not_reveal_which_emails_exist(clean_app, auth):
    make_account(clean_app, "ann@example.org")
    wrong_password = auth.login("ann@example.org", "wrong password!").get_data(as_text=True)
    unknown_email = auth.login("nobody@example.org", "wrong password!").get_data(as_text=True)
    message = "Invalid e-mail or password."
    assert message in wrong_password and message in unknown_email
    strip = re.compile(r'value="[^"]*"')
    assert strip.sub("", wrong_password) == strip.sub("", unknown_email)


def test_disabled_account_cannot_log_in(client, clean_app, auth):
    from psan.runtime import db
    account = make_account(clean_app, "off@example.org")
    with clean_app.app_context(), db.transaction() as conn:
        db.execute("UPDATE account SET active = false WHERE id = %s", (account.id,), conn)
    assert auth.login("off@example.org").status_code == 200
    assert client.get("/").status_code == 302


def test_open_redirect_is_refused(client, clean_app):
    make_account(clean_app, "ann@example.org")
    token = csrf_token(client)
    response = client.post("/auth/login?next=//evil.example/x", data={"email": "ann@example.org",
                                                                      "password": PASSWORD, "csrf_token": token})
    assert response.headers["Location"] == "/"


def test_login_is_rate_limited(client, clean_app):
    token = csrf_token(client)
    codes = [client.post("/auth/login", data={"email": "x@example.org", "password": "nope nope nope",
                                              "csrf_token": token}).status_code for _ in range(11)]
    assert codes[:10] == [200] * 10
    assert codes[10] == 429


def test_password_change_logs_out_other_sessions(clean_app):
    make_account(clean_app, "ann@example.org")
    first, second = clean_app.test_client(), clean_app.test_client()
    Auth(first).login("ann@example.org")
    Auth(second).login("ann@example.org")
    token = csrf_token(first, "/auth/password")
    response = first.post("/auth/password", data={"current": PASSWORD, "password": "a brand new password",
                                                  "confirm": "a brand new password", "csrf_token": token})
    assert response.status_code == 302
    assert first.get("/").status_code == 200
    assert second.get("/").status_code == 302
    assert Auth(clean_app.test_client()).login("ann@example.org", "a brand new password").status_code == 302


def test_password_change_needs_current_password(user_client):
    token = csrf_token(user_client, "/auth/password")
    response = user_client.post("/auth/password", data={"current": "wrong", "password": "a brand new password",
                                                        "confirm": "a brand new password", "csrf_token": token})
    assert response.status_code == 200 and b"current password is wrong" in response.data


class _Sink:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, envelope.content.decode("utf8", "replace")))
        return "250 OK"


@pytest.fixture()
def smtp_sink(clean_app, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sink = _Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    monkeypatch.setitem(clean_app.config, "SMTP_HOST", "127.0.0.1")
    monkeypatch.setitem(clean_app.config, "SMTP_PORT", port)
    yield sink
    controller.stop()


def _reset_link(message: str) -> str:
    body = email.message_from_string(message, policy=email.policy.default).get_content()
    match = re.search(r"http://localhost(/auth/reset/[A-Za-z0-9._-]+)", body)
    assert match, body
    return match.group(1)


def test_password_reset_by_email_is_single_use(client, clean_app, smtp_sink):
    make_account(clean_app, "ann@example.org")
    token = csrf_token(client, "/auth/forgot")
    response = client.post("/auth/forgot", data={"email": "ANN@example.org", "csrf_token": token})
    assert response.status_code == 302
    assert len(smtp_sink.messages) == 1 and smtp_sink.messages[0][0] == ["ann@example.org"]
    path = _reset_link(smtp_sink.messages[0][1])
    token = csrf_token(client, path)
    response = client.post(path, data={"password": "my new password 1", "confirm": "my new password 1",
                                       "csrf_token": token})
    assert response.status_code == 302
    assert Auth(clean_app.test_client()).login("ann@example.org", "my new password 1").status_code == 302
    assert client.get(path).status_code == 404  # used once: the password hash changed


def test_reset_request_for_unknown_email_looks_the_same(client, clean_app, smtp_sink):
    token = csrf_token(client, "/auth/forgot")
    response = client.post("/auth/forgot", data={"email": "nobody@example.org", "csrf_token": token},
                           follow_redirects=True)
    assert b"If an active account uses this address" in response.data
    assert smtp_sink.messages == []


def test_reset_token_expires(clean_app):
    account = make_account(clean_app, "ann@example.org")
    with clean_app.test_request_context():
        token = signing.make_reset_token(account)
        assert signing.account_for_reset_token(token).id == account.id
        time.sleep(1.1)
        with pytest.raises(signing.InvalidToken, match="expired"):
            signing.account_for_reset_token(token, max_age=0)


def test_forged_reset_token_is_refused(client, clean_app):
    make_account(clean_app, "ann@example.org")
    assert client.get("/auth/reset/not-a-token").status_code == 404


def test_reset_is_rate_limited(client, clean_app):
    token = csrf_token(client, "/auth/forgot")
    codes = [client.post("/auth/forgot", data={"email": "x@example.org", "csrf_token": token}).status_code
             for _ in range(6)]
    assert codes[5] == 429


def test_first_admin_registration_link_works_once(client, clean_app):
    from psan.commands.cli import registration_link
    with clean_app.app_context():
        link = registration_link()
    path = link.replace("http://localhost", "")
    token = csrf_token(client, path)
    data = {"name": "Boss", "email": "boss@example.org", "password": "long admin password",
            "confirm": "long admin password", "csrf_token": token}
    assert client.post(path, data=data).status_code == 302
    assert client.get("/users/").status_code == 200  # logged in as admin
    assert clean_app.test_client().get(path).status_code == 404
    with clean_app.app_context():
        assert registration_link() is None


def test_create_admin_command(clean_app):
    runner = clean_app.test_cli_runner()
    result = runner.invoke(args=["create-admin", "--email", "Cli@Example.org", "--password", "long cli password"])
    assert result.exit_code == 0, result.output
    assert Auth(clean_app.test_client()).login("cli@example.org", "long cli password").status_code == 302
    result = runner.invoke(args=["create-admin", "--email", "cli@example.org", "--password", "long cli password"])
    assert result.exit_code != 0 and "already exists" in result.output


def test_without_mail_the_forgot_page_promises_no_link_and_an_admin_makes_one(client, clean_app, admin_client):
    """No "a reset link is on its way" where no e-mail can go; the admin's account page makes the link."""
    account = make_account(clean_app, "ann@example.org")
    page = client.get("/auth/forgot").get_data(as_text=True)
    assert "sends no e-mail" in page and 'name="email"' not in page
    token = csrf_token(client, "/auth/login")
    response = client.post("/auth/forgot", data={"email": "ann@example.org", "csrf_token": token},
                           follow_redirects=True)
    assert b"no reset link was sent" in response.data and b"on its way" not in response.data
    token = csrf_token(admin_client, f"/users/{account.id}")
    response = admin_client.post(f"/users/{account.id}/password-link", data={"csrf_token": token},
                                 follow_redirects=True)
    match = re.search(r"http://localhost(/auth/reset/[A-Za-z0-9._-]+)", response.get_data(as_text=True))
    assert match, response.get_data(as_text=True)
    assert client.get(match.group(1)).status_code == 200
    assert admin_client.post(f"/users/{account.id}/password-link", data={}).status_code == 400  # no CSRF token
