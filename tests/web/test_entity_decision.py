"""Decide the whole entity" (``POST /annotate/api/decide`` with ``scope: "entity"``, keys x / X)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psan.runtime import db
from psan.store.corpus.reannotate import reannotate_document_now
from tests.documents import add_document, annotation, group_entities, token_index
from tests.helpers import sql
from tests.web.helpers import annotator_client

ANNOTATOR = "entity-decider@example.org"
OUTSIDER = "entity-outsider@example.org"
TEXT_A = "Jonathan Harper sued the company. Later Harper said that he had not signed. Anna Berg agreed."
TEXT_B = "The court heard Harper again. Jonathan Harper appealed."
PEOPLE = [("Jonathan Harper", "PERSON"), ("Harper", "PERSON"), ("Anna Berg", "PERSON")]


@pytest.fixture()
def documents(clean_app):
    sql(clean_app, "DELETE FROM entity")
    a = add_document(clean_app, TEXT_A, PEOPLE, name="a.txt")
    b = add_document(clean_app, TEXT_B, PEOPLE, name="b.txt")
    group_entities(clean_app, a)
    group_entities(clean_app, b)
    return a, b


def _client(app, email: str, member: bool = True):
    return annotator_client(app, email, window_size=400, member=member)


def _decide(client, document_id: int, first: int, end: int, decision: str, scope: str):
    return client.post("/annotate/api/decide", json={"document_id": document_id, "first_token": first,
                                                     "end_token": end, "decision": decision, "scope": scope})


def _window_document(client) -> int:
    r = client.get("/annotate/api/window")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["window"]["document_id"]


def _only_document(app, text: str, found: list[tuple[str, str]]):
    """A fresh project's one document (its recognized phrases grouped) and an annotator whose window it is."""
    sql(app, "DELETE FROM entity")
    document = add_document(app, text, found, name="a.txt")
    group_entities(app, document)
    client = _client(app, ANNOTATOR)
    assert _window_document(client) == document
    return document, client


def test_entity_decision_decides_every_mention_here_and_elsewhere(clean_app, documents):
    app = clean_app
    client = _client(app, ANNOTATOR)
    here = _window_document(client)
    other = documents[1] if here == documents[0] else documents[0]
    jonathan = token_index(app, here, "Jonathan")
    harpers_here = [i for i in range(4) if _has(app, here, "Harper", i)]
    r = _decide(client, here, jonathan, jonathan + 2, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    # every mention in the window's document has the token decision ...
    mentions = sql(app, "SELECT m.first_token, m.end_token FROM entity_mention m WHERE m.document_id = %s "
                        "AND m.entity_id = (SELECT entity_id FROM entity_mention WHERE document_id = %s "
                        "AND first_token = %s AND end_token = %s)", (here, here, jonathan, jonathan + 2))
    assert len(mentions) >= 1 + len(harpers_here) - 1
    for m in mentions:
        assert annotation(app, here, m["first_token"], m["end_token"])["token_decision"] == "PRIVATE"
    # ... Anna Berg is another entity and stays undecided
    anna = token_index(app, here, "Anna") if _has(app, here, "Anna", 0) else None
    if anna is not None:
        assert annotation(app, here, anna, anna + 2)["token_decision"] is None
    # the other document's mentions get it by word-type rules (applied by the project's re-annotation)
    rules = {r["condition"]: r["confidence"] for r in sql(
        app, "SELECT condition, confidence FROM rule WHERE type = 'WORD_TYPE' AND annotation_id IS NULL")}
    assert rules.get("Jonathan Harper") == -1.0 and rules.get("Harper") == -1.0 and "Anna Berg" not in rules
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, other)
    harper_there = token_index(app, other, "Harper")
    assert annotation(app, other, harper_there, harper_there + 1)["rule_level"] < 0
    assert annotation(app, other, harper_there, harper_there + 1)["token_decision"] is None
    # every decision is logged: one row per mention here, one per mention elsewhere, no text
    log = sql(app, "SELECT document_id, action, decision::text AS decision, detail FROM decision_log "
                   "WHERE action = 'entity'")
    assert {row["document_id"] for row in log} == {here, other}
    assert len([row for row in log if row["document_id"] == here]) == len(mentions)
    assert all(row["decision"] == "PRIVATE" and row["detail"]["scope"] == "entity" for row in log)
    assert "Harper" not in str(log)


def _has(app, document_id: int, word: str, occurrence: int) -> bool:
    try:
        token_index(app, document_id, word, occurrence)
    except IndexError:
        return False
    return True


def test_entity_decision_public_and_refusals(clean_app, documents):
    app = clean_app
    client = _client(app, ANNOTATOR)
    here = _window_document(client)
    other = documents[1] if here == documents[0] else documents[0]
    harper = token_index(app, here, "Harper", 1)
    base = {"document_id": here, "first_token": harper, "end_token": harper + 1, "scope": "entity"}
    r = client.post("/annotate/api/decide", json={**base, "decision": "PUBLIC"})
    assert r.status_code == 200, r.get_json()
    assert annotation(app, here, harper, harper + 1)["token_decision"] == "PUBLIC"
    # bad input: 400 with a message, never a 500 (PUBLIC on words no recognizer found: no entity to decide)
    sued = token_index(app, here, "signed") if _has(app, here, "signed", 0) else token_index(app, here, "again")
    for body in ({**base, "decision": "MAYBE"}, {**base, "first_token": sued, "end_token": sued + 1,
                                                  "decision": "PUBLIC"},
                 {**base, "decision": "PRIVATE", "end_token": harper}, {**base, "decision": "PRIVATE",
                                                                         "scope": ["entity"]},
                 {**base, "decision": "PRIVATE", "label_id": "x"}):
        r = client.post("/annotate/api/decide", json=body)
        assert r.status_code == 400 and r.get_json()["error"], (body, r.get_json())
    # outside the window (another document): 403, nothing decided there
    other_harper = token_index(app, other, "Harper")
    r = client.post("/annotate/api/decide", json={**base, "document_id": other, "first_token": other_harper,
                                                  "end_token": other_harper + 1, "decision": "PRIVATE"})
    assert r.status_code == 403
    assert annotation(app, other, other_harper, other_harper + 1)["token_decision"] is None
    # roles: a non-member has no window (403), an anonymous caller is refused
    outsider = _client(app, OUTSIDER, member=False)
    r = outsider.post("/annotate/api/decide", json={**base, "decision": "PRIVATE"})
    assert r.status_code == 403
    anonymous = app.test_client()
    r = anonymous.post("/annotate/api/decide", json={**base, "decision": "PRIVATE"})
    assert r.status_code in (302, 400, 401, 403)
    assert sql(app, "SELECT count(*) AS n FROM decision_log WHERE decision = 'PRIVATE'")[0]["n"] == 0


def test_entity_decision_on_a_span_that_is_not_a_mention(clean_app, documents):
    """``x`` decides the selected span itself and the entity of the innermost mention containing it
    (or of the longest mention inside it): what the person selected is what they meant."""
    app = clean_app
    client = _client(app, ANNOTATOR)
    here = _window_document(client)
    jonathan = token_index(app, here, "Jonathan")
    # "Jonathan" alone: inside the mention "Jonathan Harper"
    r = _decide(client, here, jonathan, jonathan + 1, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    assert annotation(app, here, jonathan, jonathan + 1)["token_decision"] == "PRIVATE"
    assert annotation(app, here, jonathan, jonathan + 2)["token_decision"] == "PRIVATE"
    harper = token_index(app, here, "Harper", 1)
    assert annotation(app, here, harper, harper + 1)["token_decision"] == "PRIVATE"
    # "Later Harper": around the mention "Harper"
    r = _decide(client, here, harper - 1, harper + 1, "PUBLIC", "entity")
    assert r.status_code == 200, r.get_json()
    assert annotation(app, here, harper - 1, harper + 1)["token_decision"] == "PUBLIC"
    assert annotation(app, here, harper, harper + 1)["token_decision"] == "PUBLIC"


def test_entity_key_in_the_ui(clean_app, documents):
    client = _client(clean_app, ANNOTATOR)
    html = client.get("/annotate/").get_data(as_text=True)
    assert "<kbd>x</kbd> / <kbd>X</kbd>" in html and 'data-action="entity-private"' in html
    js = client.get("/static/annotate.js").get_data(as_text=True)
    assert '"x": function () { decide("PRIVATE", "entity"); }' in js


def test_an_organisation_is_decided_in_the_window_document_only(clean_app):
    """Whether a place or an organisation identifies someone depends on the document: ``x`` on one decides its
    mentions here and makes no word-type rule; its words elsewhere stay for a person (suspicious, suggested
    private by the mentions' lookup rules), never decided by the key."""
    app = clean_app
    sql(app, "DELETE FROM entity")
    orgs = [("Harbour Mills", "ORG")]
    a = add_document(app, "Harbour Mills dismissed him. Harbour Mills never paid.", orgs, name="a.txt")
    b = add_document(app, "He sued Harbour Mills in court.", orgs, name="b.txt")
    group_entities(app, a)
    group_entities(app, b)
    client = _client(app, ANNOTATOR)
    here = _window_document(client)
    other = b if here == a else a
    first = token_index(app, here, "Harbour")
    r = _decide(client, here, first, first + 2, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    for i in range(2 if here == a else 1):
        start = token_index(app, here, "Harbour", i)
        assert annotation(app, here, start, start + 2)["token_decision"] == "PRIVATE"
    assert not sql(app, "SELECT 1 FROM rule WHERE type = 'WORD_TYPE' AND annotation_id IS NULL")
    assert {r["document_id"] for r in sql(app, "SELECT document_id FROM decision_log WHERE action = 'entity'")} \
        == {here}
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, other)
    there = token_index(app, other, "Harbour")
    row = annotation(app, other, there, there + 2)
    assert row["token_decision"] is None and row["rule_level"] == 0  # suspicious: a person decides it there


def test_private_x_decides_the_same_words_in_the_document(clean_app):
    """``x`` PRIVATE also decides the other occurrences of the words in the window's document, and words no
    recognizer found (a name marked by hand, its lookup matches) are an entity of their own there; an
    occurrence a person decided PUBLIC stays public; nothing in the other document, no project rule."""
    app = clean_app
    sql(app, "DELETE FROM entity")
    people = [("Anna Berg", "PERSON")]
    text = "KALOR started. Anna Berg runs KALOR. The KALOR budget grew. KALOR ends."
    a = add_document(app, text, people, name="a.txt")
    b = add_document(app, text, people, name="b.txt")
    group_entities(app, a)
    group_entities(app, b)
    client = _client(app, ANNOTATOR)
    here = _window_document(client)
    other = b if here == a else a
    kalor = [token_index(app, here, "KALOR", i) for i in range(4)]
    r = _decide(client, here, kalor[3], kalor[3] + 1, "PUBLIC", "token")
    assert r.status_code == 200, r.get_json()
    r = _decide(client, here, kalor[1], kalor[1] + 1, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    assert [annotation(app, here, k, k + 1)["token_decision"] for k in kalor] == \
        ["PRIVATE", "PRIVATE", "PRIVATE", "PUBLIC"]
    anna = token_index(app, here, "Anna")
    assert annotation(app, here, anna, anna + 2)["token_decision"] is None
    assert not sql(app, "SELECT 1 FROM rule WHERE type = 'WORD_TYPE' AND annotation_id IS NULL")
    log = sql(app, "SELECT document_id, detail FROM decision_log WHERE action = 'entity'")
    assert len(log) == 3 and {row["document_id"] for row in log} == {here}
    assert all(row["detail"].get("words") for row in log) and "KALOR" not in str(log)
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, other)
    there = token_index(app, other, "KALOR")
    assert annotation(app, other, there, there + 1)["token_decision"] is None


def test_private_x_inside_a_public_mention_is_not_that_entity(clean_app, documents):
    """A person decided "Jonathan Harper" public (a span around something private); ``x`` PRIVATE on "Jonathan"
    inside it does not decide that entity's mentions: the selection is something else in it."""
    app = clean_app
    client = _client(app, ANNOTATOR)
    here = _window_document(client)
    jonathan = token_index(app, here, "Jonathan")
    r = _decide(client, here, jonathan, jonathan + 2, "PUBLIC", "token")
    assert r.status_code == 200, r.get_json()
    r = _decide(client, here, jonathan, jonathan + 1, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    assert annotation(app, here, jonathan, jonathan + 1)["token_decision"] == "PRIVATE"
    assert annotation(app, here, jonathan, jonathan + 2)["token_decision"] == "PUBLIC"
    assert not sql(app, "SELECT 1 FROM rule WHERE type = 'WORD_TYPE' AND annotation_id IS NULL")


def test_private_x_around_an_organisation_decides_the_selection_only(clean_app):
    """A private span around an organisation's mention ("Harbour Mills dismissed him") is not the organisation:
    ``x`` decides the selection (and its words where nothing was recognized), not the organisation's other
    mentions; around a person's name it still decides the person."""
    app = clean_app
    a, client = _only_document(app, "Harbour Mills dismissed him. Harbour Mills never paid. Mrs Anna Berg agreed. "
                                    "Anna Berg left.", [("Harbour Mills", "ORG"), ("Anna Berg", "PERSON")])
    mills = [token_index(app, a, "Harbour", i) for i in range(2)]
    r = _decide(client, a, mills[0], mills[0] + 3, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    assert annotation(app, a, mills[0], mills[0] + 3)["token_decision"] == "PRIVATE"
    for first in mills:
        row = annotation(app, a, first, first + 2)
        assert row is None or row["token_decision"] is None
    anna = [token_index(app, a, "Anna", i) for i in range(2)]
    r = _decide(client, a, anna[0] - 1, anna[0] + 2, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    assert [annotation(app, a, f, f + 2)["token_decision"] for f in anna] == ["PRIVATE", "PRIVATE"]


def test_private_x_decides_the_same_words_around_a_recognized_span_not_inside_one(clean_app):
    """Words marked by hand around a recognized span ("Sami villages" around the nationality "Sami") are the
    person's words wherever they stand again in the document; inside a longer recognized span ("the Sami
    villages Association") they belong to that span's entity and stay for a person."""
    app = clean_app
    text = "Two Sami villages sued. The Sami villages lost. The Sami villages Association appealed. Sami is spoken."
    a, client = _only_document(app, text, [("Sami", "NORP"), ("Sami villages Association", "ORG")])
    sami = [token_index(app, a, "Sami", i) for i in range(4)]
    r = _decide(client, a, sami[0], sami[0] + 2, "PRIVATE", "entity")
    assert r.status_code == 200, r.get_json()
    assert annotation(app, a, sami[1], sami[1] + 2)["token_decision"] == "PRIVATE"
    inside = annotation(app, a, sami[2], sami[2] + 2)
    assert inside is None or inside["token_decision"] is None
    alone = annotation(app, a, sami[3], sami[3] + 1)
    assert alone is None or alone["token_decision"] is None


def test_public_x_leaves_a_mention_a_person_decided_private(clean_app):
    """A public ``X`` never unmasks what a person decided private: a mention decided private one by one earlier
    (the applicant's school, private where it stands) and a span marked by hand around it stay private; the
    undecided mentions become public."""
    app = clean_app
    text = "He went to Harbour Mills School in 1995. Harbour Mills School closed. Harbour Mills School reopened."
    document, client = _only_document(app, text, [("Harbour Mills School", "ORG")])
    first, second, third = (token_index(app, document, "Harbour", i) for i in range(3))
    assert _decide(client, document, first, first + 3, "PRIVATE", "token").status_code == 200
    r = _decide(client, document, first, first + 5, "PRIVATE", "token")  # "Harbour Mills School in 1995" by hand
    assert r.status_code == 200, r.get_json()
    r = _decide(client, document, third, third + 3, "PUBLIC", "entity")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["kept_private"] >= 1  # the page says so: "… except N that you had decided private"
    assert annotation(app, document, first, first + 3)["token_decision"] == "PRIVATE"
    assert annotation(app, document, first, first + 5)["token_decision"] == "PRIVATE"
    assert annotation(app, document, second, second + 3)["token_decision"] == "PUBLIC"
    assert annotation(app, document, third, third + 3)["token_decision"] == "PUBLIC"


#: a selection relative to a mention of "Harbour Mills School": the mention, the word before it with it, "Mills"
_SELECTIONS = {"mention": (0, 3), "around": (-1, 3), "inside": (1, 2)}


_STEPS = st.lists(st.tuples(st.integers(0, 2), st.sampled_from(sorted(_SELECTIONS)),
                            st.sampled_from(["token", "entity"]), st.sampled_from(["PUBLIC", "PRIVATE"])),
                  min_size=1, max_size=6)


def test_public_x_never_unmasks_a_private_decision_outside_its_selection(clean_app):
    """Whatever a person decided before, a public ``X`` turns no span outside its selection from PRIVATE to
    PUBLIC (the selection itself gets the person's decision)."""
    app = clean_app
    text = "He went to Harbour Mills School in 1995. Then Harbour Mills School closed. Harbour Mills School won."
    document, client = _only_document(app, text, [("Harbour Mills School", "ORG")])
    starts = [token_index(app, document, "Harbour", i) for i in range(3)]

    def decisions() -> dict[tuple[int, int], str | None]:
        return {(r["first_token"], r["end_token"]): r["token_decision"] for r in sql(
            app, "SELECT first_token, end_token, token_decision::text AS token_decision FROM annotation "
                 "WHERE document_id = %s", (document,))}

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(steps=_STEPS)
    def check(steps: list[tuple[int, str, str, str]]) -> None:
        sql(app, "UPDATE annotation SET token_decision = NULL")
        for mention, selection, scope, decision in steps:
            first, end = (starts[mention] + offset for offset in _SELECTIONS[selection])
            before = decisions()
            r = _decide(client, document, first, end, decision, scope)
            if r.status_code == 400:  # e.g. no entity at the selection: nothing may change
                assert decisions() == before
                continue
            assert r.status_code == 200, r.get_json()
            after = decisions()
            assert after[(first, end)] == decision
            assert r.get_json().get("kept_private", 0) == 0 or (scope, decision) == ("entity", "PUBLIC")
            if decision == "PUBLIC":
                unmasked = [span for span, was in before.items() if was == "PRIVATE" and after.get(span) == "PUBLIC"
                            and not (first <= span[0] and span[1] <= end)]
                assert not unmasked, (steps, unmasked)

    check()
