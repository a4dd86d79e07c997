"""Regression tests for audit round 3 (issue 23), one or more per item, named after it.

They run against the real PostgreSQL and Redis of ``tests/conftest.py`` (and a real Celery worker
where an item involves background work).
"""
from __future__ import annotations

import hashlib
import json
import re

from psan.tool.document import Category
from psan.tool.entities import entity_id
from tests.documents import add_document, group_entities, plain_sentences, token_index
from tests.helpers import sql
from tests.web.helpers import annotator_client

# --- item 1: entity keys must not reveal names outside the window ----------------------------------------------
#: first names an attacker would try ("<candidate> harper"); "jonathan" is the one outside the window
CANDIDATES = ("james", "john", "robert", "michael", "william", "david", "richard", "joseph", "thomas", "charles",
              "christopher", "daniel", "matthew", "anthony", "mark", "donald", "steven", "paul", "andrew", "jonathan",
              "joshua", "kenneth", "kevin", "brian", "george", "timothy", "ronald", "edward", "jason", "jeffrey",
              "mary", "anna", "emma", "olivia")
_HEX = re.compile(r"[0-9a-f]{6,}")


def _digests(text: str) -> list[str]:
    """Every unkeyed digest an attacker would try of a candidate name (hex)."""
    out = []
    for variant in (text, f"PERSON\x1f{text}", f"person\x1f{text}", f"PER\x1f{text}", f"P\x1f{text}"):
        data = variant.encode()
        out += [hashlib.new(name, data).hexdigest() for name in ("sha256", "sha1", "md5", "blake2b", "sha512")]
    return out


def _walk_annotator_api(client, doc: int) -> list[str]:
    """Every answer of every annotator endpoint for the window's spans (GET and POST), as text."""
    answers = []

    def keep(response):
        assert response.status_code < 500, response.get_data(as_text=True)
        answers.append(response.get_data(as_text=True))
        return response

    data = keep(client.get("/annotate/api/window")).get_json()
    window = data["window"]
    first, end = window["first_token"], window["end_token"]
    keep(client.get("/annotate/api/window", query_string={"document_id": doc, "first_token": first,
                                                          "end_token": min(end, first + 20)}))
    spans = [(a["first_token"], a["end_token"], a["id"]) for a in data["annotations"]]
    for f, e, annotation_id in spans:
        keep(client.get(f"/annotate/api/annotation/{annotation_id}"))
        keep(client.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": f, "end_token": e}))
    for i in range(first, end):
        keep(client.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": i,
                                                              "end_token": i + 1}))
    for f, e, _ in spans:
        keep(client.post("/annotate/api/entity/split", json={"document_id": doc, "first_token": f, "end_token": e}))
    for (f, e, _), (g, h, _) in zip(spans, spans[1:], strict=False):
        keep(client.post("/annotate/api/entity/merge", json={"document_id": doc, "first_token": f, "end_token": e,
                                                             "other_first_token": g, "other_end_token": h}))
    for _f, _e, annotation_id in spans:
        keep(client.get(f"/annotate/api/annotation/{annotation_id}"))
    for scope in ("token", "word_type", "ne_type", "entity"):
        f, e, _ = spans[0]
        keep(client.post("/annotate/api/decide", json={"document_id": doc, "first_token": f, "end_token": e,
                                                       "decision": "PRIVATE", "scope": scope, "ne_type": "P"}))
    f, e, _ = spans[-1]
    keep(client.post("/annotate/api/label", json={"document_id": doc, "first_token": f, "end_token": e,
                                                  "label_name": "someone", "label_category": "PERSON"}))
    keep(client.post("/annotate/api/accept", json={"document_id": doc}))
    for f, e, annotation_id in spans:
        keep(client.get(f"/annotate/api/annotation/{annotation_id}"))
        keep(client.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": f, "end_token": e}))
    keep(client.post("/annotate/api/next"))
    return answers


def test_audit3_01_entity_keys_reveal_no_name_outside_the_window(clean_app):
    app = clean_app
    text = (plain_sentences(0, 20) + " Jonathan Harper sued the company. Mr. Harper lost. "
            + plain_sentences(20, 60) + " Later Harper said that Harper had not signed it. Anna Berg agreed. "
            + plain_sentences(80, 20) + " Harper and Jonathan Harper left.")
    doc = add_document(app, text, [("Jonathan Harper", "P"), ("Harper", "P"), ("Anna Berg", "P")])
    group_entities(app, doc)
    outside = [token_index(app, doc, "Jonathan", 0), token_index(app, doc, "Jonathan", 1)]
    # the first part is decided already: the annotator's window is the middle one, with "Harper" alone
    middle = token_index(app, doc, "Later")
    sql(app, "UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = %s AND "
             "(end_token <= %s OR first_token >= %s)", (doc, middle - 10, middle + 40))
    client = annotator_client(app, "a3-01@example.org", window_size=30)
    window = client.get("/annotate/api/window").get_json()["window"]
    assert window["first_token"] <= middle < window["end_token"]
    assert not any(window["first_token"] <= i < window["end_token"] for i in outside), window
    stored = {r["key"] for r in sql(app, "SELECT key FROM entity")}
    assert entity_id(Category.PERSON, "jonathan harper") in stored  # the digest the audit recovered

    answers = _walk_annotator_api(client, doc)
    blob = "\n".join(answers)
    assert "Jonathan" not in blob and "jonathan" not in blob
    for key in stored | {r["key"] for r in sql(app, "SELECT key FROM entity")}:
        assert key not in blob and key.split("-")[-1] not in blob
    shown_hex = set(_HEX.findall(blob.lower()))
    assert shown_hex, "the walk saw entity references"
    for candidate in CANDIDATES:
        for name in (f"{candidate} harper", f"{candidate} berg"):
            for digest in _digests(name) + [entity_id(Category.PERSON, name).split("-")[-1]]:
                assert not any(h in digest for h in shown_hex), (name, digest)
    # no document-wide count: every count is of mentions inside the window
    inside = sql(app, "SELECT count(*) AS n FROM entity_mention WHERE document_id = %s AND first_token >= %s "
                      "AND end_token <= %s", (doc, window["first_token"], window["end_token"]))[0]["n"]
    entities = []
    for answer in answers:
        _collect_entities(json.loads(answer), entities)
    assert entities
    for entity in entities:
        assert "documents" not in entity and "id" not in entity and "manual" not in entity, entity
        assert 0 <= entity["mentions"] <= inside, entity


def _collect_entities(value, out: list) -> None:
    if isinstance(value, dict):
        if isinstance(value.get("entity"), dict):
            out.append(value["entity"])
        for v in value.values():
            _collect_entities(v, out)
    elif isinstance(value, list):
        for v in value:
            _collect_entities(v, out)
