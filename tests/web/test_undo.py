"""Accept by token and undo: ``a`` makes no project rule; every action is undone by its author.

Through the real HTTP API (Flask test client), the real store and PostgreSQL (the action log's
triggers); the other document is re-annotated by the real store code, as the worker does.
"""
from __future__ import annotations

from psan.runtime import db
from psan.store.corpus.reannotate import reannotate_document_now
from tests.documents import add_document, annotation, group_entities, plain_sentences, token_index
from tests.helpers import sql
from tests.web.helpers import annotator_client, api_decide, api_post, api_window

ANNOTATOR = "annotator@example.org"


def _rules(app) -> list[dict]:
    return sql(app, "SELECT type::text AS type, condition, confidence, annotation_id IS NOT NULL AS lookup "
                    "FROM rule WHERE type <> 'NE_TYPE' ORDER BY id")


def _decisions(app, doc: int) -> dict:
    return {(r["first_token"], r["end_token"]): r["token_decision"] for r in sql(
        app, "SELECT first_token, end_token, token_decision::text FROM annotation WHERE document_id = %s "
             "AND token_decision IS NOT NULL", (doc,))}


def test_accept_creates_no_rule_and_undo_takes_it_back(clean_app):
    app = clean_app
    text = "Mr E. Cinmen met Jan Novák in Praha. " + plain_sentences(0, 2)
    doc = add_document(app, text, [("E. Cinmen", "PERSON"), ("Jan Novák", "P"), ("Praha", "gu")])
    annotator = annotator_client(app, ANNOTATOR, window_size=300)
    status, data = api_window(annotator)
    assert status == 200 and data["document"]["status"] == "PRE_ANNOTATED"
    status, data = api_post(annotator, "accept", {"document_id": doc})
    assert status == 200, data
    assert data["action_id"] > 0 and data["accepted"] == 3 and data["document"]["status"] == "DONE"
    assert len(_decisions(app, doc)) == 3
    assert all(r["lookup"] and r["confidence"] == 0 for r in _rules(app)), _rules(app)  # no project rule
    history = annotator.get("/annotate/api/history").get_json()["actions"]
    assert [(a["kind"], a["spans"], a["undone"]) for a in history] == [("accept", 3, False)]
    status, data = api_post(annotator, "undo", {})  # key u: the newest action
    assert status == 200, data
    assert data["undone"] == history[0]["id"] and data["document"]["status"] == "PRE_ANNOTATED"
    assert _decisions(app, doc) == {} and _rules(app) == []
    assert sql(app, "SELECT count(*) AS n FROM decision_log WHERE action = 'undo'") == [{"n": 3}]
    assert annotator.get("/annotate/api/history").get_json()["actions"][0]["undone"] is True
    assert api_post(annotator, "undo", {})[0] == 409  # nothing left to undo
    assert api_post(annotator, "undo", {"action_id": history[0]["id"]})[0] == 409  # undone already


def test_undo_restores_rules_and_decisions_in_other_documents(clean_app):
    app = clean_app
    other = add_document(app, "Later Jan Novák wrote again. " + plain_sentences(0, 1), [("Jan Novák", "P")],
                         name="other.txt")
    doc = add_document(app, "Jan Novák signed it. " + plain_sentences(0, 1), [("Jan Novák", "P")])
    group_entities(app, other)
    group_entities(app, doc)
    annotator = annotator_client(app, ANNOTATOR, "ADMIN", window_size=300)
    assert api_post(annotator, "open", {"document_id": doc})[0] == 200
    # a person's earlier decision on the span, which the entity decision overwrites
    assert api_decide(annotator, doc, 0, 2, "PUBLIC")[0] == 200
    status, data = api_decide(annotator, doc, 0, 2, "PRIVATE", "entity")
    assert status == 200, data
    assert {r["type"] for r in _rules(app) if not r["lookup"]} == {"WORD_TYPE"}
    o = token_index(app, other, "Jan")
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, other)
    assert annotation(app, other, o, o + 2)["rule_level"] == -1.0  # the rule reached the other document
    status, data = api_post(annotator, "undo", {"action_id": data["action_id"]})
    assert status == 200, data
    assert _decisions(app, doc) == {(0, 2): "PUBLIC"}  # the earlier decision is back
    assert [r for r in _rules(app) if not r["lookup"]] == []
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, other)
    assert annotation(app, other, o, o + 2)["rule_level"] == 0.0


def test_only_the_author_undoes_and_a_later_change_blocks(clean_app):
    app = clean_app
    doc = add_document(app, "Jan Novák and Eva Malá. " + plain_sentences(0, 1), [("Jan Novák", "P"), ("Eva Malá", "P")])
    first = annotator_client(app, ANNOTATOR, "ADMIN", window_size=300)
    second = annotator_client(app, "second@example.org", "ADMIN", window_size=300)
    for client in (first, second):
        assert api_post(client, "open", {"document_id": doc})[0] == 200
    status, data = api_decide(first, doc, 0, 2, "PRIVATE")
    assert status == 200, data
    mine = data["action_id"]
    assert api_post(second, "undo", {"action_id": mine})[0] == 404  # someone else's action
    assert second.get("/annotate/api/history").get_json()["actions"] == []
    assert api_decide(second, doc, 0, 2, "PUBLIC")[0] == 200  # a later action on the same span
    assert api_post(first, "undo", {"action_id": mine})[0] == 409
    assert api_post(second, "undo", {})[0] == 200
    assert api_post(first, "undo", {"action_id": mine})[0] == 200
    assert _decisions(app, doc) == {}


def test_entity_merge_and_split_are_undone(clean_app):
    app = clean_app
    sql(app, "DELETE FROM entity")
    doc = add_document(app, "Jonathan Harper met Anna Berg. Later Harper left. " + plain_sentences(0, 1),
                       [("Jonathan Harper", "PERSON"), ("Harper", "PERSON"), ("Anna Berg", "PERSON")])
    group_entities(app, doc)
    annotator = annotator_client(app, ANNOTATOR, window_size=300)
    assert api_window(annotator)[0] == 200
    anna = token_index(app, doc, "Anna")
    harper = token_index(app, doc, "Harper", 1)

    def grouping() -> dict:
        rows = sql(app, "SELECT first_token, end_token, entity_id, manual FROM entity_mention WHERE document_id = %s",
                   (doc,))
        return {(r["first_token"], r["end_token"]): (r["entity_id"], r["manual"]) for r in rows}

    before = grouping()
    entities = sql(app, "SELECT id, key, merged_into FROM entity ORDER BY id")
    assert before[(0, 2)][0] == before[(harper, harper + 1)][0] != before[(anna, anna + 2)][0]
    status, data = api_post(annotator, "entity/merge", {"document_id": doc, "first_token": 0, "end_token": 2,
                                                        "other_first_token": anna, "other_end_token": anna + 2})
    assert status == 200, data
    assert grouping()[(anna, anna + 2)][0] == before[(0, 2)][0]
    assert api_post(annotator, "undo", {})[0] == 200
    assert grouping() == before and sql(app, "SELECT id, key, merged_into FROM entity ORDER BY id") == entities
    status, data = api_post(annotator, "entity/split", {"document_id": doc, "first_token": harper,
                                                        "end_token": harper + 1})
    assert status == 200, data
    assert grouping()[(harper, harper + 1)][0] != before[(0, 2)][0]
    assert api_post(annotator, "undo", {})[0] == 200
    assert grouping() == before and sql(app, "SELECT id, key, merged_into FROM entity ORDER BY id") == entities
    kinds = [a["kind"] for a in annotator.get("/annotate/api/history").get_json()["actions"]]
    assert kinds == ["entity_split", "entity_merge"]


def test_deciding_a_span_again_as_it_was_leaves_nothing_to_undo(clean_app):
    app = clean_app
    text = "Mr E. Cinmen met Jan Novák in Praha. " + plain_sentences(0, 2)
    doc = add_document(app, text, [("E. Cinmen", "PERSON"), ("Jan Novák", "P"), ("Praha", "gu")])
    annotator = annotator_client(app, ANNOTATOR, window_size=300)
    assert api_window(annotator)[0] == 200
    first = token_index(app, doc, "Jan")
    end = first + 2
    for _ in range(2):  # the second ``s`` changes nothing
        status, data = api_post(annotator, "decide", {"document_id": doc, "first_token": first, "end_token": end,
                                                      "decision": "PRIVATE"})
        assert status == 200, data
    history = annotator.get("/annotate/api/history").get_json()["actions"]
    assert len(history) == 1 and history[0]["spans"] == 1  # the empty action is not listed
    assert api_post(annotator, "undo", {})[0] == 200  # ``u`` takes back the decision itself
    assert (first, end) not in _decisions(app, doc)
