"""Annotation window and decisions against real PostgreSQL (and a real Celery worker for propagation)."""
from __future__ import annotations

import time

import pytest

from tests.documents import add_document, annotation, plain_sentences, token_index
from tests.helpers import Auth, account_id, default_project, set_window_size, sql
from tests.web.helpers import annotator_client, api_decide, api_post, api_window

ANNOTATOR = "annotator@example.org"


def _client(app, email: str, role: str = "USER", size: int | None = None):
    return annotator_client(app, email, role, window_size=size, member=role == "USER")


@pytest.fixture()
def annotator(clean_app):
    return _client(clean_app, ANNOTATOR, size=30)


def _sentence_bounds(app, doc: int) -> tuple[set[int], set[int]]:
    rows = sql(app, "SELECT first_token, end_token FROM sentence WHERE document_id = %s", (doc,))
    return {r["first_token"] for r in rows}, {r["end_token"] for r in rows}


# --- windows ---------------------------------------------------------------------------------------------
def test_window_is_centred_on_the_first_suspicious_span_and_cut_to_sentences(clean_app, annotator):
    text = plain_sentences(0, 20) + " Yesterday Jan Novák came home. " + plain_sentences(20, 20)
    doc = add_document(clean_app, text, [("Jan Novák", "P")])
    first_name = token_index(clean_app, doc, "Jan")
    status, data = api_window(annotator)
    assert status == 200, data
    w = data["window"]
    starts, ends = _sentence_bounds(clean_app, doc)
    assert w["document_id"] == doc
    assert w["first_token"] in starts and w["end_token"] in ends
    assert w["first_token"] <= first_name < w["end_token"]
    assert 30 - 2 * 7 <= w["end_token"] - w["first_token"] <= 30
    # centred: roughly as many tokens before the span as after it
    assert abs((first_name - w["first_token"]) - (w["end_token"] - first_name - 2)) <= 8
    tokens = data["tokens"]
    assert [t["i"] for t in tokens] == list(range(w["first_token"], w["end_token"]))
    assert "".join(t["text"] + t["after"] for t in tokens).count("Jan Novák") == 1
    [ann] = [a for a in data["annotations"] if a["first_token"] == first_name]
    assert ann["decision"] == "SUSPICIOUS" and ann["ne_types"] == ["P"] and ann["end_token"] == first_name + 2
    assert ann["rules"] == [{"type": "NE_TYPE", "condition": "P", "confidence": 0.0, "lookup": False}]
    assert data["sentences"][0][0] == w["first_token"] and data["sentences"][-1][1] == w["end_token"]


def test_window_size_follows_the_account_and_long_sentences_stay_whole(clean_app):
    long_sentence = "Jan " + " ".join(f"word{i}" for i in range(40)) + " end."
    doc = add_document(clean_app, plain_sentences(0, 3) + " " + long_sentence + " " + plain_sentences(3, 3),
                       [("Jan", "P")])
    small = _client(clean_app, "small@example.org", size=10)
    w = api_window(small)[1]["window"]
    jan = token_index(clean_app, doc, "Jan")
    assert w["first_token"] == jan and w["end_token"] == jan + 43  # the one sentence, whole, nothing more
    big = _client(clean_app, "big@example.org", size=200)
    sql(clean_app, "DELETE FROM annotation_window")
    w = api_window(big)[1]["window"]
    assert w["first_token"] == 0 and w["end_token"] == 6 * 7 + 43  # everything fits


def test_first_private_span_without_label_when_nothing_is_suspicious(clean_app, annotator):
    doc = add_document(clean_app, plain_sentences(0, 10) + " Call Petr now. " + plain_sentences(10, 10),
                       [("Petr", "P")])
    sql(clean_app, "UPDATE rule SET confidence = -5 WHERE type = 'NE_TYPE'")
    sql(clean_app, "UPDATE annotation SET rule_level = -5")
    sql(clean_app, "UPDATE document SET status = 'PRE_ANNOTATED'")
    w = api_window(annotator)[1]["window"]
    petr = token_index(clean_app, doc, "Petr")
    assert w["first_token"] <= petr < w["end_token"]


def test_two_annotators_get_disjoint_windows_and_leases_expire(clean_app, annotator):
    text = (plain_sentences(0, 3) + " Jan came. " + plain_sentences(3, 10) + " Eva came. " + plain_sentences(13, 10))
    doc = add_document(clean_app, text, [("Jan", "P"), ("Eva", "P")])
    second = _client(clean_app, "second@example.org", size=30)
    third = _client(clean_app, "third@example.org", size=30)
    a = api_window(annotator)[1]["window"]
    b = api_window(second)[1]["window"]
    assert a["document_id"] == b["document_id"] == doc
    assert a["end_token"] <= b["first_token"] or b["end_token"] <= a["first_token"]
    jan, eva = token_index(clean_app, doc, "Jan"), token_index(clean_app, doc, "Eva")
    assert a["first_token"] <= jan < a["end_token"] and b["first_token"] <= eva < b["end_token"]
    status, data = api_window(third)
    assert status == 200 and data["window"] is None  # everything suspicious is leased
    sql(clean_app, "UPDATE annotation_window SET expires_at = now() - interval '1 second' WHERE account_id = %s",
        (account_id(clean_app, ANNOTATOR),))
    c = api_window(third)[1]["window"]
    assert c["first_token"] <= jan < c["end_token"]
    # the first annotator's window is lost now: reads and decisions are refused
    assert api_window(annotator, document_id=doc, first_token=jan, end_token=jan + 1)[0] == 403
    assert api_decide(annotator, doc, jan, jan + 1, "PUBLIC")[0] == 403


def test_annotators_only_get_documents_of_their_projects(clean_app):
    other = sql(clean_app, "INSERT INTO project (name) VALUES ('Other') RETURNING id")[0]["id"]
    add_document(clean_app, "Jan came. " + plain_sentences(0, 3), [("Jan", "P")], project_id=other)
    client = _client(clean_app, ANNOTATOR, size=30)
    assert api_window(client)[1]["window"] is None
    admin = _client(clean_app, "admin@example.org", "ADMIN")
    assert api_window(admin)[1]["window"]["project_id"] == other


# --- the window boundary -----------------------------------------------------------------------------
def test_requests_outside_the_window_are_refused(clean_app, annotator):
    text = plain_sentences(0, 10) + " Jan came. " + plain_sentences(10, 10)
    doc = add_document(clean_app, text, [("Jan", "P")])
    other_doc = add_document(clean_app, "Eva came. " + plain_sentences(0, 3), [("Eva", "P")], name="other.txt")
    # no window yet: nothing can be read or decided
    assert api_decide(annotator, doc, 0, 1, "PUBLIC")[0] == 403
    sql(clean_app, "UPDATE document SET status = 'DONE' WHERE id = %s", (other_doc,))
    w = api_window(annotator)[1]["window"]
    assert w["document_id"] == doc
    first, end = w["first_token"], w["end_token"]
    assert api_window(annotator, document_id=doc, first_token=first, end_token=end)[0] == 200
    for params in [dict(document_id=doc, first_token=0, end_token=first + 1),
                   dict(document_id=doc, first_token=end - 1, end_token=end + 1),
                   dict(document_id=other_doc, first_token=0, end_token=1),
                   dict(document_id=999999, first_token=first, end_token=first + 1)]:
        status, data = api_window(annotator, **params)
        assert status == 403, params
        assert "tokens" not in data
    for span in [(doc, 0, 1), (doc, end, end + 1), (doc, first, end + 1), (other_doc, 0, 1), (10**6, first, end)]:
        assert api_decide(annotator, *span, "PRIVATE")[0] == 403, span
    outside = sql(clean_app, "SELECT first_token, end_token FROM annotation WHERE document_id = %s "
                             "AND (first_token < %s OR end_token > %s) LIMIT 1", (doc, first, end))
    for span in outside:  # a span of the document outside the window
        assert annotator.get(f"/annotate/api/annotation/{span['first_token']}-{span['end_token']}").status_code == 403
    row_id = sql(clean_app, "SELECT id FROM annotation WHERE document_id = %s", (other_doc,))[0]["id"]
    for ref in (row_id, 987654, f"{first}-{first}", "x-1", f"{first}-{first + 1}-2"):  # row ids are no refs
        assert annotator.get(f"/annotate/api/annotation/{ref}").status_code in (403, 404), ref
    assert sql(clean_app, "SELECT count(*) AS n FROM annotation WHERE token_decision IS NOT NULL")[0]["n"] == 0


@pytest.mark.parametrize("payload", [
    {"document_id": "1", "first_token": 0, "end_token": 1, "decision": "PUBLIC"},
    {"document_id": 1, "first_token": True, "end_token": 1, "decision": "PUBLIC"},
    {"document_id": 1, "first_token": 0.0, "end_token": 1, "decision": "PUBLIC"},
    {"document_id": 1, "first_token": -1, "end_token": 1, "decision": "PUBLIC"},
    {"document_id": 1, "first_token": 3, "end_token": 3, "decision": "PUBLIC"},
    {"document_id": 1, "first_token": 0, "end_token": 1, "decision": "SUSPICIOUS"},
    {"document_id": 1, "first_token": 0, "end_token": 1, "decision": "PUBLIC", "scope": "everything"},
    {"document_id": 1, "first_token": 0, "end_token": 2**40, "decision": "PUBLIC"},
    ["not", "an", "object"],
])
def test_malformed_decisions_are_rejected(clean_app, annotator, payload):
    add_document(clean_app, "Jan came. " + plain_sentences(0, 3), [("Jan", "P")])
    api_window(annotator)
    status, data = api_post(annotator, "decide", payload)
    assert status == 400 and data["error"]


def test_label_of_another_project_is_rejected(clean_app, annotator):
    doc = add_document(clean_app, "Jan came. " + plain_sentences(0, 3), [("Jan", "P")])
    other = sql(clean_app, "INSERT INTO project (name) VALUES ('Other') RETURNING id")[0]["id"]
    foreign = sql(clean_app, "INSERT INTO label (project_id, name) VALUES (%s, 'X') RETURNING id", (other,))[0]["id"]
    api_window(annotator)
    assert api_decide(annotator, doc, 0, 1, "PRIVATE", label_id=foreign)[0] == 400
    assert api_post(annotator, "label", {"document_id": doc, "first_token": 0, "end_token": 1,
                                      "label_id": foreign})[0] == 400


# --- decisions -------------------------------------------------------------------------------------------
def test_token_decision_creates_and_deletes_the_lookup_rule(clean_app, annotator):
    text = "Karel came. " + plain_sentences(0, 2) + " Later Karel left."
    doc = add_document(clean_app, text, [("Karel came", "P")])  # only the first occurrence is an entity
    sql(clean_app, "DELETE FROM named_entity WHERE first_token <> 0")
    karel2 = token_index(clean_app, doc, "Karel", 1)
    set_window_size(clean_app, ANNOTATOR, 300)
    api_window(annotator)
    status, data = api_decide(annotator, doc, 0, 1, "PRIVATE")
    assert status == 200, data
    [lookup] = sql(clean_app, "SELECT type::text AS type, condition, confidence, annotation_id, author_id FROM rule "
                              "WHERE annotation_id IS NOT NULL")
    assert lookup["type"] == "WORD_TYPE" and lookup["condition"] == "Karel" and lookup["confidence"] == 0
    assert lookup["annotation_id"] == annotation(clean_app, doc, 0, 1)["id"]
    assert lookup["author_id"] == account_id(clean_app, ANNOTATOR)
    # the same document shows the other occurrence as suspicious immediately
    other = annotation(clean_app, doc, karel2, karel2 + 1)
    assert other and other["token_decision"] is None and other["rule_level"] == 0
    shown = {(a["first_token"], a["end_token"]): a for a in data["annotations"]}
    assert shown[(0, 1)]["decision"] == "PRIVATE" and not shown[(0, 1)]["has_label"]
    assert shown[(karel2, karel2 + 1)]["decision"] == "SUSPICIOUS"
    status, data = api_decide(annotator, doc, 0, 1, "PUBLIC")
    assert status == 200
    assert sql(clean_app, "SELECT count(*) AS n FROM rule WHERE annotation_id IS NOT NULL")[0]["n"] == 0
    assert annotation(clean_app, doc, karel2, karel2 + 1) is None
    assert annotation(clean_app, doc, 0, 1)["token_decision"] == "PUBLIC"


def test_word_type_decision_with_label_always(clean_app, annotator):
    text = "Karel Novák came. " + plain_sentences(0, 2) + " Then Karel Novák left."
    doc = add_document(clean_app, text, [("Karel Novák", "P")])
    second = token_index(clean_app, doc, "Karel", 1)
    set_window_size(clean_app, ANNOTATOR, 300)
    api_window(annotator)
    label = sql(clean_app, "INSERT INTO label (project_id, name, replacement) VALUES (%s, 'Person 1', "
                           "'SECRET-REPLACEMENT') RETURNING id", (default_project(clean_app),))[0]["id"]
    status, data = api_decide(annotator, doc, 0, 2, "PRIVATE", "word_type", label_id=label, always=True)
    assert status == 200, data
    rules = sql(clean_app, "SELECT type::text AS type, condition, confidence, label_id FROM rule "
                           "WHERE type = 'WORD_TYPE' AND annotation_id IS NULL")
    assert rules == [{"type": "WORD_TYPE", "condition": "Karel Novák", "confidence": -1.0, "label_id": label}]
    other = annotation(clean_app, doc, second, second + 2)
    assert other["token_decision"] is None and other["rule_level"] == -1.0
    shown = {(a["first_token"], a["end_token"]): a for a in data["annotations"]}
    assert shown[(second, second + 2)]["decision"] == "PRIVATE"
    assert shown[(second, second + 2)]["label"] == "Person 1"
    assert data["document"]["status"] == "DONE" and data["document_status"] == "DONE"
    assert "SECRET-REPLACEMENT" not in str(data)
    # public by word type flips the rule and drops its label
    api_decide(annotator, doc, 0, 2, "PUBLIC", "word_type")
    assert sql(clean_app, "SELECT confidence, label_id FROM rule WHERE type = 'WORD_TYPE' AND annotation_id IS NULL"
               ) == [{"confidence": 1.0, "label_id": None}]


def test_ne_type_decision_sets_the_entity_rule(clean_app, annotator):
    text = "Praha is big. " + plain_sentences(0, 2) + " Brno is small."
    doc = add_document(clean_app, text, [("Praha", "gu"), ("Brno", "gu")])
    brno = token_index(clean_app, doc, "Brno")
    set_window_size(clean_app, ANNOTATOR, 300)
    api_window(annotator)
    assert api_decide(annotator, doc, 1, 2, "PUBLIC", "ne_type")[0] == 400  # no entity on "is"
    status, data = api_decide(annotator, doc, 0, 1, "PUBLIC", "ne_type")
    assert status == 200, data
    assert sql(clean_app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'gu'"
               ) == [{"confidence": 1.0}]
    assert annotation(clean_app, doc, brno, brno + 1)["rule_level"] == 1.0
    assert annotation(clean_app, doc, 0, 1)["token_decision"] == "PUBLIC"
    assert data["document"]["status"] == "DONE"


def test_decision_log_and_detail(clean_app, annotator):
    doc = add_document(clean_app, "Jan came. " + plain_sentences(0, 3), [("Jan", "P")])
    api_window(annotator)
    api_decide(annotator, doc, 0, 1, "PRIVATE")
    status, data = api_post(annotator, "label", {"document_id": doc, "first_token": 0, "end_token": 1,
                                              "label_name": "Person <1>", "label_category": "person"})
    assert status == 200, data
    log = sql(clean_app, "SELECT account_id, action, decision::text AS decision, label_name, first_token, end_token "
                         "FROM decision_log ORDER BY id")
    me = account_id(clean_app, ANNOTATOR)
    assert log == [
        {"account_id": me, "action": "token", "decision": "PRIVATE", "label_name": None, "first_token": 0,
         "end_token": 1},
        {"account_id": me, "action": "token", "decision": "PRIVATE", "label_name": "Person <1>", "first_token": 0,
         "end_token": 1}]
    assert annotation(clean_app, doc, 0, 1) is not None
    detail = annotator.get("/annotate/api/annotation/0-1").get_json()
    assert detail["decision"] == "PRIVATE" and detail["label"] == "Person <1>"
    assert detail["token_decision"]["author"] == "annotator"
    # the span's own lookup rule only repeats the token decision above it: not listed again
    assert {(r["type"], r["vote"], r["lookup"]) for r in detail["rules"]} == {("NE_TYPE", "C", False)}
    assert [(r["reason"], r["vote_name"]) for r in detail["rules"]] == [("entity type: person", "no vote")]
    assert detail["token_decision"]["decision_name"] == "private"
    assert [h["label"] for h in detail["history"]] == ["Person <1>", None]
    # the log goes with the document
    sql(clean_app, "DELETE FROM document WHERE id = %s", (doc,))
    assert sql(clean_app, "SELECT count(*) AS n FROM decision_log")[0]["n"] == 0


def test_annotator_never_sees_replacements(clean_app, annotator):
    doc = add_document(clean_app, "Jan came. " + plain_sentences(0, 3), [("Jan", "P")])
    label = sql(clean_app, "INSERT INTO label (project_id, name, replacement) VALUES (%s, 'Person 1', "
                           "'SECRET-REPLACEMENT') RETURNING id", (default_project(clean_app),))[0]["id"]
    sql(clean_app, "UPDATE rule SET label_id = %s", (label,))
    api_window(annotator)
    _, data = api_post(annotator, "label", {"document_id": doc, "first_token": 0, "end_token": 1, "label_id": label})
    assert annotation(clean_app, doc, 0, 1) is not None
    bodies = [str(data), annotator.get("/annotate/api/window").get_data(as_text=True),
              annotator.get("/annotate/api/annotation/0-1").get_data(as_text=True),
              annotator.get("/annotate/").get_data(as_text=True)]
    assert "Person 1" in bodies[0]
    assert all("SECRET-REPLACEMENT" not in b for b in bodies)


# --- leaving a window ------------------------------------------------------------------------------------
def test_cannot_leave_a_window_without_a_decision(clean_app, annotator):
    doc = add_document(clean_app, "Jan came. " + plain_sentences(0, 3) + " Eva came.", [("Jan", "P"), ("Eva", "P")])
    set_window_size(clean_app, ANNOTATOR, 300)
    w = api_window(annotator)[1]["window"]
    status, data = api_post(annotator, "next", {})
    assert status == 409 and "Decide" in data["error"]
    again = api_window(annotator)[1]["window"]
    assert (again["document_id"], again["first_token"], again["end_token"]) == (
        w["document_id"], w["first_token"], w["end_token"])
    assert api_decide(annotator, doc, 0, 1, "PUBLIC")[0] == 200
    status, data = api_post(annotator, "next", {})
    assert status == 200  # one decision is enough (Eva is still open: the same text comes back)
    eva = token_index(clean_app, doc, "Eva")
    assert data["window"]["first_token"] <= eva < data["window"]["end_token"]
    # nothing undecided left in the window: leaving is allowed without deciding
    sql(clean_app, "UPDATE annotation SET token_decision = 'PUBLIC'")
    assert api_post(annotator, "next", {})[0] == 200


def test_admin_opens_any_document_and_widens(clean_app, annotator):
    doc = add_document(clean_app, plain_sentences(0, 30), [])
    admin = _client(clean_app, "admin@example.org", "ADMIN")
    assert admin.get(f"/annotate/document/{doc}?start=70&size=20").status_code == 200
    status, data = api_post(admin, "open", {"document_id": doc, "start": 70, "size": 20})
    assert status == 200, data
    assert data["window"]["first_token"] == 70 and data["window"]["end_token"] == 84
    status, data = api_post(admin, "open", {"document_id": doc, "start": 73, "size": 40})
    assert (data["window"]["first_token"], data["window"]["end_token"]) == (70, 105)
    assert api_post(admin, "open", {"document_id": 10**9, "start": 0})[0] == 404
    assert annotator.get(f"/annotate/document/{doc}").status_code == 403
    assert api_post(annotator, "open", {"document_id": doc, "start": 0})[0] == 403


def test_page_has_csrf_meta_and_no_inline_code(clean_app, annotator):
    html = annotator.get("/annotate/").get_data(as_text=True)
    assert '<meta name="csrf-token"' in html and "annotate.js" in html
    assert "<script>" not in html and "style=" not in html and " on" + "click=" not in html
    assert 'href="/annotate/"' in annotator.get("/").get_data(as_text=True)
    # POST without the CSRF header is refused
    plain = clean_app.test_client()
    Auth(plain).login(ANNOTATOR)
    assert plain.post("/annotate/api/next", json={}).status_code == 400


# --- propagation to other documents ----------------------------------------------------------------------
def test_word_type_rule_reaches_other_documents_in_the_background(clean_app, annotator, celery_worker):
    doc = add_document(clean_app, "Karel came. " + plain_sentences(0, 3), [("Karel", "P")])
    other = add_document(clean_app, plain_sentences(0, 3) + " Karel left.", [], name="other.txt")
    sql(clean_app, "UPDATE document SET status = 'DONE' WHERE id = %s", (other,))
    karel = token_index(clean_app, other, "Karel")
    assert annotation(clean_app, other, karel, karel + 1) is None
    api_window(annotator)
    assert api_decide(annotator, doc, 0, 1, "PRIVATE", "word_type")[0] == 200
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = annotation(clean_app, other, karel, karel + 1)
        if found and found["rule_level"] == -1.0:
            break
        time.sleep(0.5)
    else:
        pytest.fail("the word-type rule was not applied to the other document within 60 s")


def test_long_documents_get_the_new_rule_at_once_others_in_the_background(clean_app, annotator, monkeypatch):
    """Any document size: the decision's document is updated by the targeted path, others later."""
    import psan.celery.scheduling
    calls: list[tuple] = []
    monkeypatch.setattr(psan.celery.scheduling, "schedule_project_reannotation",
                        lambda project_id, exclude_document_id=None, delay=None: calls.append(
                            (project_id, exclude_document_id)))
    text = "Karel came. " + plain_sentences(0, 2) + " Later Karel left."
    doc = add_document(clean_app, text, [("Karel", "P")])
    sql(clean_app, "DELETE FROM named_entity WHERE first_token <> 0")
    sql(clean_app, "DELETE FROM annotation WHERE first_token <> 0")
    karel2 = token_index(clean_app, doc, "Karel", 1)
    set_window_size(clean_app, ANNOTATOR, 300)
    api_window(annotator)
    assert api_decide(annotator, doc, 0, 1, "PRIVATE", "word_type")[0] == 200
    assert annotation(clean_app, doc, karel2, karel2 + 1)["rule_level"] == -1.0
    assert calls == [(default_project(clean_app), doc)]  # the background run leaves this document out
    assert api_decide(annotator, doc, 0, 1, "PUBLIC", "word_type")[0] == 200
    assert annotation(clean_app, doc, karel2, karel2 + 1)["rule_level"] == 1.0
    assert calls[-1] == (default_project(clean_app), doc)


def test_detail_names_the_special_category(clean_app, annotator):
    """A SENSITIVE span (psan.tool.detection.recognizers.sensitive) shows its topic in the detail panel."""
    doc = add_document(clean_app, "Yesterday his wife came home. " + plain_sentences(0, 3), [("his wife", "FAMILY")])
    api_window(annotator)
    first = token_index(clean_app, doc, "his")
    assert annotation(clean_app, doc, first, first + 2) is not None
    detail = annotator.get(f"/annotate/api/annotation/{first}-{first + 2}").get_json()
    assert detail["decision"] == "SUSPICIOUS" and detail["ne_types"] == ["FAMILY"]
    assert detail["topics"] == ["family relations"]
    assert sql(clean_app, "SELECT category FROM named_entity WHERE document_id = %s", (doc,)) == [
        {"category": "SENSITIVE"}]


def test_accept_decides_the_window_as_suggested(clean_app, annotator):
    text = "Jan Novák lives in Praha. " + plain_sentences(0, 2)
    doc = add_document(clean_app, text, [("Jan Novák", "P"), ("Praha", "gu")])
    set_window_size(clean_app, ANNOTATOR, 300)
    status, data = api_window(annotator)
    assert status == 200, data
    praha = token_index(clean_app, doc, "Praha")
    suggestions = {(a["first_token"], a["end_token"]): a.get("suggestion") for a in data["annotations"]}
    assert suggestions == {(0, 2): "PRIVATE", (praha, praha + 1): "PUBLIC"}  # by category: nothing decided yet
    assert api_post(annotator, "accept", {"document_id": doc + 1})[0] == 403
    assert api_post(annotator, "accept", {"document_id": "x"})[0] == 400
    status, data = api_post(annotator, "accept", {"document_id": doc})
    assert status == 200, data
    assert annotation(clean_app, doc, 0, 2)["token_decision"] == "PRIVATE"
    assert annotation(clean_app, doc, praha, praha + 1)["token_decision"] == "PUBLIC"
    assert data["document"]["status"] == "DONE"
    assert sql(clean_app, "SELECT count(*) AS n FROM decision_log WHERE document_id = %s", (doc,)) == [{"n": 2}]
    assert api_post(annotator, "accept", {"document_id": doc})[0] == 409  # nothing left


def test_an_entity_type_decided_clearly_decides_alone(clean_app, annotator):
    names = [f"Name{i}" for i in range(11)]
    text = " ".join(f"{n} came." for n in names)
    doc = add_document(clean_app, text, [(n, "P") for n in names])
    set_window_size(clean_app, ANNOTATOR, 300)
    api_window(annotator)
    for n in names[:10]:
        i = token_index(clean_app, doc, n)
        assert api_decide(annotator, doc, i, i + 1, "PRIVATE")[0] == 200
    assert sql(clean_app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'P'"
               ) == [{"confidence": -1.0}]  # ten private decisions on P: P is private from now on
    last = token_index(clean_app, doc, names[10])
    assert annotation(clean_app, doc, last, last + 1)["rule_level"] == -1.0
