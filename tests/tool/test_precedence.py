"""psan.tool.decisions.precedence: a person's public word rule outranks unauthored private NE-type votes on its span."""
from __future__ import annotations

from psan.tool.decisions.precedence import rule_level
from psan.tool.decisions.rules import Rule, RuleSet
from psan.tool.decisions.voting import annotate
from psan.tool.text.document import Document, Entity, Token

LEARNED = Rule(1, "NE_TYPE", "ORG", -1.0)  # learned: no author
PERSONS = Rule(2, "WORD_TYPE", ("Acme",), 1.0, author=7)


def test_the_persons_words_outrank_a_learned_type():
    assert rule_level([LEARNED, PERSONS]) == 1.0
    assert rule_level([LEARNED]) == -1.0


def test_no_precedence_for_unauthored_private_or_digit_words_nor_authored_types():
    assert rule_level([LEARNED, Rule(2, "WORD_TYPE", ("Acme",), 1.0)]) == 0.0  # nobody authored the words
    assert rule_level([LEARNED, Rule(2, "WORD_TYPE", ("Acme",), -1.0, author=7)]) == -2.0  # private: summed
    assert rule_level([LEARNED, Rule(2, "WORD_TYPE", ("Praha", "1"), 1.0, author=7)]) == 0.0  # a district?
    assert rule_level([Rule(1, "NE_TYPE", "ORG", -1.0, author=3), PERSONS]) == 0.0  # a person's "by NE type"
    assert rule_level([Rule(1, "NE_TYPE", "ORG", 0.5), PERSONS]) == 1.5  # public votes are summed


def test_a_sensitive_type_on_the_span_blocks_it():
    date = Rule(3, "NE_TYPE", "DATE", 0.0)
    assert rule_level([LEARNED, PERSONS, date]) == 0.0  # built-in: dates are sensitive
    assert rule_level([LEARNED, PERSONS], blocking={"ORG"}) == 0.0  # a project's list (the admin's, say)
    assert rule_level([Rule(1, "NE_TYPE", "EMAIL", -1.0), PERSONS]) == 0.0


def test_annotate_uses_it():
    doc = Document("Acme and Acme.", tokens=[Token(0, 0, 4), Token(1, 5, 8), Token(2, 9, 13), Token(3, 13, 14)],
                   entities=[Entity(0, 1, "ORG"), Entity(2, 3, "ORG")])
    anns = annotate(doc, RuleSet([LEARNED, PERSONS]))
    assert [(a.first_token, a.rule_level) for a in anns] == [(0, 1.0), (2, 1.0)]
