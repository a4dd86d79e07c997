"""Voting: rule levels, thresholds, person decisions, nesting, regions."""
from __future__ import annotations

import pytest

from psan.tool.decisions.rules import Rule, RuleSet, RuleType
from psan.tool.decisions.voting import (
    Annotation,
    Thresholds,
    TokenDecision,
    annotate,
    decided_regions,
    final_decision,
)
from psan.tool.text.document import Category, Decision, Document, Entity
from tests.tool.helpers import regex_document


def make_doc(text: str) -> Document:
    return regex_document(text, "cs")


def word(rid: int, cond: str, conf: float, **kw) -> Rule:
    return Rule(rid, RuleType.WORD_TYPE, tuple(cond.split()), confidence=conf, **kw)


def by_span(doc: Document, anns: list[Annotation]) -> dict[str, Annotation]:
    return {doc.span_text(a.first_token, a.end_token): a for a in anns}


def test_thresholds_default_and_custom() -> None:
    t = Thresholds()
    assert [t.classify(x) for x in (1, 0.99, 0, -0.99, -1, 5, -5)] == [
        Decision.PUBLIC, Decision.SUSPICIOUS, Decision.SUSPICIOUS, Decision.SUSPICIOUS,
        Decision.PRIVATE, Decision.PUBLIC, Decision.PRIVATE]
    t2 = Thresholds(public=3, private=-0.5)
    assert t2.classify(2) is Decision.SUSPICIOUS and t2.classify(-0.5) is Decision.PRIVATE
    with pytest.raises(ValueError):
        Thresholds(public=0, private=0)


def test_rule_level_is_sum_of_confidences() -> None:
    doc = make_doc("Jan Novák přišel")
    rs = RuleSet([word(1, "Jan Novák", -1.5), word(2, "Jan Novák", 2, case_sensitive=False),
                  word(3, "Jan Novák", -1, label=7)])
    [ann] = annotate(doc, rs)
    assert ann.rule_ids == (1, 2, 3) and ann.rule_level == pytest.approx(-0.5)
    assert final_decision(ann) is Decision.SUSPICIOUS
    assert final_decision(ann, Thresholds(public=1, private=-0.5)) is Decision.PRIVATE
    assert ann.label == 7 and ann.source == "RULE"


def test_zero_confidence_lookup_rule_is_suspicious() -> None:
    doc = make_doc("Jan a Petr")
    rs = RuleSet([word(1, "Jan", 0), word(2, "Petr", 0), word(3, "Petr", 1)])
    anns = by_span(doc, annotate(doc, rs))
    assert final_decision(anns["Jan"]) is Decision.SUSPICIOUS
    # a public vote does not release words a lookup rule asks a person to see
    assert final_decision(anns["Petr"]) is Decision.SUSPICIOUS


def test_person_decision_wins_over_rules() -> None:
    doc = make_doc("Jan a Petr")
    rs = RuleSet([word(1, "Jan", 5), word(2, "Petr", -5, label=1)])
    decisions = [TokenDecision(0, 1, Decision.PRIVATE, label=9, category=Category.PERSON),
                 TokenDecision(2, 3, Decision.PUBLIC)]
    anns = by_span(doc, annotate(doc, rs, decisions))
    assert final_decision(anns["Jan"]) is Decision.PRIVATE and anns["Jan"].label == 9
    assert anns["Jan"].source == "USER" and anns["Jan"].category is Category.PERSON
    assert anns["Jan"].rule_level == 5  # the vote stays recorded
    assert final_decision(anns["Petr"]) is Decision.PUBLIC
    assert decided_regions(doc, anns.values()) == [
        decided_regions(doc, [anns["Jan"]])[0]]


def test_person_only_span_without_rules() -> None:
    doc = make_doc("bydlí na adrese Dlouhá 5")
    anns = annotate(doc, RuleSet([]), [TokenDecision(3, 5, Decision.PRIVATE, label=2)])
    assert len(anns) == 1 and anns[0].rule_ids == () and final_decision(anns[0]) is Decision.PRIVATE
    [reg] = decided_regions(doc, anns)
    assert doc.text[reg.start:reg.end] == "Dlouhá 5" and reg.label == 2
    with pytest.raises(ValueError):
        annotate(doc, RuleSet([]), [TokenDecision(3, 50, Decision.PRIVATE)])
    with pytest.raises(ValueError):
        TokenDecision(0, 1, Decision.SUSPICIOUS)


def test_ne_rule_category_and_types_from_entities() -> None:
    doc = make_doc("Jan Novák žije v Praze")
    doc.entities = [Entity(0, 2, "P", Category.PERSON), Entity(4, 5, "gu", Category.LOCATION)]
    rs = RuleSet([Rule(1, RuleType.NE_TYPE, "P", confidence=-1), Rule(2, RuleType.NE_TYPE, "gu", confidence=0),
                  word(3, "žije", -1, category=Category.OTHER), word(4, "v", -1, category=Category.DATE)])
    anns = by_span(doc, annotate(doc, rs))
    assert anns["Jan Novák"].category is Category.PERSON and anns["Jan Novák"].types == ("P",)
    assert final_decision(anns["Praze"]) is Decision.SUSPICIOUS
    assert anns["v"].category is Category.DATE
    regions = decided_regions(doc, anns.values())
    assert [(doc.text[r.start:r.end], r.type) for r in regions] == [("Jan Novák", "P"), ("žije", ""), ("v", "")]
    # suspicious spans are public by default, private on request
    regions = decided_regions(doc, anns.values(), suspicious_as=Decision.PRIVATE)
    assert doc.text[regions[-1].start:regions[-1].end] == "Praze"
    with pytest.raises(ValueError):
        decided_regions(doc, anns.values(), suspicious_as=Decision.SUSPICIOUS)


def test_precomputed_matches_are_used() -> None:
    doc = make_doc("a b c")
    rs = RuleSet([word(1, "a", -1), word(2, "c", -1)])
    anns = annotate(doc, rs, matches=rs.match(doc)[:1])
    assert [(a.first_token, a.end_token) for a in anns] == [(0, 1)]


# --- nesting -------------------------------------------------------------------

TEXT = "Rozsudek Městského soudu v Brně ze dne"
#        0        1         2     3 4    5  6


def test_nested_private_inside_private_is_covered_by_outer() -> None:
    doc = make_doc(TEXT)
    decisions = [TokenDecision(1, 5, Decision.PRIVATE, label=1, category=Category.ORGANIZATION),
                 TokenDecision(4, 5, Decision.PRIVATE, label=2, category=Category.LOCATION)]
    [reg] = decided_regions(doc, annotate(doc, RuleSet([]), decisions))
    assert doc.text[reg.start:reg.end] == "Městského soudu v Brně"
    assert reg.label == 1 and reg.category is Category.ORGANIZATION
    assert (reg.first_token, reg.end_token) == (1, 5) and len(reg.token_spans) == 4


def test_public_outer_does_not_hide_private_nested() -> None:
    doc = make_doc(TEXT)
    decisions = [TokenDecision(1, 5, Decision.PUBLIC),
                 TokenDecision(4, 5, Decision.PRIVATE, label=2, category=Category.LOCATION)]
    [reg] = decided_regions(doc, annotate(doc, RuleSet([]), decisions))
    assert doc.text[reg.start:reg.end] == "Brně" and reg.label == 2


def test_public_nested_inside_private_rule_span_stays_private() -> None:
    doc = make_doc(TEXT)
    rs = RuleSet([word(1, "Městského soudu v Brně", -2, label=4)])
    decisions = [TokenDecision(4, 5, Decision.PUBLIC)]
    [reg] = decided_regions(doc, annotate(doc, rs, decisions))
    assert doc.text[reg.start:reg.end] == "Městského soudu v Brně" and reg.label == 4


def test_person_public_on_same_span_overrides_private_rule() -> None:
    doc = make_doc(TEXT)
    rs = RuleSet([word(1, "Brně", -10)])
    assert decided_regions(doc, annotate(doc, rs, [TokenDecision(4, 5, Decision.PUBLIC)])) == []


def test_crossing_spans_merge_longest_label_wins() -> None:
    doc = make_doc("a b c d e f")
    decisions = [TokenDecision(0, 2, Decision.PRIVATE, label=1), TokenDecision(1, 5, Decision.PRIVATE, label=2)]
    [reg] = decided_regions(doc, annotate(doc, RuleSet([]), decisions))
    assert (reg.first_token, reg.end_token, reg.label) == (0, 5, 2)


def test_touching_spans_stay_separate() -> None:
    doc = make_doc("Jan Novák Praha")
    decisions = [TokenDecision(0, 2, Decision.PRIVATE, label=1, category=Category.PERSON),
                 TokenDecision(2, 3, Decision.PRIVATE, label=2, category=Category.LOCATION)]
    regs = decided_regions(doc, annotate(doc, RuleSet([]), decisions))
    assert [(doc.text[r.start:r.end], r.label, r.category) for r in regs] == [
        ("Jan Novák", 1, Category.PERSON), ("Praha", 2, Category.LOCATION)]
