"""Sign-in through an identity provider: a real OpenID Connect provider (oidc-provider-mock, built on
Authlib's server) runs in a thread; psan's Authlib client talks to it over HTTP, checks its ID tokens
with its published keys, and nothing of psan's client is replaced."""
from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from tests.helpers import PASSWORD, Auth, account_id, csrf_token, join_project, make_account, new_project, sql
from tests.services import app_config

oidc_provider_mock = pytest.importorskip("oidc_provider_mock", reason="needs oidc-provider-mock (dev extra)")

ADMINS = "psan-admins"


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    with oidc_provider_mock.run_server_in_thread() as server:
        yield f"http://localhost:{server.server_port}"


@pytest.fixture()
def oidc_app(clean_app, provider, database_url, redis_url):
    """An app of this session's database with the provider configured (claim ``groups`` ∋ psan-admins → admin)."""
    from psan import create_app
    return create_app(app_config(database_url, redis_url, OIDC_ISSUER=provider, OIDC_CLIENT_ID="psan-test",
                                 OIDC_CLIENT_SECRET="psan-test-secret", OIDC_ROLE_CLAIM="groups",
                                 OIDC_ADMIN_VALUES=[ADMINS], RATELIMIT_ENABLED=False))


def person(provider: str, sub: str, email: str, groups: list[str] | None = None) -> None:
    """The provider's record of a person (what its ID tokens will claim)."""
    claims = {"email": email, "email_verified": True, "name": sub.title()}
    if groups is not None:
        claims["groups"] = groups
    requests.put(f"{provider}/users/{sub}", json=claims, timeout=10).raise_for_status()


def provider_answer(client, sub: str) -> str:
    """Start the sign-in at psan, authenticate ``sub`` at the provider; the callback path+query it sends back."""
    start = client.get("/auth/oidc/login")
    assert start.status_code == 302, start.get_data(as_text=True)
    authorize = start.headers["Location"]
    answer = requests.post(authorize, data={"sub": sub}, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text
    callback = urlsplit(answer.headers["Location"])
    assert callback.path == "/auth/oidc/callback"
    return f"{callback.path}?{callback.query}"


def sign_in(client, sub: str):
    return client.get(provider_answer(client, sub))


def whoami(app, sub: str) -> dict:
    return sql(app, "SELECT a.id, a.email, a.name, a.role::text AS role, a.active, a.password_hash FROM account a "
                    "JOIN account_identity i ON i.account_id = a.id WHERE i.subject = %s", (sub,))[0]


def test_the_login_page_offers_the_provider_only_when_configured(client, oidc_app):
    assert "/auth/oidc/login" not in client.get("/auth/login").get_data(as_text=True)
    assert client.get("/auth/oidc/login").status_code == 404
    page = oidc_app.test_client().get("/auth/login").get_data(as_text=True)
    assert "/auth/oidc/login" in page and "Sign in with your institution" in page
    czech = oidc_app.test_client().get("/auth/login", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "Přihlásit se přes svou instituci" in czech


def test_first_sign_in_makes_an_annotator_without_a_project_until_an_admin_adds_one(oidc_app, provider):
    person(provider, "eva", "Eva.Novak@Example.org")
    client = oidc_app.test_client()
    response = sign_in(client, "eva")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert client.get("/workspace/").status_code == 200
    eva = whoami(oidc_app, "eva")
    assert (eva["email"], eva["name"], eva["role"], eva["password_hash"]) == ("eva.novak@example.org", "Eva", "USER",
                                                                              None)
    assert sql(oidc_app, "SELECT count(*) AS n FROM project_member WHERE account_id = %s", (eva["id"],))[0]["n"] == 0
    assert client.get("/users/").status_code == 403  # an annotator, not an admin
    project = new_project(oidc_app, "Court decisions")
    join_project(oidc_app, project, "eva.novak@example.org")
    assert "Court decisions" in client.get("/workspace/").get_data(as_text=True)
    # the second sign-in finds the same account by (issuer, subject), not a new one
    client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/workspace/")})
    assert sign_in(client, "eva").status_code == 302
    assert sql(oidc_app, "SELECT count(*) AS n FROM account")[0]["n"] == 1


def test_the_role_claim_makes_an_admin_and_taking_it_back_demotes(oidc_app, provider):
    make_account(oidc_app, "boss@example.org", "ADMIN")  # a local admin, so the claimed one is not the last
    person(provider, "adam", "adam@example.org", groups=["staff", ADMINS])
    client = oidc_app.test_client()
    assert sign_in(client, "adam").status_code == 302
    assert whoami(oidc_app, "adam")["role"] == "ADMIN"
    users = client.get("/users/").get_data(as_text=True)
    assert users.count("institution sign-in") == 1  # adam, not the local boss
    person(provider, "adam", "adam@example.org", groups=["staff"])
    client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/users/")})
    assert sign_in(client, "adam").status_code == 302
    assert whoami(oidc_app, "adam")["role"] == "USER"
    assert client.get("/users/").status_code == 403


def test_an_admin_assigns_the_role_and_the_claim_leaves_it_alone(oidc_app, provider):
    person(provider, "ida", "ida@example.org", groups=["staff"])
    client = oidc_app.test_client()
    assert sign_in(client, "ida").status_code == 302
    ida = whoami(oidc_app, "ida")
    make_account(oidc_app, "boss@example.org", "ADMIN")
    boss = Auth(oidc_app.test_client())
    boss.login("boss@example.org", PASSWORD)
    saved = boss.client.post(f"/users/{ida['id']}", data={
        "csrf_token": csrf_token(boss.client, f"/users/{ida['id']}"), "name": "Ida", "role": "ADMIN",
        "window_size": 300, "active": "y"})
    assert saved.status_code == 302
    client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/workspace/")})
    assert sign_in(client, "ida").status_code == 302
    assert whoami(oidc_app, "ida")["role"] == "ADMIN"  # the claim never gave it, so it never takes it back
    assert client.get("/users/").status_code == 200


def test_logout_ends_the_session(oidc_app, provider):
    person(provider, "lea", "lea@example.org")
    client = oidc_app.test_client()
    sign_in(client, "lea")
    assert client.get("/workspace/").status_code == 200
    response = client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/workspace/")})
    assert response.status_code == 302
    assert client.get("/workspace/").status_code == 302


def test_a_deactivated_account_is_refused_and_loses_its_session(oidc_app, provider):
    person(provider, "dan", "dan@example.org")
    client = oidc_app.test_client()
    sign_in(client, "dan")
    assert client.get("/workspace/").status_code == 200
    make_account(oidc_app, "boss@example.org", "ADMIN")
    boss = Auth(oidc_app.test_client())
    boss.login("boss@example.org", PASSWORD)
    dan = account_id(oidc_app, "dan@example.org")
    boss.client.post(f"/users/{dan}", data={"csrf_token": csrf_token(boss.client, f"/users/{dan}"), "name": "Dan",
                                            "role": "USER", "window_size": 300})
    assert client.get("/workspace/").status_code == 302  # the running session ends
    refused = sign_in(client, "dan")
    assert refused.status_code == 302 and refused.headers["Location"] == "/auth/login"
    assert "deactivated" in client.get("/auth/login").get_data(as_text=True)
    assert client.get("/workspace/").status_code == 302


def test_a_forged_state_is_refused(oidc_app, provider):
    person(provider, "eve", "eve@example.org")
    victim, attacker = oidc_app.test_client(), oidc_app.test_client()
    answer = provider_answer(attacker, "eve")
    victim.get("/auth/oidc/login")  # the victim has a sign-in of their own under way
    refused = victim.get(answer)  # the attacker's code and state, in the victim's session
    assert refused.status_code == 302 and refused.headers["Location"] == "/auth/login"
    assert victim.get("/workspace/").status_code == 302
    query = parse_qs(urlsplit(answer).query)
    forged = attacker.get("/auth/oidc/callback?" + urlencode({"code": query["code"][0], "state": "forged"}))
    assert forged.status_code == 302 and forged.headers["Location"] == "/auth/login"
    assert attacker.get("/workspace/").status_code == 302
    assert sql(oidc_app, "SELECT count(*) AS n FROM account")[0]["n"] == 0


def test_a_local_account_with_the_same_email_is_not_taken_over(oidc_app, provider):
    make_account(oidc_app, "kim@example.org")
    person(provider, "kim-at-idp", "kim@example.org")
    client = oidc_app.test_client()
    refused = sign_in(client, "kim-at-idp")
    assert refused.status_code == 302 and refused.headers["Location"] == "/auth/login"
    assert client.get("/workspace/").status_code == 302
    assert sql(oidc_app, "SELECT count(*) AS n FROM account_identity")[0]["n"] == 0


def test_a_provider_account_gets_no_reset_link(oidc_app, provider, monkeypatch):
    import psan.auth.views
    sent = []
    monkeypatch.setattr(psan.auth.views, "send_reset_link", lambda account: sent.append(account.email))
    person(provider, "rob", "rob@example.org")
    client = oidc_app.test_client()
    sign_in(client, "rob")
    client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/workspace/")})
    client.post("/auth/forgot", data={"csrf_token": csrf_token(client, "/auth/forgot"), "email": "rob@example.org"})
    assert sent == []
