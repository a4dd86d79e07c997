"""An annotator learns nothing outside what their window shows: not by deciding, counting, leaving or undoing.

Two ways text lies outside: the rest of the document, and the elided middle of an over-long window (one span
longer than the annotator's window; :mod:`psan.store.annotation.visibility`).  Each test puts spans or decisions
there and checks that the answers the annotator gets are the ones they would get without them.
"""
from __future__ import annotations

import re

import pytest

from tests.documents import add_document, group_entities, phrase_spans, plain_sentences
from tests.helpers import sql
from tests.web.helpers import annotator_client

LONG = 400  # tokens of the long span that makes the window over-long


def _long_span_document(app, hidden_names: int) -> tuple[int, int, int]:
    """A document whose one long span (tokens ``[first, end)``) holds ``hidden_names`` person spans deep inside."""
    long_span = " ".join(f"part{i}" for i in range(LONG))
    text = plain_sentences(0, 3) + " See " + long_span + " now. " + plain_sentences(3, 3)
    first = 22  # "See" is token 21
    nested = [(first + 150 + 10 * k, first + 152 + 10 * k, "P") for k in range(hidden_names)]
    doc = add_document(app, text, [(long_span, "URL")], spans=nested)
    group_entities(app, doc)
    return doc, first, first + LONG


def _hidden_decided(app, doc: int, elided: list[int]) -> int:
    return sql(app, "SELECT count(*) AS n FROM annotation WHERE document_id = %s AND first_token >= %s "
                    "AND end_token <= %s AND token_decision IS NOT NULL", (doc, *elided))[0]["n"]


@pytest.mark.parametrize("hidden", [0, 5])
def test_accept_decides_and_counts_only_the_spans_shown(clean_app, hidden: int) -> None:
    doc, _, _ = _long_span_document(clean_app, hidden)
    client = annotator_client(clean_app, "a@example.org", window_size=50)
    window = client.get("/annotate/api/window").get_json()
    assert window["elided"]
    answer = client.post("/annotate/api/accept", json={"document_id": doc})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["accepted"] == 1  # the long span, shown by its ends
    assert client.get("/annotate/api/history").get_json()["actions"][0]["spans"] == 1
    assert _hidden_decided(clean_app, doc, window["elided"]) == 0


@pytest.mark.parametrize("hidden", [0, 5])
def test_leaving_is_not_refused_for_spans_in_the_hidden_middle(clean_app, hidden: int) -> None:
    doc, first, end = _long_span_document(clean_app, hidden)
    client = annotator_client(clean_app, "a@example.org", window_size=50)
    assert client.get("/annotate/api/window").get_json()["elided"]
    sql(clean_app, "UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = %s AND first_token = %s "
                   "AND end_token = %s", (doc, first, end))  # someone else decided the one span shown
    shown = client.get("/annotate/api/window").get_json()["annotations"]
    assert not [a for a in shown if a["decision"] == "SUSPICIOUS"]
    assert client.post("/annotate/api/next").status_code == 200


@pytest.mark.parametrize("hidden", [0, 4])
def test_an_entity_counts_no_mention_of_the_hidden_middle(clean_app, hidden: int) -> None:
    words = [f"part{i}" for i in range(LONG)]
    shown_at, hidden_at = 5, [150 + 20 * k for k in range(hidden)]
    for i in (shown_at, *hidden_at):
        words[i], words[i + 1] = "Anna", "Berg"
    text = plain_sentences(0, 3) + " See " + " ".join(words) + " now. " + plain_sentences(3, 3)
    first = 22
    doc = add_document(clean_app, text, [(" ".join(words), "URL")],
                       spans=[(first + i, first + i + 2, "P") for i in (shown_at, *hidden_at)])
    group_entities(clean_app, doc)
    client = annotator_client(clean_app, "a@example.org", window_size=50)
    window = client.get("/annotate/api/window").get_json()
    a, b = first + shown_at, first + shown_at + 2
    assert window["elided"] and b <= window["elided"][0]
    entity = client.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": a,
                                                                "end_token": b}).get_json()["entity"]
    detail = client.get(f"/annotate/api/annotation/{a}-{b}").get_json()
    assert entity["mentions"] == detail["entity"]["mentions"] == 1


def test_the_home_history_shows_no_word_of_the_hidden_middle(clean_app) -> None:
    long_span = " ".join(f"part{i}" for i in range(100))
    doc = add_document(clean_app, plain_sentences(0, 3) + " See " + long_span + " now. " + plain_sentences(3, 3),
                       [(long_span, "URL")])
    client = annotator_client(clean_app, "a@example.org", window_size=10)
    window = client.get("/annotate/api/window").get_json()
    assert window["elided"]
    shown = {t["text"] for t in window["tokens"]}
    span = next(a for a in window["annotations"] if a["end_token"] - a["first_token"] == 100)
    assert client.post("/annotate/api/decide", json={"document_id": doc, "first_token": span["first_token"],
                                                     "end_token": span["end_token"],
                                                     "decision": "PRIVATE"}).status_code == 200
    home = client.get("/workspace/").get_data(as_text=True)
    on_home = set(re.findall(r"\bpart\d+\b", home))
    assert on_home and on_home <= shown


def _harper_document(app) -> int:
    text = (plain_sentences(0, 10) + " Jonathan Harper sued the company. Mr. Harper lost. " + plain_sentences(10, 30)
            + " Later Harper said that Anna Berg had not signed it. " + plain_sentences(40, 30)
            + " Harper and Jonathan Harper left.")
    doc = add_document(app, text, [("Jonathan Harper", "P"), ("Harper", "P"), ("Anna Berg", "P")])
    group_entities(app, doc)
    return doc


@pytest.mark.parametrize("decided_outside", [0, 2])
def test_a_public_entity_decision_counts_kept_private_mentions_of_the_window_only(clean_app,
                                                                                   decided_outside: int) -> None:
    doc = _harper_document(clean_app)
    client = annotator_client(clean_app, "a@example.org", window_size=30)
    window = client.get("/annotate/api/window").get_json()["window"]
    first, end = window["first_token"], window["end_token"]
    harpers = phrase_spans(clean_app, doc, "Harper")
    outside = [s for s in harpers if s[1] <= first or s[0] >= end]
    inside = [s for s in harpers if first <= s[0] and s[1] <= end]
    assert len(outside) >= decided_outside and inside
    for a, b in outside[:decided_outside]:  # someone else's private decisions outside the window
        sql(clean_app, "UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = %s AND first_token = %s "
                       "AND end_token = %s", (doc, a, b))
    a, b = inside[-1]
    answer = client.post("/annotate/api/decide", json={"document_id": doc, "first_token": a, "end_token": b,
                                                       "decision": "PUBLIC", "scope": "entity"})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["kept_private"] == 0


@pytest.mark.parametrize("outside", [1, 6])
def test_undoing_an_entity_decision_says_no_count(clean_app, outside: int) -> None:
    text = (plain_sentences(0, 10) + " Mr. Harper sued the company. Harper lost. " + plain_sentences(10, 30)
            + "".join(f" Later Harper said {k} things." + plain_sentences(40 + 3 * k, 3) for k in range(outside)))
    doc = add_document(clean_app, text, [("Harper", "P")])
    group_entities(clean_app, doc)
    client = annotator_client(clean_app, "a@example.org", window_size=30)
    window = client.get("/annotate/api/window").get_json()["window"]
    a, b = next(s for s in phrase_spans(clean_app, doc, "Harper")
                if window["first_token"] <= s[0] and s[1] <= window["end_token"])
    assert client.post("/annotate/api/decide", json={"document_id": doc, "first_token": a, "end_token": b,
                                                     "decision": "PRIVATE", "scope": "entity"}).status_code == 200
    action = client.get("/annotate/api/history").get_json()["actions"][0]
    home = client.get("/workspace/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', home).group(1)
    page = client.post("/workspace/undo", data={"csrf_token": csrf, "action_id": str(action["id"])},
                       follow_redirects=True).get_data(as_text=True)
    assert "Undone." in page and "decisions restored" not in page


def test_a_span_detail_names_no_rule_id(clean_app) -> None:
    doc = _harper_document(clean_app)
    client = annotator_client(clean_app, "a@example.org", window_size=30)
    window = client.get("/annotate/api/window").get_json()
    span = next(a for a in window["annotations"] if a["decision"] == "SUSPICIOUS")
    assert client.post("/annotate/api/decide", json={"document_id": doc, "first_token": span["first_token"],
                                                     "end_token": span["end_token"], "decision": "PRIVATE",
                                                     "scope": "word_type"}).status_code == 200
    rules = client.get(f"/annotate/api/annotation/{span['id']}").get_json()["rules"]
    assert rules and all("id" not in r for r in rules)
