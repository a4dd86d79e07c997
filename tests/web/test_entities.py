"""Entities in PostgreSQL: grouping after pre-annotation, the annotator's entity API, merge and split."""
from __future__ import annotations

import pytest

from psan import db
from psan.store import entities as store_entities
from psan.store import pseudonym_key
from psan.store.documents import load_document
from tests.conftest import login, make_account
from tests.documents import (
    add_document,
    default_project,
    join_project,
    meta_csrf,
    sql,
    token_index,
)

ANNOTATOR = "entities@example.org"
TEXT = ("Jonathan Harper sued the company. Later Harper said that Mr. Harper had not signed. "
        "Anna Berg of Acme Corporation agreed with Berg on it.")
PEOPLE = [("Jonathan Harper", "PERSON"), ("Mr. Harper", "PERSON"), ("Harper", "PERSON"), ("Anna Berg", "PERSON"),
          ("Berg", "PERSON"), ("Acme Corporation", "ORG")]


def _group(app, document_id: int) -> int:
    with app.app_context(), db.transaction() as conn:
        return store_entities.update_document_entities(conn, document_id, load_document(conn, document_id))


def _entity_of(app, document_id: int, first: int, end: int) -> int:
    rows = sql(app, "SELECT entity_id FROM entity_mention WHERE document_id = %s AND first_token = %s "
                    "AND end_token = %s", (document_id, first, end))
    assert rows, (first, end)
    return rows[0]["entity_id"]


@pytest.fixture()
def document(clean_app):
    # entities and identities belong to the project, which survives the per-test reset of documents
    sql(clean_app, "DELETE FROM entity")
    sql(clean_app, "DELETE FROM pseudonym_key")
    doc = add_document(clean_app, TEXT, PEOPLE)
    assert _group(clean_app, doc) > 0
    return doc


@pytest.fixture()
def annotator(clean_app):
    make_account(clean_app, ANNOTATOR, "USER")
    join_project(clean_app, default_project(clean_app), ANNOTATOR)
    sql(clean_app, "UPDATE account SET window_size = 400 WHERE email = %s", (ANNOTATOR,))
    client = clean_app.test_client()
    assert login(client, ANNOTATOR).status_code == 302
    client.environ_base["HTTP_X_CSRFTOKEN"] = meta_csrf(client)
    assert client.get("/annotate/api/window").status_code == 200
    return client


def test_grouping_links_partial_and_titled_names(clean_app, document):
    app = clean_app
    jonathan = token_index(app, document, "Jonathan")
    harpers = [token_index(app, document, "Harper", n) for n in range(3)]
    full = _entity_of(app, document, jonathan, jonathan + 2)
    assert _entity_of(app, document, harpers[1], harpers[1] + 1) == full          # "Harper"
    mr = token_index(app, document, "Mr")
    mr_span = sql(app, "SELECT first_token, end_token FROM entity_mention WHERE document_id = %s AND first_token = %s",
                  (document, mr))
    assert mr_span and _entity_of(app, document, mr, mr_span[0]["end_token"]) == full
    anna = token_index(app, document, "Anna")
    berg = token_index(app, document, "Berg", 1)
    assert _entity_of(app, document, anna, anna + 2) == _entity_of(app, document, berg, berg + 1) != full
    acme = token_index(app, document, "Acme")
    assert _entity_of(app, document, acme, acme + 2) not in (full,)
    # recomputing is idempotent and leaves no orphan entities
    before = sql(app, "SELECT count(*) AS n FROM entity")[0]["n"]
    _group(app, document)
    assert sql(app, "SELECT count(*) AS n FROM entity")[0]["n"] == before


def test_entity_api_merge_and_split(clean_app, document, annotator):
    app = clean_app
    jonathan = token_index(app, document, "Jonathan")
    anna = token_index(app, document, "Anna")
    response = annotator.get("/annotate/api/entity", query_string={"document_id": document, "first_token": jonathan,
                                                                   "end_token": jonathan + 2})
    assert response.status_code == 200, response.get_json()
    entity = response.get_json()["entity"]
    harper_mentions = sql(app, "SELECT count(*) AS n FROM entity_mention WHERE entity_id = %s",
                          (entity["id"],))[0]["n"]
    berg_mentions = sql(app, "SELECT count(*) AS n FROM entity_mention WHERE entity_id = %s",
                        (_entity_of(app, document, anna, anna + 2),))[0]["n"]
    assert harper_mentions >= 4 and berg_mentions >= 2   # nested "Harper" in "Jonathan Harper" counts too
    assert entity["category"] == "PERSON" and entity["mentions"] == harper_mentions and entity["documents"] == 1
    assert entity["label"] is None

    # split "Harper" (second occurrence) off, then merge it back
    harper = token_index(app, document, "Harper", 1)
    r = annotator.post("/annotate/api/entity/split", json={"document_id": document, "first_token": harper,
                                                           "end_token": harper + 1})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["entity"]["mentions"] == 1 and r.get_json()["entity"]["key"].startswith("manual:")
    assert _entity_of(app, document, harper, harper + 1) != _entity_of(app, document, jonathan, jonathan + 2)
    r = annotator.post("/annotate/api/entity/merge", json={
        "document_id": document, "first_token": jonathan, "end_token": jonathan + 2,
        "other_first_token": harper, "other_end_token": harper + 1})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["entity"]["mentions"] == harper_mentions
    # merging two different people is allowed (the annotator decides) but not across categories
    acme = token_index(app, document, "Acme")
    r = annotator.post("/annotate/api/entity/merge", json={
        "document_id": document, "first_token": jonathan, "end_token": jonathan + 2,
        "other_first_token": acme, "other_end_token": acme + 2})
    assert r.status_code == 400 and "categories" in r.get_json()["error"]
    r = annotator.post("/annotate/api/entity/merge", json={
        "document_id": document, "first_token": jonathan, "end_token": jonathan + 2,
        "other_first_token": anna, "other_end_token": anna + 2})
    assert r.status_code == 200 and r.get_json()["entity"]["mentions"] == harper_mentions + berg_mentions
    # manual mentions survive a recomputation
    _group(app, document)
    assert _entity_of(app, document, anna, anna + 2) == _entity_of(app, document, jonathan, jonathan + 2)
    log = sql(app, "SELECT action FROM decision_log WHERE document_id = %s ORDER BY id", (document,))
    assert [r["action"] for r in log] == ["entity_split", "entity_merge", "entity_merge"]


def test_entity_api_refuses_bad_input(clean_app, document, annotator):
    cases = [({"document_id": document}, 400),
             ({"document_id": document, "first_token": "x", "end_token": 2}, 400),
             ({"document_id": 10**12, "first_token": 0, "end_token": 2}, 403)]
    for params, status in cases:
        r = annotator.get("/annotate/api/entity", query_string=params)
        assert r.status_code == status, (params, r.get_json())
        assert "error" in r.get_json()
    sued = token_index(clean_app, document, "sued")
    r = annotator.post("/annotate/api/entity/split", json={"document_id": document, "first_token": sued,
                                                           "end_token": sued + 1})
    assert r.status_code == 400 and "No entity" in r.get_json()["error"]
    r = annotator.get("/annotate/api/entity", query_string={"document_id": document, "first_token": sued,
                                                            "end_token": sued + 1})
    assert r.status_code == 200 and r.get_json() == {"entity": None}
    r = annotator.post("/annotate/api/entity/merge", json=[1, 2])
    assert r.status_code == 400


def test_label_of_an_entity_is_proposed(clean_app, document, annotator):
    app = clean_app
    label = sql(app, "INSERT INTO label (project_id, name, category) VALUES (%s, 'harper', 'PERSON') RETURNING id",
                (default_project(app),))[0]["id"]
    jonathan = token_index(app, document, "Jonathan")
    sql(app, "UPDATE annotation SET token_decision = 'PRIVATE', token_label_id = %s WHERE document_id = %s "
             "AND first_token = %s AND end_token = %s", (label, document, jonathan, jonathan + 2))
    harper = token_index(app, document, "Harper", 1)
    r = annotator.get("/annotate/api/entity", query_string={"document_id": document, "first_token": harper,
                                                            "end_token": harper + 1})
    assert r.get_json()["entity"]["label"] == {"id": label, "name": "harper", "category": "PERSON"}


def test_pseudonym_key_keeps_identities(clean_app):
    app = clean_app
    pid = default_project(app)
    with app.app_context(), db.transaction() as conn:
        assert pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person", "names": {"last:a": "B"}}}) == 1
        # stored values win, new parts are added
        pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person", "names": {"last:a": "X",
                                                                                          "first:c": "D"}}})
        assert pseudonym_key.load_identities(conn, pid) == {
            "person-1": {"kind": "person", "names": {"last:a": "B", "first:c": "D"}}}
        assert pseudonym_key.save_identities(conn, pid, {"person-1": {"kind": "person"}}) == 0
        pseudonym_key.clear(conn, pid)
        assert pseudonym_key.load_identities(conn, pid) == {}


def _download(client, document_id: int) -> str:
    response = client.get(f"/documents/{document_id}/download/pseudonymize")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def test_pseudonymized_download_uses_one_identity_and_annotators_corrections(clean_app, document, annotator):
    app = clean_app
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE'")  # every recognized span private
    from psan.store.annotate import reannotate_document_now
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, document)
    make_account(app, "admin@example.org", "ADMIN")
    admin = app.test_client()
    assert login(admin, "admin@example.org").status_code == 302
    pattern = (r"(\S+) (\S+) sued the company\. Later (\S+) said that Mr\. (\S+) had not signed\. "
               r"(\S+) (\S+) of (.+) agreed with (\S+) on it\.")
    import re
    out = _download(admin, document)
    m = re.fullmatch(pattern, out)
    assert m, out
    first, last, alone, mr, anna, berg, _acme, berg_alone = m.groups()
    assert last == alone == mr and berg == berg_alone and last != berg
    for word in ("Jonathan", "Harper", "Anna", "Berg", "Acme"):
        assert word not in out
    assert _download(admin, document) == out  # same state, same bytes
    stored = sql(app, "SELECT identity FROM pseudonym_key WHERE project_id = %s", (default_project(app),))
    assert any(r["identity"].get("surname") == last for r in stored)

    # an annotator says the lone "Harper" is someone else: the output follows
    harper = token_index(app, document, "Harper", 1)
    r = annotator.post("/annotate/api/entity/split", json={"document_id": document, "first_token": harper,
                                                           "end_token": harper + 1})
    assert r.status_code == 200, r.get_json()
    m2 = re.fullmatch(pattern, _download(admin, document))
    assert m2 and m2.group(2) == last == m2.group(4) and m2.group(3) != last


@pytest.mark.worker
def test_worker_groups_entities_after_pre_annotation(clean_app, admin_client, celery_worker):
    import time

    from tests.conftest import csrf_token
    app = clean_app
    sql(app, "DELETE FROM entity")
    text = ("Jonathan Harper met Mary Brown in London. Later Mr. Harper wrote to Mary Brown.\n"
            "Harper and Brown met again in London.")
    token = csrf_token(admin_client, "/documents/upload")
    response = admin_client.post("/documents/upload", data={
        "csrf_token": token, "project": str(default_project(app)), "language": "", "text": text, "name": "e.txt"},
        content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rows = sql(app, "SELECT id, status::text AS status FROM document")
        if rows and rows[0]["status"] in ("PRE_ANNOTATED", "DONE", "FAILED"):
            break
        time.sleep(0.3)
    assert rows[0]["status"] in ("PRE_ANNOTATED", "DONE"), rows
    doc = rows[0]["id"]
    spans = sql(app, "SELECT DISTINCT n.first_token, n.end_token, t1.start_char, t2.end_char FROM named_entity n "
                     "JOIN token t1 ON t1.document_id = n.document_id AND t1.idx = n.first_token "
                     "JOIN token t2 ON t2.document_id = n.document_id AND t2.idx = n.end_token - 1 "
                     "WHERE n.document_id = %s", (doc,))
    mentions = sql(app, "SELECT first_token, end_token, entity_id FROM entity_mention WHERE document_id = %s",
                   (doc,))
    assert spans and {(m["first_token"], m["end_token"]) for m in mentions} == {
        (s["first_token"], s["end_token"]) for s in spans}
    by_text: dict[str, set[int]] = {}
    entity = {(m["first_token"], m["end_token"]): m["entity_id"] for m in mentions}
    for s in spans:
        by_text.setdefault(text[s["start_char"]:s["end_char"]], set()).add(entity[(s["first_token"], s["end_token"])])
    assert all(len(ids) == 1 for ids in by_text.values()), by_text  # equal strings, one entity
    if "Jonathan Harper" in by_text and "Harper" in by_text:
        assert by_text["Jonathan Harper"] == by_text["Harper"]


def test_single_document_renders_from_the_stored_key_alone(clean_app, document):
    app = clean_app
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE'")
    other = add_document(app, "Jonathan Harper and Carl Smith met. Smith left.",
                         [("Jonathan Harper", "PERSON"), ("Carl Smith", "PERSON"), ("Smith", "PERSON")])
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE'")
    from psan.store import output as store_output
    from psan.store.annotate import reannotate_document_now
    from psan.store.output_single import render_alone
    with app.app_context(), db.transaction() as conn:
        for doc in (document, other):
            reannotate_document_now(conn, doc)
        ctx = store_output.project_context(conn, default_project(app))
        assert render_alone(conn, other, ctx) is None          # no key yet: the project pass is needed
        full = {d.document_id: d for d in store_output.pseudonymize_project(conn, default_project(app), ctx)}
        alone = render_alone(conn, other, store_output.project_context(conn, default_project(app)))
        assert alone is not None and alone.text == full[other].text and alone.entries == full[other].entries
        # "Jonathan Harper" is one person in both documents
        surname = full[document].text.split()[1]
        assert full[other].text.split()[1] == surname and "Harper" not in full[other].text
        pseudonym_key.clear(conn, default_project(app))
        assert render_alone(conn, other, store_output.project_context(conn, default_project(app))) is None
