"""Overlap resolution: priority/score/length, nesting rules, deduplication, token alignment."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.merge import align, resolve, resolve_char_spans
from psan.tool.detection.recognizers import patterns
from psan.tool.text.document import Category, CharSpan, Document, Token


def make_doc(text: str) -> Document:
    tokens = [Token(i, m.start(), m.end()) for i, m in enumerate(re.finditer(r"\w+|[^\w\s]", text))]
    return Document(text=text, tokens=tokens, language="pl")


def char_span(text: str, part: str, type_: str, cat: Category, source: str, score: float = 1.0,
              priority: int = 0, occurrence: int = 0) -> CharSpan:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(part, start + 1)
    return CharSpan(start, start + len(part), type_, cat, source, score, priority)


def texts(doc: Document, entities) -> list[tuple[str, str]]:
    return [(doc.span_text(e.first_token, e.end_token), e.type) for e in entities]


def test_validated_pesel_beats_person_on_same_digits() -> None:
    text = "Jan Kowalski, PESEL 44051401359, mieszka w Krakowie."
    doc = make_doc(text)
    cands = [
        char_span(text, "44051401359", "persName", Category.PERSON, "ner", 0.99, 0),
        char_span(text, "Jan Kowalski", "persName", Category.PERSON, "ner", 0.9, 0),
        *patterns.analyze(text, "pl"),
    ]
    got = texts(doc, resolve(doc, cands))
    assert ("44051401359", "PL_PESEL") in got
    assert ("44051401359", "persName") not in got
    assert ("Jan Kowalski", "persName") in got


def test_ner_span_nested_in_validated_id_is_dropped() -> None:
    text = "IBAN CZ65 0800 0000 1920 0014 5399"
    doc = make_doc(text)
    cands = [char_span(text, "0800", "NUM", Category.OTHER, "ner", 0.99, 0), *patterns.analyze(text, "cs")]
    assert texts(doc, resolve(doc, cands)) == [("CZ65 0800 0000 1920 0014 5399", "IBAN")]


def test_crossing_spans_keep_higher_priority_then_score_then_length() -> None:
    text = "aaa bbb ccc ddd"
    a = char_span(text, "aaa bbb", "X", Category.OTHER, "s1", 0.5, 5)
    b = char_span(text, "bbb ccc", "Y", Category.OTHER, "s2", 0.9, 1)
    assert [s.type for s in resolve_char_spans([a, b])] == ["X"]  # priority first
    a2 = CharSpan(a.start, a.end, "X", Category.OTHER, "s1", 0.5, 1)
    assert [s.type for s in resolve_char_spans([a2, b])] == ["Y"]  # then score
    c = char_span(text, "bbb ccc ddd", "Z", Category.OTHER, "s3", 0.5, 1)
    assert [s.type for s in resolve_char_spans([a2, c])] == ["Z"]  # then length


def test_nested_same_source_is_kept() -> None:
    text = "Petr Novák přišel."
    doc = make_doc(text)
    cands = [
        char_span(text, "Petr Novák", "P", Category.PERSON, "cnec", 0.9),
        char_span(text, "Petr", "pf", Category.PERSON, "cnec", 0.8),
        char_span(text, "Novák", "ps", Category.PERSON, "cnec", 0.8),
    ]
    assert texts(doc, resolve(doc, cands)) == [("Petr Novák", "P"), ("Petr", "pf"), ("Novák", "ps")]


def test_same_source_two_labels_on_same_text_are_kept() -> None:
    cands = [CharSpan(0, 5, "gu", Category.LOCATION, "cnec", 0.9), CharSpan(0, 5, "gc", Category.LOCATION, "cnec", 0.8)]
    assert sorted(s.type for s in resolve_char_spans(cands)) == ["gc", "gu"]


def test_identical_spans_are_deduplicated_keeping_max_score() -> None:
    text = "Jan Novák"
    doc = make_doc(text)
    cands = [CharSpan(0, 9, "PER", Category.PERSON, "ner", 0.4), CharSpan(0, 9, "PER", Category.PERSON, "ner", 0.8),
             CharSpan(0, 9, "PER", Category.PERSON, "ner", 0.6)]
    (ent,) = resolve(doc, cands)
    assert ent.score == 0.8 and (ent.first_token, ent.end_token) == (0, 2)


def test_identical_span_different_source_competes() -> None:
    cands = [CharSpan(0, 9, "PERSON_NAME", Category.PERSON, "gazetteer", 0.6, -10),
             CharSpan(0, 9, "LOC", Category.LOCATION, "ner", 0.7, 0)]
    assert [s.type for s in resolve_char_spans(cands)] == ["LOC"]


def test_gazetteer_inside_ner_dropped_but_date_inside_ner_org_kept() -> None:
    text = "Soud dne 12. března 2020 rozhodl, Jan Novák"
    org = char_span(text, "Soud dne 12. března 2020", "ORG", Category.ORGANIZATION, "ner", 0.7, 0)
    date = char_span(text, "12. března 2020", "DATE", Category.DATE, "date", 0.9, 20)
    per = char_span(text, "Jan Novák", "PER", Category.PERSON, "ner", 0.9, 0)
    gaz = char_span(text, "Jan", "FIRST_NAME", Category.PERSON, "gazetteer", 0.45, -10)
    got = [(text[s.start:s.end], s.type) for s in resolve_char_spans([org, date, per, gaz])]
    assert got == [("Soud dne 12. března 2020", "ORG"), ("12. března 2020", "DATE"), ("Jan Novák", "PER")]


def test_alignment_covers_overlapped_tokens_and_drops_empty() -> None:
    text = "call +420 603 123 456 now"
    doc = make_doc(text)
    assert align(doc.tokens, text.index("603"), text.index("603") + 2) == (3, 4)
    assert align(doc.tokens, 4, 5) is None  # a space only
    ents = resolve(doc, [CharSpan(4, 5, "X", Category.OTHER, "s"), CharSpan(6, 9, "PHONE", Category.CONTACT, "p")])
    assert [(e.first_token, e.end_token, e.type) for e in ents] == [(2, 3, "PHONE")]


def test_output_sorted_by_start_then_longest() -> None:
    text = "a b c d"
    cands = [CharSpan(4, 5, "C", Category.OTHER, "s"), CharSpan(0, 3, "AB", Category.OTHER, "s"),
             CharSpan(0, 1, "A", Category.OTHER, "s")]
    doc = make_doc(text)
    assert [e.type for e in resolve(doc, cands)] == ["AB", "A", "C"]
    assert [s.type for s in resolve_char_spans(cands)] == ["AB", "A", "C"]


def _spans_strategy():
    from hypothesis import strategies as st

    def build(t):
        start, length, type_, source, score, priority = t
        return CharSpan(start, start + length, type_, Category.OTHER, source, score, priority)

    return st.lists(st.tuples(st.integers(0, 30), st.integers(1, 8), st.sampled_from("ABC"),
                              st.sampled_from(["ner", "pat", "gaz"]), st.sampled_from([0.3, 0.5, 0.9]),
                              st.sampled_from([-10, 0, 20, 50])).map(build), max_size=25)


def test_property_no_crossing_and_idempotent() -> None:
    from hypothesis import given, settings

    @settings(max_examples=300, deadline=None)
    @given(_spans_strategy())
    def check(cands: list[CharSpan]) -> None:
        out = resolve_char_spans(cands)
        assert set(out) <= set(cands)
        for i, a in enumerate(out):
            for b in out[i + 1:]:
                crossing = a.start < b.start < a.end < b.end or b.start < a.start < b.end < a.end
                assert not crossing
        assert resolve_char_spans(out) == out

    check()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(1, 3), st.sampled_from("AB"), st.sampled_from("xy"),
                          st.sampled_from([0.5, 0.9, -0.0, 0.0]), st.integers(-1, 1)), max_size=12))
def test_rank_order_by_stable_sorts_equals_the_rank_key(fields) -> None:  # noqa: ANN001 - hypothesis data
    """The candidates are ranked by stable sorts on one field each, exactly as by ``Candidate.rank`` (ties in input
    order)."""
    from psan.tool.detection.merge import Candidate, by_rank
    cands = [Candidate(s, s + n, t, src, score, prio, CharSpan(s, s + n, t, Category.OTHER, src, score, prio), n)
             for s, n, t, src, score, prio in fields]
    assert [id(c) for c in by_rank(cands)] == [id(c) for c in sorted(cands, key=Candidate.rank)]
