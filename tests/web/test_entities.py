"""Entities in PostgreSQL: grouping after pre-annotation, the annotator's entity API, merge and split."""
from __future__ import annotations

import pytest

from psan.runtime import db
from tests.documents import entity_of, group_entities, token_index
from tests.helpers import csrf_token, default_project, logged_in_client, sql
from tests.people import add_grouped_document
from tests.web.helpers import annotator_client

ANNOTATOR = "entities@example.org"


@pytest.fixture()
def document(clean_app):
    return add_grouped_document(clean_app)


@pytest.fixture()
def annotator(clean_app):
    client = annotator_client(clean_app, ANNOTATOR, window_size=400)
    assert client.get("/annotate/api/window").status_code == 200
    return client


def test_entity_api_merge_and_split(clean_app, document, annotator):
    app = clean_app
    jonathan = token_index(app, document, "Jonathan")
    anna = token_index(app, document, "Anna")
    response = annotator.get("/annotate/api/entity", query_string={"document_id": document, "first_token": jonathan,
                                                                   "end_token": jonathan + 2})
    assert response.status_code == 200, response.get_json()
    entity = response.get_json()["entity"]
    harper_mentions = sql(app, "SELECT count(*) AS n FROM entity_mention WHERE entity_id = %s",
                          (entity_of(app, document, jonathan, jonathan + 2),))[0]["n"]
    berg_mentions = sql(app, "SELECT count(*) AS n FROM entity_mention WHERE entity_id = %s",
                        (entity_of(app, document, anna, anna + 2),))[0]["n"]
    assert harper_mentions >= 4 and berg_mentions >= 2   # nested "Harper" in "Jonathan Harper" counts too
    # the window holds the whole document: its count is every mention; keys are opaque, no document count
    assert entity["category"] == "PERSON" and entity["mentions"] == harper_mentions and "documents" not in entity
    assert entity["key"].startswith("entity-") and "id" not in entity
    assert entity["label"] is None

    # split "Harper" (second occurrence) off, then merge it back
    harper = token_index(app, document, "Harper", 1)
    r = annotator.post("/annotate/api/entity/split", json={"document_id": document, "first_token": harper,
                                                           "end_token": harper + 1})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["entity"]["mentions"] == 1 and r.get_json()["entity"]["key"] != entity["key"]
    assert entity_of(app, document, harper, harper + 1) != entity_of(app, document, jonathan, jonathan + 2)
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
    group_entities(app, document)
    assert entity_of(app, document, anna, anna + 2) == entity_of(app, document, jonathan, jonathan + 2)
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


def _download(client, document_id: int) -> str:
    response = client.get(f"/documents/{document_id}/download/pseudonymize")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def test_pseudonymized_download_uses_one_identity_and_annotators_corrections(clean_app, document, annotator):
    app = clean_app
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE'")  # every recognized span private
    from psan.store.corpus.reannotate import reannotate_document_now
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, document)
    admin = logged_in_client(app, "admin@example.org", "ADMIN")
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
