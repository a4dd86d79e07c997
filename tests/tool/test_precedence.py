"""psan.tool.decisions.precedence: a person's public word rule outranks unauthored private NE-type votes on its span."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

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


LOOKUP = Rule(9, "WORD_TYPE", ("Acme",), 0.0, author=7)  # the lookup rule of a span a person decided private


def test_a_lookup_keeps_a_public_sum_suspicious_and_leaves_a_private_one():
    assert rule_level([LOOKUP]) == 0.0
    assert rule_level([LEARNED, PERSONS, LOOKUP]) == 0.0  # the person's public words here contradicted
    assert rule_level([Rule(1, "NE_TYPE", "ORG", 0.5), LOOKUP]) == 0.0
    assert rule_level([LEARNED, LOOKUP]) == -1.0


_VOTES = st.lists(st.tuples(st.sampled_from(["NE_TYPE", "WORD_TYPE", "LEMMA"]),
                            st.sampled_from([-1.0, -0.5, 0.0, 0.1, 0.5, 1.0, 2.0]),
                            st.booleans()), max_size=6)


def _rules(votes: list[tuple[str, float, bool]]) -> list[Rule]:
    return [Rule(i, kind, "ORG" if kind == "NE_TYPE" else ("Acme",), vote, author=7 if authored else None)
            for i, (kind, vote, authored) in enumerate(votes, 1)]


@given(_VOTES)
def test_no_sum_of_votes_releases_words_a_lookup_matched(votes):
    """Whatever else votes, a span a word rule at 0 matched is never above 0 (never public at any threshold a
    lookup alone leaves suspicious), and below 0 it is the sum it was without the cap."""
    rules = _rules(votes)
    capped = rule_level([*rules, LOOKUP])
    assert capped <= 0.0
    assert capped == min(rule_level(rules), 0.0)
