"""Rule matching: token boundaries, overlaps, sentences, case, lemmas, kinds."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.decisions.rules import (
    RULE_KINDS,
    Rule,
    RuleMatch,
    RuleSet,
    RuleType,
    TokenAutomaton,
    condition_from_span,
    drop_covered,
    register_rule_kind,
    sentence_segments,
    split_condition,
)
from psan.tool.morph.lemma import SuffixLemmatizer, get_lemmatizer, identity_lemmatizer
from psan.tool.text.document import Document, Entity, Sentence, Token

_TOKEN = re.compile(r"\w+|[^\w\s]")


def make_doc(text: str, language: str = "cs", sentences: bool = True) -> Document:
    """Tiny local tokenizer: words and single punctuation; sentences end at . ! ?"""
    tokens = [Token(i, m.start(), m.end()) for i, m in enumerate(_TOKEN.finditer(text))]
    sents: list[Sentence] = []
    if sentences:
        first = 0
        for t in tokens:
            if text[t.start:t.end] in {".", "!", "?"}:
                sents.append(Sentence(first, t.id + 1))
                first = t.id + 1
        if first < len(tokens):
            sents.append(Sentence(first, len(tokens)))
    return Document(text=text, tokens=tokens, sentences=sents, language=language)


def word(rid: int, cond: str, **kw) -> Rule:
    return Rule(rid, RuleType.WORD_TYPE, split_condition(cond), **kw)


def spans(doc: Document, matches: list[RuleMatch]) -> list[tuple[str, tuple[int, ...]]]:
    return [(doc.span_text(m.first_token, m.end_token), m.rule_ids) for m in matches]


def test_prefix_rules_report_all_matches() -> None:
    doc = make_doc("Jan Procházka potkal Jan Nováka a Jan Novák odešel.")
    rs = RuleSet([word(1, "Jan"), word(2, "Jan Novák")])
    got = spans(doc, rs.match(doc))
    assert got == [("Jan", (1,)), ("Jan", (1,)), ("Jan", (1,)), ("Jan Novák", (2,))]
    # the 2-token and the 1-token span at the same place both exist
    firsts = [(m.first_token, m.end_token) for m in rs.match(doc)]
    assert firsts == [(0, 1), (3, 4), (6, 7), (6, 8)]


def test_whole_tokens_only() -> None:
    doc = make_doc("Jana a Janek, ne Jan.")
    rs = RuleSet([word(1, "Jan")])
    assert spans(doc, rs.match(doc)) == [("Jan", (1,))]


def test_exact_length_no_partial_sequence() -> None:
    doc = make_doc("Jan Novákova ulice a Jan Novák")
    rs = RuleSet([word(1, "Jan Novák")])
    assert spans(doc, rs.match(doc)) == [("Jan Novák", (1,))]


def test_a_rule_bound_to_a_document_matches_there_only() -> None:
    doc = make_doc("Jan Novák žije v Praze.")
    rs = RuleSet([word(1, "Praze"), Rule(2, RuleType.WORD_TYPE, ("Praze",), document=7),
                  Rule(3, RuleType.WORD_TYPE, ("Jan", "Novák"), document=8)])
    assert spans(doc, rs.match(doc, document_id=7)) == [("Praze", (1, 2))]
    assert spans(doc, rs.match(doc, document_id=8)) == [("Jan Novák", (3,)), ("Praze", (1,))]
    assert spans(doc, rs.match(doc)) == [("Praze", (1,))]  # an unnamed document: no bound rule


def test_a_match_inside_a_span_decided_private_is_covered_unless_decided_itself() -> None:
    doc = make_doc("Sarah Connor met Kyle Reese. Connor phoned Reese. Sarah Connor left.")
    rs = RuleSet([word(1, "Connor"), word(2, "Sarah Connor"), word(3, "Reese"), word(4, "Kyle Reese")])
    everything = spans(doc, rs.match(doc))
    assert everything.count(("Connor", (1,))) == 3
    # the first "Sarah Connor" and "Kyle Reese" decided private: their inner words are covered there only
    got = rs.match(doc, private=[(0, 2), (3, 5)], decided=[(0, 2), (3, 5), (4, 5)])
    assert [(m.first_token, m.end_token) for m in got] == [(0, 2), (3, 5), (4, 5), (6, 7), (8, 9), (10, 12),
                                                          (11, 12)]
    # ... the decided "Reese" inside "Kyle Reese" keeps its match; the private span itself too (no decided given)
    assert [(m.first_token, m.end_token) for m in rs.match(doc, private=[(0, 2)])][:1] == [(0, 2)]
    # a wider private span covers everything inside it, a crossing one nothing
    assert drop_covered(rs.match(doc), [(0, 6)]) == [m for m in rs.match(doc) if m.first_token >= 6]
    assert drop_covered(rs.match(doc), [(1, 4)]) == [m for m in rs.match(doc) if (m.first_token, m.end_token)
                                                     != (1, 2)]


def test_overlapping_matches_and_same_span_rules_grouped() -> None:
    doc = make_doc("Karel Jan Novák Praha")
    rs = RuleSet([word(1, "Karel Jan"), word(2, "Jan Novák"), word(3, "Jan Novák", confidence=-1),
                  word(4, "Novák Praha"), word(5, "Karel Jan Novák Praha")])
    got = spans(doc, rs.match(doc))
    assert got == [("Karel Jan", (1,)), ("Karel Jan Novák Praha", (5,)), ("Jan Novák", (2, 3)),
                   ("Novák Praha", (4,))]


def test_failure_links_find_suffix_patterns() -> None:
    # "a b c" fails after "a b" -> must still report "b c" and "c" (classic Aho–Corasick case)
    doc = make_doc("a b x a b c")
    rs = RuleSet([word(1, "a b d"), word(2, "b c"), word(3, "c"), word(4, "a b")])
    got = [(m.first_token, m.end_token, m.rule_ids) for m in rs.match(doc)]
    assert got == [(0, 2, (4,)), (3, 5, (4,)), (4, 6, (2,)), (5, 6, (3,))]


def test_no_match_across_sentence_boundary() -> None:
    doc = make_doc("Potkal jsem Jan. Novák tam nebyl. Jan Novák ano.")
    rs = RuleSet([word(1, "Jan . Novák"), word(2, "Jan Novák"), word(3, "nebyl . Jan")])
    assert spans(doc, rs.match(doc)) == [("Jan Novák", (2,))]
    # the same text without sentence segmentation is one segment
    flat = make_doc(doc.text, sentences=False)
    assert {s for s, _ in spans(flat, rs.match(flat))} == {"Jan. Novák", "Jan Novák", "nebyl. Jan"}


def test_sentence_segments_cover_gaps() -> None:
    doc = make_doc("a b c d e", sentences=False)
    doc.sentences = [Sentence(1, 3)]
    assert sentence_segments(doc) == [(0, 1), (1, 3), (3, 5)]
    assert sentence_segments(make_doc("", sentences=False)) == []


def test_case_sensitivity() -> None:
    doc = make_doc("JAN NOVÁK, jan novák a Jan Novák")
    rs = RuleSet([word(1, "Jan Novák"), word(2, "jan NOVÁK", case_sensitive=False)])
    got = spans(doc, rs.match(doc))
    assert got == [("JAN NOVÁK", (2,)), ("jan novák", (2,)), ("Jan Novák", (1, 2))]


def test_casefold_special_letters() -> None:
    doc = make_doc("STRASSE Straße")
    rs = RuleSet([word(1, "strasse", case_sensitive=False)])
    assert len(rs.match(doc)) == 2


def test_lemma_rules_slovenian() -> None:
    doc = make_doc("Janez je prišel. Videl sem Janeza in dal Janezu knjigo. Janezek ne.", language="sl")
    rs = RuleSet([Rule(1, RuleType.LEMMA, ("Janez",), confidence=-1)])
    assert [s for s, _ in spans(doc, rs.match(doc))] == ["Janez", "Janeza", "Janezu"]


def test_lemma_rules_czech_multi_token_and_condition_normalized() -> None:
    doc = make_doc("Viděl Jana Nováka, dal to Janovi Novákovi. Petry a Petře.", language="cs")
    rs = RuleSet([Rule(1, RuleType.LEMMA, ("Jan", "Novák")), Rule(2, RuleType.LEMMA, ("Petra",))])
    got = spans(doc, rs.match(doc))
    assert got == [("Jana Nováka", (1,)), ("Janovi Novákovi", (1,)), ("Petry", (2,))]


def test_lemma_rules_case_insensitive_and_lemma_list() -> None:
    doc = make_doc("JANEZA janezu", language="sl")
    rs = RuleSet([Rule(1, RuleType.LEMMA, ("janez",), case_sensitive=False)])
    assert len(rs.match(doc)) == 2
    # lemmas given by a tagger, one per token
    rs2 = RuleSet([Rule(1, RuleType.LEMMA, ("X",))])
    assert [(m.first_token, m.end_token) for m in rs2.match(doc, ["Y", "X"])] == [(1, 2)]
    with pytest.raises(ValueError):
        rs2.match(doc, ["X"])


def test_lemma_custom_callable_and_unsupported_language() -> None:
    doc = make_doc("Cats and cat", language="en")
    rs = RuleSet([Rule(1, RuleType.LEMMA, ("cat",))])
    assert len(rs.match(doc)) == 1  # identity lemmatizer for English
    assert len(rs.match(doc, lambda t: t.lower().rstrip("s"))) == 2
    assert get_lemmatizer("en") is identity_lemmatizer
    assert get_lemmatizer("cs-CZ") is get_lemmatizer("cs")


def test_word_type_rule_does_not_use_lemmas() -> None:
    doc = make_doc("Janeza", language="sl")
    assert RuleSet([word(1, "Janez")]).match(doc) == []


def test_ne_type_rules() -> None:
    doc = make_doc("Jan Novák žije v Praze.")
    doc.entities = [Entity(0, 2, "P"), Entity(0, 1, "pf"), Entity(4, 5, "gu")]
    rs = RuleSet([Rule(1, RuleType.NE_TYPE, "P"), Rule(2, RuleType.NE_TYPE, "gu", confidence=-2),
                  word(3, "Jan Novák")])
    assert [(m.first_token, m.end_token, m.rule_ids) for m in rs.match(doc)] == [
        (0, 2, (1, 3)), (4, 5, (2,))]
    with pytest.raises(ValueError, match="both target"):
        RuleSet([Rule(1, RuleType.NE_TYPE, "P"), Rule(2, RuleType.NE_TYPE, "P")])


def test_rule_validation_and_unknown_kinds() -> None:
    with pytest.raises(TypeError):
        Rule(1, RuleType.WORD_TYPE, "Jan Novák")
    with pytest.raises(ValueError):
        Rule(1, RuleType.WORD_TYPE, ())
    with pytest.raises(ValueError):
        Rule(1, RuleType.NE_TYPE, "")
    assert Rule(1, "WORD_TYPE", ["a", "b"]).condition == ("a", "b")
    with pytest.raises(ValueError, match="unknown rule kind"):
        RuleSet([Rule(1, RuleType.PATTERN, "x")])
    assert len(RuleSet([Rule(1, RuleType.PATTERN, "x")], ignore_unknown=True)) == 0
    with pytest.raises(ValueError, match="duplicate"):
        RuleSet([word(1, "a"), word(1, "b")])


def test_register_new_kind() -> None:
    class Regex:
        def __init__(self, rules):
            self.rules = [(r.id, re.compile(str(r.condition))) for r in rules]

        def match(self, ctx):
            for i, tok in enumerate(ctx.token_texts()):
                for rid, rx in self.rules:
                    if rx.fullmatch(tok):
                        yield i, i + 1, rid

    register_rule_kind("TEST_REGEX", Regex)
    try:
        with pytest.raises(ValueError):
            register_rule_kind("TEST_REGEX", Regex)
        doc = make_doc("PSČ 11000 a 12 000")
        rs = RuleSet([Rule(9, "TEST_REGEX", r"\d{5}")])
        assert spans(doc, rs.match(doc)) == [("11000", (9,))]
    finally:
        RULE_KINDS.pop("TEST_REGEX")


def test_split_condition_with_tokenizers() -> None:
    assert split_condition("  Jan  Novák-Svoboda ") == ("Jan", "Novák", "-", "Svoboda")
    assert split_condition("Jan Novák", str.split) == ("Jan", "Novák")
    assert split_condition("ab cd", lambda s: [(0, 2), (3, 5)]) == ("ab", "cd")
    assert split_condition("ab cd", lambda s: make_doc(s)) == ("ab", "cd")
    assert split_condition("ab cd", lambda s: make_doc(s).tokens) == ("ab", "cd")
    assert split_condition("ab cd", lambda s: (make_doc(s).tokens, make_doc(s).sentences)) == ("ab", "cd")
    with pytest.raises(ValueError):
        split_condition("   ")
    doc = make_doc("Viděl Jan Novák.")
    assert condition_from_span(doc, 1, 3) == ("Jan", "Novák")
    with pytest.raises(IndexError):
        condition_from_span(doc, 2, 9)


def test_suffix_lemmatizer_examples() -> None:
    cs = SuffixLemmatizer("cs")
    assert {cs(w) for w in ["Novák", "Nováka", "Novákovi", "Novákem"]} == {"Novák"}
    assert {cs(w) for w in ["Nováková", "Novákové", "Novákovou"]} == {"Nováková"}
    assert cs("Eva") == "Eva" and cs("123") == "123" and cs("NOVÁKA") == "NOVÁK"
    pl = SuffixLemmatizer("pl")
    assert {pl(w) for w in ["Kowalski", "Kowalskiego", "Kowalskim"]} == {"Kowalski"}
    with pytest.raises(ValueError):
        SuffixLemmatizer("xx")


def _naive(tokens: list[str], segments, patterns: dict[tuple[str, ...], list[int]]):
    out = set()
    for a, b in segments:
        for i in range(a, b):
            for p, ids in patterns.items():
                if tuple(tokens[i:i + len(p)]) == p and i + len(p) <= b:
                    out.add((i, i + len(p), tuple(sorted(ids))))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abc"), min_size=1, max_size=4), min_size=1, max_size=8),
       st.lists(st.sampled_from("abcd"), max_size=40), st.integers(0, 5))
def test_automaton_equals_naive(pats: list[list[str]], tokens: list[str], cut: int) -> None:
    patterns: dict[tuple[str, ...], list[int]] = {}
    for i, p in enumerate(pats):
        patterns.setdefault(tuple(p), []).append(i)
    segments = [(0, min(cut, len(tokens))), (min(cut, len(tokens)), len(tokens))]
    got = set(TokenAutomaton(patterns).scan(tokens, segments))
    assert got == _naive(tokens, segments, patterns)


def test_matching_large_document_is_fast() -> None:
    rnd = random.Random(1)
    names = [f"N{i}" for i in range(2000)]
    rules = [word(i, " ".join(rnd.sample(names, rnd.randint(1, 3)))) for i in range(3000)]
    words = [rnd.choice(names) if rnd.random() < 0.2 else "w" for _ in range(100_000)]
    doc = make_doc(" ".join(words), sentences=False)
    import time
    t = time.perf_counter()
    matches = RuleSet(rules).match(doc)
    assert time.perf_counter() - t < 5
    assert matches
