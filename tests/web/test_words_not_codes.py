"""Pages show words in the user's language, not codes: document statuses (English and Czech, in the list,
the annotation window and the helper), and the Czech release report and rules pages.
"""
from __future__ import annotations

import re

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from tests.documents import add_document
from tests.helpers import Auth, default_project, join_project, make_account, sql
from tests.services import app_config
from tests.web.helpers import add_rule, annotator_client


# --- the Czech interface shows words, dates and plural forms, not codes -------------------------------------
def test_czech_release_report_and_rules_pages_show_no_raw_codes(admin_client, clean_app):
    import re as regex

    from tests.helpers import account_id
    from tests.web.helpers import api_decide
    app = clean_app
    project = default_project(app)
    doc = add_document(app, "Yesterday John Smith met Mary Brown. Call 777 123 456.",
                       [("John Smith", "PERSON"), ("Mary Brown", "PERSON"), ("777 123 456", "PHONE")])
    sql(app, "UPDATE rule SET confidence = -1 WHERE condition = 'PHONE'")
    add_rule(app, project, "Leeds", confidence=1, author_id=account_id(app, "admin@example.org"))
    annotator = annotator_client(app, "a3-12@example.org", window_size=100)
    window = annotator.get("/annotate/api/window").get_json()
    john = next(a for a in window["annotations"] if a["decision"] == "SUSPICIOUS")
    assert api_decide(annotator, doc, john["first_token"], john["end_token"], "PRIVATE")[0] == 200
    admin_client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    page = admin_client.get(f"/documents/project/{project}/release").get_data(as_text=True)
    body = page.split("<main", 1)[-1]
    for code in ("PRIVATE:", "PUBLIC:", "SUSPICIOUS:", "PERSON:", "CONTACT:", ">token<", ">entity<",
                 "pre-annotation:", "person:", "undecided:"):
        assert code not in body, code
    assert "soukromé:" in body and "osoba:" in body and "člověkem:" in body
    assert not regex.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", body)  # no raw ISO timestamps
    rules = admin_client.get(f"/rules/?project={project}").get_data(as_text=True).split("<main", 1)[-1]
    assert ">WORD_TYPE<" not in rules and ">NE_TYPE<" not in rules and ">public<" not in rules
    assert "typ slova" in rules and "typ entity" in rules and "veřejné" in rules
    # plural forms: 1 / 2-4 / 5+ in Czech
    listing = admin_client.get(f"/documents/?project={project}").get_data(as_text=True)
    assert regex.search(r"\b1 nerozhodnutý úsek zakryt|\b[234] nerozhodnuté úseky zakryty", listing), listing[-3000:]
    # the language drop-down shows the code with the language's name, wide enough to read
    assert "cs · čeština" in listing and "doc-language-select" in listing
    assert ".doc-language-select" in admin_client.get("/static/psan.css").get_data(as_text=True)


PO = "psan/translations/cs/LC_MESSAGES/messages.po"


def _documents_with_every_status(app) -> dict[str, int]:
    project = default_project(app)
    ids = {}
    for status in ("NEW", "RECOGNIZED", "PRE_ANNOTATED", "DONE", "FAILED"):
        # queued_at set: handed to the broker (a NEW row without it reads "Waiting for the queue")
        ids[status] = sql(app, "INSERT INTO document (project_id, name, language, status, text, error, queued_at) "
                               "VALUES (%s, %s, 'en', %s, 'x', %s, now()) RETURNING id",
                          (project, f"{status.lower()}.txt", status, "boom" if status == "FAILED" else None))[0]["id"]
    return ids


def _badges(html: str) -> dict[str, str]:
    """status code → the word shown in the documents list."""
    return dict(re.findall(r'class="doc-status[^"]*" data-status="(\w+)">([^<]*)</span>', html))


@pytest.fixture(scope="module")
def _czech_app(database_url, redis_url, tmp_path_factory):
    from psan import create_app
    folder = tmp_path_factory.mktemp("translations")
    (folder / "cs" / "LC_MESSAGES").mkdir(parents=True)
    with open(PO, "rb") as src, open(folder / "cs" / "LC_MESSAGES" / "messages.mo", "wb") as dst:
        write_mo(dst, read_po(src))
    return create_app(app_config(database_url, redis_url, BABEL_TRANSLATION_DIRECTORIES=str(folder)))


@pytest.fixture()
def czech_app(_czech_app):
    """The app with the Czech catalogue compiled from the .po now (the committed .mo is rebuilt at release).

    Flask-Babel caches loaded catalogues in its (process-wide) domain, whichever app loaded them:
    the cache is emptied before, so this app loads its own, and after, so no other app sees them.
    """
    from psan.web.i18n import babel
    babel.domain_instance.cache.clear()
    yield _czech_app
    babel.domain_instance.cache.clear()


def _czech_client(app, email: str):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    assert Auth(client).login(email).status_code == 302
    return client


# --- statuses as words ----------------------------------------------------------------
def test_statuses_are_words_in_english(admin_client, clean_app):
    _documents_with_every_status(clean_app)
    html = admin_client.get("/documents/").get_data(as_text=True)
    assert _badges(html) == {"NEW": "Waiting for recognition", "RECOGNIZED": "Applying rules",
                             "PRE_ANNOTATED": "To annotate", "DONE": "Done", "FAILED": "Failed"}
    live = admin_client.get(f"/documents/status?project={default_project(clean_app)}").get_json()
    assert {d["status"]: d["status_name"] for d in live["documents"]}["PRE_ANNOTATED"] == "To annotate"


def test_statuses_are_words_in_czech(clean_app, czech_app):
    make_account(clean_app, "admin@example.org", "ADMIN")
    _documents_with_every_status(clean_app)
    client = _czech_client(czech_app, "admin@example.org")
    html = client.get("/documents/").get_data(as_text=True)
    assert _badges(html) == {"NEW": "Čeká na rozpoznání", "RECOGNIZED": "Uplatňují se pravidla",
                             "PRE_ANNOTATED": "K anotaci", "DONE": "Hotovo", "FAILED": "Selhalo"}
    live = client.get(f"/documents/status?project={default_project(clean_app)}").get_json()
    assert {d["status"]: d["status_name"] for d in live["documents"]}["DONE"] == "Hotovo"


def test_status_name_helper_keeps_unknown_codes(clean_app):
    from psan.web.code_names import status_name
    with clean_app.test_request_context(headers={"Accept-Language": "en"}):
        assert status_name("FAILED") == "Failed"
        assert status_name("SOMETHING_NEW") == "SOMETHING_NEW"


def test_annotation_window_carries_the_status_word(clean_app):
    sql(clean_app, "UPDATE project SET ask_labels = false WHERE is_default")
    make_account(clean_app, "annotator@example.org")
    join_project(clean_app, default_project(clean_app), "annotator@example.org")
    add_document(clean_app, "Jan Novák lives in Praha. Nothing else happens here.", [("Jan Novák", "PERSON")])
    client = clean_app.test_client()
    Auth(client).login("annotator@example.org")
    data = client.get("/annotate/api/window").get_json()
    assert data["document"]["status"] == "PRE_ANNOTATED"
    assert data["document"]["status_name"] == "To annotate"
    assert data["project"]["ask_labels"] is False


def test_a_classifier_type_is_named_by_its_category_and_shape(clean_app, czech_app):
    """A rule on ``CLS_PERSON_CAP`` decides the classifier's capitalized persons, not every person: it says so."""
    from psan.web.code_names import ne_type_name
    with clean_app.test_request_context(headers={"Accept-Language": "en"}):
        assert ne_type_name("CLS_PERSON_CAP") == "person found by the classifier: a capitalized word"
        assert ne_type_name("CLS_ORGANIZATION_INITIAL") == \
            "organization found by the classifier: a sentence's first word"
        assert ne_type_name("PERSON") == "person"
        assert "CLS" not in ne_type_name("CLS_NOT_A_CATEGORY_CAP")
    with czech_app.test_request_context(headers={"Accept-Language": "cs"}):
        assert ne_type_name("CLS_DATE_NUM") == "datum podle klasifikátoru: číslo"
