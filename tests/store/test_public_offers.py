"""Offered public rules on the real database: offered after repeated public decisions, confirmed into a rule that
decides the matching spans public (never a span a person decided private), and undone.

The decisions are made through the store as a window's request makes them; the project run after a confirmation is
the targeted run the worker does (triggers on ``rule``), and a full run on top must change nothing.
"""
from __future__ import annotations

import itertools

import pytest

from psan.runtime import db
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.apply_rule import apply_new_rules
from psan.store.corpus.documents import load_document
from psan.store.corpus.reannotate import reannotate_project
from psan.store.corpus.rule_changes import reannotate_changed
from psan.store.corpus.vocabulary import save_vocabulary
from psan.store.review import public_offers
from psan.tool.decisions import public_offers as offer_rules
from tests.documents import add_document, phrase_spans
from tests.helpers import make_account, project_snapshot, sql

COURT = "European Court of Human Rights"
TEXTS = [
    f"The {COURT} heard Eva Smith. The {COURT} ruled. Ministry of Justice replied.",
    f"John Brown applied to the {COURT}. Later the {COURT} asked the Ministry of Justice.",
    f"The {COURT} decided. The Ministry of Justice paid. The {COURT} closed the case.",
]
ENTITIES = [(COURT, "ORG"), ("Ministry of Justice", "ORG"), ("Eva Smith", "PERSON"), ("John Brown", "PERSON")]
_projects = itertools.count(1)


def _project(app) -> tuple[int, int, list[int]]:
    n = next(_projects)
    project_id = sql(app, "INSERT INTO project (name) VALUES (%s) RETURNING id", (f"offers {n}",))[0]["id"]
    account = make_account(app, f"offers{n}@example.org", "ADMIN").id
    docs = [add_document(app, text, ENTITIES, project_id=project_id, name=f"d{i}.txt") for i, text in enumerate(TEXTS)]
    with app.app_context(), db.transaction() as conn:
        for doc in docs:
            save_vocabulary(conn, doc, load_document(conn, doc))
    _run(app, project_id)
    return project_id, account, docs


def _run(app, project_id: int) -> None:
    with app.app_context():
        reannotate_changed(db.transaction, project_id)


def _decide(app, project_id: int, account: int, document_id: int, span: tuple[int, int], decision: str) -> None:
    first, end = span
    with app.app_context(), db.transaction() as conn:
        words = load_document(conn, document_id)
        tokens = [words.text[t.start:t.end] for t in words.tokens[first:end]]
        out = store_decisions.decide(conn, store_decisions.Span(project_id, document_id, first, end),
                                     store_decisions.Scope.TOKEN, decision, account, tokens)
        apply_new_rules(conn, document_id, out.changed_rule_ids + out.removed_rule_ids,
                        affected_annotation_ids=out.affected_annotation_ids)
    _run(app, project_id)


def _state(app, document_id: int, span: tuple[int, int]) -> tuple[str | None, float]:
    row = sql(app, "SELECT token_decision::text AS d, rule_level FROM annotation WHERE document_id = %s "
                   "AND first_token = %s AND end_token = %s", (document_id, *span))[0]
    return row["d"], row["rule_level"]


def _offers(app, project_id: int) -> dict[str, public_offers.Offer]:
    with app.app_context(), db.transaction() as conn:
        return {o.form: o for o in public_offers.offers(conn, project_id)}


def _full_run_changes_nothing(app, project_id: int) -> None:
    targeted = project_snapshot(app, project_id)
    with app.app_context():
        reannotate_project(db.transaction, project_id)
    assert project_snapshot(app, project_id) == targeted


def test_the_rule_of_offers():
    ev = offer_rules.collect([(1, ["Supreme", "Court"], False, ["ORG"], ["ORGANIZATION"]),
                              (1, ["supreme", "court"], False, ["ORG"], ["ORGANIZATION"]),
                              (2, ["Supreme", "Court"], False, ["ORG"], ["ORGANIZATION"])])
    assert list(ev) == ["supreme court"] and offer_rules.offerable(ev["supreme court"], 3)
    ev["supreme court"].add(3, True, ["ORG"], ["ORGANIZATION"], ["Supreme", "Court"])
    assert not offer_rules.offerable(ev["supreme court"], 3)  # one private decision withholds it
    one_doc = offer_rules.collect([(1, ["Paris"], False, ["GPE"], ["LOCATION"])] * 4)
    assert not offer_rules.offerable(one_doc["paris"], 3)  # one document only
    names = offer_rules.collect([(d, ["Eva"], False, ["PERSON"], ["PERSON"]) for d in (1, 2, 3)])
    assert not offer_rules.offerable(names["eva"], 3)  # never a name
    street = offer_rules.collect([(d, ["Main", "Street", "5"], False, ["GPE"], ["LOCATION"]) for d in (1, 2, 3)])
    assert not offer_rules.offerable(street["main street 5"], 3)  # digits: an address
    assert 0 < offer_rules.private_share_bound(3) < 1 and offer_rules.private_share_bound(3, 1) == 1.0


def test_offer_confirm_and_undo(clean_app):
    app = clean_app
    project_id, account, docs = _project(app)
    court = {d: phrase_spans(app, d, COURT) for d in docs}
    form = offer_rules.normalise(COURT.split())
    # two public decisions in one document: no offer yet
    for span in court[docs[0]]:
        _decide(app, project_id, account, docs[0], span, "PUBLIC")
    assert form not in _offers(app, project_id)
    # a third in another document: offered, showing the undecided mentions
    _decide(app, project_id, account, docs[1], court[docs[1]][0], "PUBLIC")
    offer = _offers(app, project_id)[form]
    assert offer.public == 3 and offer.documents == 2
    assert offer.undecided == 3  # one in d1, two in d2
    assert {m["document_id"] for m in offer.mentions} == {docs[1], docs[2]}
    assert all(m["text"] == COURT for m in offer.mentions)
    # a person decides one mention private: the offer is withheld ...
    _decide(app, project_id, account, docs[2], court[docs[2]][1], "PRIVATE")
    assert form not in _offers(app, project_id)
    # ... and offered again when that decision becomes public
    _decide(app, project_id, account, docs[2], court[docs[2]][1], "PUBLIC")
    assert _offers(app, project_id)[form].public == 4


def test_confirming_decides_matching_spans_public_except_a_persons_private_decision(clean_app):
    app = clean_app
    project_id, account, docs = _project(app)
    court = {d: phrase_spans(app, d, COURT) for d in docs}
    form = offer_rules.normalise(COURT.split())
    for d, span in [(docs[0], court[docs[0]][0]), (docs[0], court[docs[0]][1]), (docs[1], court[docs[1]][0])]:
        _decide(app, project_id, account, d, span, "PUBLIC")
    # a private decision on the mention inside a longer span a person decided private: stays covered
    eva = phrase_spans(app, docs[0], "Eva Smith")[0]
    _decide(app, project_id, account, docs[0], eva, "PRIVATE")
    assert form in _offers(app, project_id)
    undecided_before = [_state(app, docs[2], s) for s in court[docs[2]]]
    assert all(d is None and level < 1 for d, level in undecided_before)
    with app.app_context(), db.transaction() as conn:
        answer = public_offers.confirm(conn, project_id, COURT, account)
    assert answer["state"] == "CONFIRMED" and answer["undecided_mentions"] == 3
    rule = sql(app, "SELECT type::text AS type, condition, case_sensitive, confidence, author_id FROM rule "
                    "WHERE id = %s", (answer["rule_id"],))[0]
    assert rule == {"type": "WORD_TYPE", "condition": form, "case_sensitive": False, "confidence": 1.0,
                    "author_id": account}
    _run(app, project_id)
    # every undecided mention is public now, by the rule (no token decision written for them)
    for d, spans in ((docs[1], court[docs[1]][1:]), (docs[2], court[docs[2]])):
        for span in spans:
            decision, level = _state(app, d, span)
            assert decision is None and level >= 1
    assert _state(app, docs[0], eva)[0] == "PRIVATE"
    assert form not in _offers(app, project_id)  # answered
    with pytest.raises(public_offers.OfferError):
        with app.app_context(), db.transaction() as conn:
            public_offers.confirm(conn, project_id, COURT, account)
    # a later private decision of a person on a matching span beats the rule, and its lookup keeps the court's
    # other mention in that document waiting for a person (the rule still decides the other documents)
    _decide(app, project_id, account, docs[2], court[docs[2]][0], "PRIVATE")
    assert _state(app, docs[2], court[docs[2]][0])[0] == "PRIVATE"
    assert _state(app, docs[2], court[docs[2]][1]) == (None, 0.0)
    assert _state(app, docs[1], court[docs[1]][1])[1] >= 1
    _full_run_changes_nothing(app, project_id)
    # undo: the rule goes, the spans fall back to suspicious; the person's decisions stay
    with app.app_context(), db.transaction() as conn:
        undone = public_offers.undo(conn, project_id, COURT, account)
    assert undone["undone"] == "CONFIRMED"
    assert not sql(app, "SELECT 1 FROM rule WHERE id = %s", (answer["rule_id"],))
    _run(app, project_id)
    assert _state(app, docs[2], court[docs[2]][1]) == (None, 0.0)
    assert _state(app, docs[2], court[docs[2]][0])[0] == "PRIVATE"
    assert _state(app, docs[0], court[docs[0]][0])[0] == "PUBLIC"
    _full_run_changes_nothing(app, project_id)
    with pytest.raises(public_offers.OfferError) as missing:
        with app.app_context(), db.transaction() as conn:
            public_offers.undo(conn, project_id, COURT, account)
    assert missing.value.status == 404


def test_a_dismissed_offer_is_not_offered_again_until_undone(clean_app):
    app = clean_app
    project_id, account, docs = _project(app)
    form = offer_rules.normalise(COURT.split())
    for d in docs:
        _decide(app, project_id, account, d, phrase_spans(app, d, COURT)[0], "PUBLIC")
    assert form in _offers(app, project_id)
    with app.app_context(), db.transaction() as conn:
        public_offers.dismiss(conn, project_id, COURT.upper(), account)
    assert form not in _offers(app, project_id)
    assert not sql(app, "SELECT 1 FROM rule WHERE project_id = %s AND author_id = %s AND annotation_id IS NULL",
                   (project_id, account))
    with app.app_context(), db.transaction() as conn:
        assert public_offers.undo(conn, project_id, COURT, account)["undone"] == "DISMISSED"
    assert form in _offers(app, project_id)
