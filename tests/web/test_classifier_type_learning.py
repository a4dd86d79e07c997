"""A pre-trained classifier's spans are learned like an NER model's types, private only (issue 34).

Why: the pipeline's ``classifier-<lang>.bin`` finds names NER misses; with the one type ``MODEL`` each of its spans
cost a judgment.  Its spans now carry ``CLS_<CATEGORY>_<SHAPE>`` (psan.tool.detection.classifier.span_types): ten
private decisions on a type mask its other spans with no judgment.  Nothing of it becomes public without a person:
the app never learns a classifier type public, however many public decisions it sees, and the project model's own
proposals (``MODEL``) are still learned neither way.  Through the annotation API, on the real database.
"""
from __future__ import annotations

import pytest

from psan.tool.decisions.suggest import LEARN_PUBLIC_AFTER, LEARN_TYPE_AFTER
from tests.documents import add_document, annotation
from tests.helpers import sql
from tests.web.helpers import annotator_client, api_decide, api_window

ANNOTATOR = "annotator@example.org"


@pytest.fixture()
def annotator(clean_app):
    return annotator_client(clean_app, ANNOTATOR, window_size=1000)


def _document(app, ne_type: str, count: int, source: str = "classifier") -> tuple[int, list[int]]:
    """``count`` sentences "Today NameN came ." whose names are spans of ``ne_type`` from ``source``; the names'
    token indexes."""
    text = " ".join(f"Today Name{i} came." for i in range(count))
    names = [4 * i + 1 for i in range(count)]
    doc = add_document(app, text, spans=[(i, i + 1, ne_type) for i in names])
    sql(app, "UPDATE named_entity SET source = %s WHERE document_id = %s RETURNING id", (source, doc))
    return doc, names


def _rule(app, ne_type: str) -> float:
    return sql(app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = %s", (ne_type,))[0][
        "confidence"]


def _decide_all(app, client, doc: int, names: list[int], decision: str) -> None:
    assert api_window(client)[1]["window"]["document_id"] == doc
    for i in names:
        assert api_decide(client, doc, i, i + 1, decision)[0] == 200


def test_a_classifier_type_decided_private_masks_its_other_spans_unjudged(clean_app, annotator):
    doc, names = _document(clean_app, "CLS_PERSON_CAP", LEARN_TYPE_AFTER + 2)
    _decide_all(clean_app, annotator, doc, names[:LEARN_TYPE_AFTER], "PRIVATE")
    assert _rule(clean_app, "CLS_PERSON_CAP") == -1.0  # learned, by nobody's "by type"
    for i in names[LEARN_TYPE_AFTER:]:
        row = annotation(clean_app, doc, i, i + 1)
        assert row["token_decision"] is None and row["rule_level"] == -1.0  # masked without a judgment


def test_the_project_models_own_proposals_are_still_learned_neither_way(clean_app, annotator):
    doc, names = _document(clean_app, "MODEL", LEARN_TYPE_AFTER + 2, source="model")
    _decide_all(clean_app, annotator, doc, names[:LEARN_TYPE_AFTER], "PRIVATE")
    assert _rule(clean_app, "MODEL") == 0
    assert annotation(clean_app, doc, names[-1], names[-1] + 1)["rule_level"] == 0


@pytest.mark.parametrize(("ne_type", "source", "learned"), [
    ("CLS_ORGANIZATION_LOWER", "classifier", 0.0), ("CLS_DATE_NUM", "classifier", 0.0),
    ("ORG", "test", 1.0)])  # an NER type of the same category is taught public: the rule the classifier is kept from
def test_nothing_of_a_classifier_type_becomes_public_without_a_person(clean_app, annotator, ne_type, source, learned):
    """Every one of many spans decided public: the type stays undecided, its next span waits for a person (masked
    until then), whether its category could be learned public as an NER type (an organisation) or not (a date)."""
    count = LEARN_PUBLIC_AFTER + 5
    doc, names = _document(clean_app, ne_type, count + 1, source)
    _decide_all(clean_app, annotator, doc, names[:count], "PUBLIC")
    assert _rule(clean_app, ne_type) == learned
    last = annotation(clean_app, doc, names[-1], names[-1] + 1)
    assert last["token_decision"] is None and last["rule_level"] == learned  # 0: suspicious, masked
