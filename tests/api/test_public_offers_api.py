"""Offered public rules over HTTP: the token API (listed in the OpenAPI document) and the pages' JSON routes, with
the roles held on the server: offers show words of every document, so only admins see and answer them (annotators,
members or not, get 403); a token of another project 403; a read-only token may list but not answer."""
from __future__ import annotations

import pytest
from openapi_spec_validator import validate

from psan.runtime import db
from psan.store.corpus.documents import load_document
from psan.store.corpus.rule_changes import reannotate_changed
from psan.store.corpus.vocabulary import save_vocabulary
from tests.api.tokens import bearer, make_token
from tests.documents import add_document, decide_phrase
from tests.helpers import Auth, account_id, make_account, meta_csrf, new_project, sql

TEXT = "The Supreme Court of Ruritania heard the case. Later the Supreme Court of Ruritania ruled."
FORM = "supreme court of ruritania"


@pytest.fixture()
def offered(clean_app):
    """A project whose persons decided the court public three times in three documents (one mention left in each
    document undecided), an annotator who is a member, one of another project, an admin, tokens."""
    app = clean_app
    make_account(app, "admin@example.org", "ADMIN")
    make_account(app, "member@example.org", "USER")
    make_account(app, "stranger@example.org", "USER")
    mine, other = new_project(app, "Courts"), new_project(app, "Elsewhere")
    for project, email in ((mine, "member@example.org"), (other, "stranger@example.org")):
        sql(app, "INSERT INTO project_member (project_id, account_id) VALUES (%s, %s)",
            (project, account_id(app, email)))
    docs = [add_document(app, TEXT, [("Supreme Court of Ruritania", "ORG")], project_id=mine, name=f"d{i}.txt")
            for i in range(3)]
    with app.app_context(), db.transaction() as conn:
        for doc in docs:
            save_vocabulary(conn, doc, load_document(conn, doc))
    for doc in docs:
        decide_phrase(app, mine, doc, "Supreme Court of Ruritania", "PUBLIC", account_id(app, "member@example.org"))
    with app.app_context():
        reannotate_changed(db.transaction, mine)
    return {"app": app, "project": mine, "other": other, "docs": docs,
            "member": make_token(app, "member@example.org", "annotate"),
            "admin": make_token(app, "admin@example.org", "admin", [mine]),
            "stranger": make_token(app, "stranger@example.org", "annotate"),
            "read": make_token(app, "admin@example.org", "read", [mine]),
            "other_project": make_token(app, "admin@example.org", "admin", [other])}


def _path(project_id: int, action: str = "") -> str:
    return f"/api/v1/projects/{project_id}/public-offers" + (f"/{action}" if action else "")


def test_the_api_lists_confirms_and_undoes_offers(client, offered):
    project = offered["project"]
    listed = client.get(_path(project), headers=bearer(offered["admin"]))
    assert listed.status_code == 200, listed.get_json()
    offers = listed.get_json()["offers"]
    assert [o["form"] for o in offers] == [FORM]
    assert offers[0]["public_decisions"] == 3 and offers[0]["documents"] == 3
    assert offers[0]["undecided_mentions"] == 3 and len(offers[0]["mentions"]) == 3
    assert offers[0]["mentions"][0]["text"] == "Supreme Court of Ruritania"
    # the read token lists, but may not answer
    assert client.get(_path(project), headers=bearer(offered["read"])).status_code == 200
    refused = client.post(_path(project, "confirm"), headers=bearer(offered["read"]), json={"form": FORM})
    assert refused.status_code == 403
    # offers show words of every document: an annotator (a member or not) and a token of another project get 403
    for secret, status in ((offered["other_project"], 403), (offered["stranger"], 403), (offered["member"], 403)):
        for method, action in (("GET", ""), ("POST", "confirm"), ("POST", "dismiss"), ("POST", "undo")):
            answer = client.open(_path(project, action), method=method, headers=bearer(secret),
                                 json={"form": FORM} if method == "POST" else None)
            assert answer.status_code == status, (secret, action, answer.get_json())
    assert not sql(offered["app"], "SELECT 1 FROM public_offer")
    # the admin confirms: a public word rule, authored by the admin
    confirmed = client.post(_path(project, "confirm"), headers=bearer(offered["admin"]), json={"form": FORM.upper()})
    assert confirmed.status_code == 200, confirmed.get_json()
    body = confirmed.get_json()
    assert body["state"] == "CONFIRMED" and body["form"] == FORM
    rule = sql(offered["app"], "SELECT condition, case_sensitive, confidence, author_id FROM rule WHERE id = %s",
               (body["rule_id"],))[0]
    assert rule == {"condition": FORM, "case_sensitive": False, "confidence": 1.0,
                    "author_id": account_id(offered["app"], "admin@example.org")}
    again = client.post(_path(project, "confirm"), headers=bearer(offered["admin"]), json={"form": FORM})
    assert again.status_code == 409 and again.get_json()["code"] == "conflict"
    after = client.get(_path(project), headers=bearer(offered["admin"])).get_json()
    assert after["offers"] == [] and after["answered"][0]["state"] == "CONFIRMED"
    undone = client.post(_path(project, "undo"), headers=bearer(offered["admin"]), json={"form": FORM})
    assert undone.status_code == 200 and undone.get_json()["undone"] == "CONFIRMED"
    assert not sql(offered["app"], "SELECT 1 FROM rule WHERE id = %s", (body["rule_id"],))
    nothing = client.post(_path(project, "undo"), headers=bearer(offered["admin"]), json={"form": FORM})
    assert nothing.status_code == 404
    # a form that is not offered: 409, no rule made
    missing = client.post(_path(project, "confirm"), headers=bearer(offered["admin"]),
                          json={"form": "ruritania"})
    assert missing.status_code == 409


def test_the_openapi_document_describes_the_offers(app):
    with app.app_context():
        spec = app.extensions["psan_api"].spec.to_dict()
    validate(spec)
    paths = spec["paths"]
    assert set(paths["/api/v1/projects/{project_id}/public-offers"]) >= {"get"}
    for action in ("confirm", "dismiss", "undo"):
        operation = paths[f"/api/v1/projects/{{project_id}}/public-offers/{action}"]["post"]
        assert operation["x-psan-scopes"] == ["admin"]
        assert operation["requestBody"]["content"]["application/json"]["schema"]
    assert {"Offer", "OfferList", "OfferForm"} <= set(spec["components"]["schemas"])


def _session(app, email: str):
    client = app.test_client()
    assert Auth(client).login(email).status_code == 302
    return client


def test_the_pages_answer_offers_for_admins_only(offered):
    app, project = offered["app"], offered["project"]
    for email in ("stranger@example.org", "member@example.org"):  # annotators see nothing outside their window
        annotator = _session(app, email)
        token = meta_csrf(annotator)
        assert annotator.get(f"/rules/offers/{project}").status_code == 403
        refused = annotator.post(f"/rules/offers/{project}/confirm", json={"form": FORM},
                                 headers={"X-CSRFToken": token})
        assert refused.status_code == 403
        assert "offers-panel" not in annotator.get("/annotate/").get_data(as_text=True)
    admin = _session(app, "admin@example.org")
    token = meta_csrf(admin)
    assert [o["form"] for o in admin.get(f"/rules/offers/{project}").get_json()["offers"]] == [FORM]
    no_csrf = admin.post(f"/rules/offers/{project}/dismiss", json={"form": FORM})
    assert no_csrf.status_code in (400, 403)
    dismissed = admin.post(f"/rules/offers/{project}/dismiss", json={"form": FORM}, headers={"X-CSRFToken": token})
    assert dismissed.status_code == 200 and dismissed.get_json()["offers"] == []
    assert sql(app, "SELECT state FROM public_offer WHERE project_id = %s", (project,)) == [{"state": "DISMISSED"}]
    # the admin's rules page lists the answered offer with its undo
    admin = _session(app, "admin@example.org")
    page = admin.get(f"/rules/?project={project}")
    assert page.status_code == 200 and FORM in page.get_data(as_text=True)
