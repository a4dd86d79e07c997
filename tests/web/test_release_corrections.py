"""Corrections reach the output (issue 10, item 4): shrunk spans, hand-marked categories, postcodes.

Documents are inserted directly with their recognizer entities (tests/documents.py);
decisions go through the real store code (:mod:`psan.store.decisions`); output through the real
download routes, with the default fail-closed policy.
"""
from __future__ import annotations

import re

from psan import db
from psan.store.corrections import apply_corrections, fill_region_type
from psan.store.decisions import Scope, Span, assign_label, decide
from psan.tool.model import Category, Decision, Document, Entity, Token
from psan.tool.voting import Annotation, PrivateRegion, Thresholds
from tests.documents import add_document, token_index
from tests.web.helpers import account_id, add_label, new_project


def _decide(app, pid, doc, first, end, words, label=None, decision="PRIVATE"):
    admin = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        span = Span(pid, doc, first, end)
        if label is not None:
            assign_label(conn, span, label, admin, words)
        else:
            decide(conn, span, Scope.TOKEN, decision, admin, words)


def test_shrunk_recognizer_span_no_longer_hides_the_rest(admin_client, clean_app):
    app = clean_app
    pid = new_project(app, "Shrink")
    text = "Signed by Jonathan Harper\nTel 555 and the clerk.\n"
    doc = add_document(app, text, [("Jonathan Harper\nTel", "PERSON")], project_id=pid, name="s.txt")
    before = admin_client.get(f"/documents/{doc}/download/tag").get_data(as_text=True)
    assert "Tel" not in before  # undecided recognizer span masked whole (fail closed)
    label = add_label(app, pid, "client", "PERSON")
    first = token_index(app, doc, "Jonathan")
    _decide(app, pid, doc, first, first + 2, ["Jonathan", "Harper"], label=label)
    for mode in ("tag", "remove", "pseudonymize"):
        out = admin_client.get(f"/documents/{doc}/download/{mode}").get_data(as_text=True)
        assert "\nTel 555 and the clerk." in out and "Harper" not in out, (mode, out)


def test_hand_marked_span_takes_the_overlapping_recognizer_category(admin_client, clean_app):
    app = clean_app
    pid = new_project(app, "Hand")
    text = "The witness was Anna Maria Kowalska from the village.\n"
    doc = add_document(app, text, [("Kowalska", "PERSON")], project_id=pid, name="h.txt")
    first = token_index(app, doc, "Anna")
    _decide(app, pid, doc, first, first + 3, ["Anna", "Maria", "Kowalska"])  # no label, no category chosen
    tagged = admin_client.get(f"/documents/{doc}/download/tag").get_data(as_text=True)
    assert re.search(r"was \[PERSON[^\]]*\] from", tagged), tagged
    pseudo = admin_client.get(f"/documents/{doc}/download/pseudonymize").get_data(as_text=True)
    assert "[OTHER" not in pseudo and "Kowalska" not in pseudo and "Anna" not in pseudo, pseudo
    # with no recognizer anywhere near, the category really is unknown
    other = add_document(app, "Plain words here and Zebulon there.\n", [], project_id=pid, name="o.txt")
    z = token_index(app, other, "Zebulon")
    _decide(app, pid, other, z, z + 1, ["Zebulon"])
    assert "[OTHER]" in admin_client.get(f"/documents/{other}/download/tag").get_data(as_text=True)


def test_postcode_stays_a_postcode_whatever_its_label(admin_client, clean_app):
    app = clean_app
    pid = new_project(app, "Postcode")
    text = "Bydliště: Dlouhá 5, PSČ 110 00 Praha.\n"
    doc = add_document(app, text, [("110 00", "az"), ("Praha", "gu")], project_id=pid, name="p.txt", language="cs")
    place = add_label(app, pid, "misto", "LOCATION")
    first = token_index(app, doc, "110")
    _decide(app, pid, doc, first, first + 2, ["110", "00"], label=place)
    out = admin_client.get(f"/documents/{doc}/download/pseudonymize").get_data(as_text=True)
    assert "110 00" not in out
    assert re.search(r"PSČ \d{3} ?\d{2} ", out), out  # a postcode, not a place name


def _doc(n_tokens: int, entities: list[Entity]) -> Document:
    tokens = [Token(i, 2 * i, 2 * i + 1) for i in range(n_tokens)]
    return Document("x " * n_tokens, tokens, [], entities, "en")


def test_apply_corrections_rules():
    thresholds = Thresholds(1.0, -1.0)
    doc = _doc(10, [Entity(2, 5, "PERSON", Category.PERSON)])
    recognizer = Annotation(2, 5, rule_ids=(1,), rule_level=0.0, category=Category.PERSON, types=("PERSON",))
    shrink = Annotation(2, 4, token_decision=Decision.PRIVATE)
    kept = apply_corrections(doc, [recognizer, shrink], thresholds)
    assert kept == [shrink] and shrink.category is Category.PERSON  # category from the recognizer
    # a PUBLIC decision on a part of an undecided span does not open the rest (fail closed)
    part = Annotation(4, 5, token_decision=Decision.PUBLIC)
    assert apply_corrections(doc, [recognizer, part], thresholds) == [recognizer, part]
    # a PUBLIC decision containing an undecided span decides it; a rule-private nested span stays
    outer = Annotation(1, 6, token_decision=Decision.PUBLIC)
    private_rule = Annotation(2, 5, rule_ids=(2,), rule_level=-1.0, types=("PERSON",))
    assert apply_corrections(doc, [recognizer, outer], thresholds) == [outer]
    assert apply_corrections(doc, [private_rule, outer], thresholds) == [private_rule, outer]
    # a word-type rule's span (no recognizer entity on it) is never opened by a person's sub-span
    word_rule = Annotation(2, 5, rule_ids=(3,), rule_level=-1.0)
    assert apply_corrections(doc, [word_rule, shrink], thresholds) == [word_rule, shrink]
    # a person's chosen category is never replaced
    chosen = Annotation(2, 4, token_decision=Decision.PRIVATE, category=Category.OTHER)
    apply_corrections(doc, [chosen], thresholds, person_categories={(2, 4)})
    assert chosen.category is Category.OTHER


def test_fill_region_type_takes_the_covering_recognizer_type():
    doc = _doc(6, [Entity(1, 3, "POSTAL_CODE", Category.LOCATION), Entity(4, 5, "CITY", Category.LOCATION)])
    region = PrivateRegion(2, 6, Category.LOCATION, first_token=1, end_token=3)
    assert fill_region_type(doc, region).type == "POSTAL_CODE"
    wide = PrivateRegion(0, 12, Category.LOCATION, first_token=0, end_token=6)
    assert fill_region_type(doc, wide).type == ""  # no entity covers half of it
    typed = PrivateRegion(2, 6, Category.LOCATION, type="gu", first_token=1, end_token=3)
    assert fill_region_type(doc, typed).type == "gu"


def test_annotator_is_asked_for_a_category_only_when_nothing_gives_one(clean_app):
    from tests.web.test_annotate import _client, _decide, _window
    app = clean_app
    text = "The clerk met Jan Novák and Zebulon yesterday.\n"
    doc = add_document(app, text, [("Jan Novák", "PERSON")])
    annotator = _client(app, "annotator@example.org", size=30)
    status, _ = _window(annotator)
    assert status == 200
    jan, zeb = token_index(app, doc, "Jan"), token_index(app, doc, "Zebulon")
    status, data = _decide(annotator, doc, jan, jan + 3, "PRIVATE")  # "Jan Novák and": overlaps the recognizer
    assert status == 200 and data["category_needed"] is False, data
    status, data = _decide(annotator, doc, zeb, zeb + 1, "PRIVATE")  # nothing recognized there
    assert status == 200 and data["category_needed"] is True, data
    status, data = _decide(annotator, doc, zeb, zeb + 1, "PUBLIC")
    assert status == 200 and data["category_needed"] is False, data
