"""Corrections reach the output: shrunk spans, hand-marked categories, postcodes.

Documents are inserted directly with their recognizer entities (tests/documents.py);
decisions go through the real store code (:mod:`psan.store.annotation.decisions`); output through the real
download routes, with the default fail-closed policy.
"""
from __future__ import annotations

import re

from psan.runtime import db
from psan.store.annotation.decisions import Scope, Span, assign_label, decide
from tests.documents import add_document, token_index
from tests.helpers import account_id, new_project
from tests.web.helpers import add_label, annotator_client, api_decide, api_window


def _decide(app, pid, doc, first, end, words, label=None, decision="PRIVATE"):
    admin = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        span = Span(pid, doc, first, end)
        if label is not None:
            assign_label(conn, span, label, admin, words)
        else:
            decide(conn, span, Scope.TOKEN, decision, admin, words)


def test_shrinking_a_recognizer_span_is_explicit(admin_client, clean_app):
    app = clean_app
    pid = new_project(app, "Shrink")
    text = "Signed by Jonathan Harper\nTel 555 and the clerk.\n"
    doc = add_document(app, text, [("Jonathan Harper\nTel", "PERSON")], project_id=pid, name="s.txt")
    before = admin_client.get(f"/documents/{doc}/download/tag").get_data(as_text=True)
    assert "Tel" not in before  # undecided recognizer span masked whole (fail closed)
    label = add_label(app, pid, "client", "PERSON")
    first = token_index(app, doc, "Jonathan")
    _decide(app, pid, doc, first, first + 2, ["Jonathan", "Harper"], label=label)
    for mode in ("tag", "remove", "pseudonymize"):  # a decision on a part never opens the rest
        out = admin_client.get(f"/documents/{doc}/download/{mode}").get_data(as_text=True)
        assert "Tel" not in out and "Harper" not in out, (mode, out)
    # the explicit shrink: the person decides the recognizer's whole span public, by token
    _decide(app, pid, doc, first, first + 3, ["Jonathan", "Harper", "Tel"], decision="PUBLIC")
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


def test_annotator_is_asked_for_a_category_only_when_nothing_gives_one(clean_app):
    app = clean_app
    text = "The clerk met Jan Novák and Zebulon yesterday.\n"
    doc = add_document(app, text, [("Jan Novák", "PERSON")])
    annotator = annotator_client(app, "annotator@example.org", window_size=30)
    status, _ = api_window(annotator)
    assert status == 200
    jan, zeb = token_index(app, doc, "Jan"), token_index(app, doc, "Zebulon")
    status, data = api_decide(annotator, doc, jan, jan + 3, "PRIVATE")  # "Jan Novák and": overlaps the recognizer
    assert status == 200 and data["category_needed"] is False, data
    status, data = api_decide(annotator, doc, zeb, zeb + 1, "PRIVATE")  # nothing recognized there
    assert status == 200 and data["category_needed"] is True, data
    status, data = api_decide(annotator, doc, zeb, zeb + 1, "PUBLIC")
    assert status == 200 and data["category_needed"] is False, data
