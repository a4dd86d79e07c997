"""Corrections before the output (psan.store.publish.corrections): shrunk spans, categories from the recognizer."""
from __future__ import annotations

from psan.store.publish.corrections import apply_corrections, fill_region_type
from psan.tool.decisions.voting import Annotation, PrivateRegion
from psan.tool.text.document import Category, Decision, Document, Entity, Token


def _doc(n_tokens: int, entities: list[Entity]) -> Document:
    tokens = [Token(i, 2 * i, 2 * i + 1) for i in range(n_tokens)]
    return Document("x " * n_tokens, tokens, [], entities, "en")


def test_apply_corrections_never_drops_a_span():
    """A person's decision on a part, around or across a recognizer's span leaves that span standing."""
    doc = _doc(10, [Entity(2, 5, "PERSON", Category.PERSON)])
    recognizer = Annotation(2, 5, rule_ids=(1,), rule_level=-1.0, category=Category.PERSON, types=("PERSON",))
    part = Annotation(3, 4, token_decision=Decision.PRIVATE)
    outer = Annotation(1, 6, token_decision=Decision.PUBLIC)
    crossing = Annotation(4, 7, token_decision=Decision.PUBLIC)
    got = apply_corrections(doc, [recognizer, part, outer, crossing])
    assert got == [recognizer, part, outer, crossing]
    assert part.category is Category.PERSON  # category from the recognizer
    # a person's chosen category is never replaced
    chosen = Annotation(2, 4, token_decision=Decision.PRIVATE, category=Category.OTHER)
    apply_corrections(doc, [chosen], person_categories={(2, 4)})
    assert chosen.category is Category.OTHER


def test_fill_region_type_takes_the_covering_recognizer_type():
    doc = _doc(6, [Entity(1, 3, "POSTAL_CODE", Category.LOCATION), Entity(4, 5, "CITY", Category.LOCATION)])
    region = PrivateRegion(2, 6, Category.LOCATION, first_token=1, end_token=3)
    assert fill_region_type(doc, region).type == "POSTAL_CODE"
    wide = PrivateRegion(0, 12, Category.LOCATION, first_token=0, end_token=6)
    assert fill_region_type(doc, wide).type == ""  # no entity covers half of it
    typed = PrivateRegion(2, 6, Category.LOCATION, type="gu", first_token=1, end_token=3)
    assert fill_region_type(doc, typed).type == "gu"
