"""The document-level steps' shortcuts change nothing: each fast path gives what the plain form it replaces gives.

Why: the steps after the recognizers (growing mentions, merging, cutting glued spans, propagation, the span
output) run on every span of a document; their shortcuts exist for speed only (``bench/bench_nametag_ratio.py
--tokens 1000000``, issue 41), and a changed span would be a changed release.  Each property test runs the
shortcut and the plain form on generated texts built from the pieces the rules look for.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection import nonpersonal
from psan.tool.text.document import Category, CharSpan
from tests.tool.helpers import laid_out

DATE_PIECES = ["16", "1", "June", "june", "2004", "1998", "12345", " ", "  ", "\n", "\t", "\u00a0", ",", "Law", "Laws",
               "Act", "No.", "no.", "5190", "of", "on", "the", "Convention", "Protocol", "11", "to", "came", "entered",
               "into", "force", "when", "x", "3rd", "May"]


def plain_public_date(text: str, span: CharSpan) -> bool:
    """:func:`psan.tool.detection.nonpersonal.public_date` as it was: the regexes alone."""
    start, end = span.start, span.end
    date = nonpersonal.FULL_DATE_END.search(text, max(0, start - 8), end)
    if date is None or date.start() > start:
        return False
    start = date.start()
    return bool(nonpersonal.INSTRUMENT_OF_BEFORE.search(text, max(0, start - 40), start)
                or nonpersonal.INTO_FORCE_AFTER.match(text, end)
                or nonpersonal.INTO_FORCE_BEFORE.search(text, max(0, start - 80), start))


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(DATE_PIECES), max_size=24), st.data())
def test_public_date_equals_its_regexes(pieces: list[str], data: st.DataObject) -> None:
    text = "".join(pieces)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    span = CharSpan(start, end, "DATE", Category.DATE, "test")
    assert nonpersonal.public_date(text, span) == plain_public_date(text, span)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["Law of ", "Law no. 5190 of\n", "the Convention came into force on ", "Act of\u00a0", ""]),
       st.sampled_from(["16 June 2004", "1st May 1998", "June 2004", "2004"]), st.sampled_from(["", "\n", " x"]))
def test_public_date_finds_the_instruments(before: str, date: str, after: str) -> None:
    """The same check on texts that do hold the instruments (random pieces rarely make one)."""
    text = before + date + after
    for start in range(len(before) + 1):
        for end in (len(before) + len(date), len(before) + len(date) + len(after)):
            span = CharSpan(start, end, "DATE", Category.DATE, "test")
            assert nonpersonal.public_date(text, span) == plain_public_date(text, span)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=30),
       st.sets(st.lists(st.sampled_from("abcd"), min_size=1, max_size=4).map(tuple), max_size=8))
def test_token_pattern_scan_equals_sorted_occurrences(keys: list[str], patterns: set[tuple[str, ...]]) -> None:
    """Propagation's scan lists every occurrence longest first, then by position, without sorting them."""
    from psan.tool.detection.propagate import scan_token_patterns
    ordered = sorted(patterns)
    every = [(first, first + len(p), idx) for idx, p in enumerate(ordered) for first in range(len(keys))
             if tuple(keys[first:first + len(p)]) == p]
    assert scan_token_patterns(ordered, keys, len(keys)) == sorted(every, key=lambda m: (m[0] - m[1], m[0]))


def test_span_output_pauses_the_collector(tmp_path, monkeypatch, capsys) -> None:  # noqa: ANN001 - fixtures
    """The span lines are written with the cyclic collector paused, and it runs again afterwards."""
    import gc

    import psan.tool.cli as cli
    seen: list[bool] = []
    lines = cli.span_lines

    def recording(rel: str, doc):  # noqa: ANN001, ANN202 - as span_lines
        seen.append(gc.isenabled())
        return lines(rel, doc)

    monkeypatch.setattr(cli, "span_lines", recording)
    (tmp_path / "a.txt").write_text("Mr John Smith wrote to Acme Ltd on 3 May 2001.\n", encoding="utf-8")
    assert gc.isenabled()
    assert cli.main(["spans", "-q", str(tmp_path / "a.txt")]) == 0
    assert seen == [False] and gc.isenabled()
    assert '"text": "John Smith"' in capsys.readouterr().out


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 10 ** 12)), min_size=1, max_size=4))
def test_merged_sections_shift_long_offset_lists_exactly(parts: list[tuple[int, int]]) -> None:
    """Sections of any length (NumPy shifts the long offset lists) merge to the offsets shifted one by one."""
    from psan.tool.text.document import Document, Sentence, TokenArray
    from psan.tool.text.sections import merge_sections
    docs, expected_starts, expected_sentences, offset = [], [], [], 0
    for n, gap in parts:
        starts = [2 * i for i in range(n)]
        section = Document("x" * (2 * n), TokenArray(starts, [s + 1 for s in starts]), [Sentence(0, n)], [], "en")
        docs.append((offset + gap, section))
        expected_sentences.append(Sentence(len(expected_starts), len(expected_starts) + n))
        expected_starts += [offset + gap + s for s in starts]
        offset += gap + 2 * n
    merged = merge_sections("", "en", docs)
    assert merged.tokens.starts == expected_starts
    assert merged.tokens.ends == [s + 1 for s in expected_starts]
    assert merged.sentences == expected_sentences
    assert all(type(s) is int for s in merged.tokens.starts)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["smith", "Smith", "the", "THE", "Ab", "x1", "", "de", "ňa"]), max_size=12))
def test_kept_lower_case_token_texts_equal_a_fresh_set(words: list[str]) -> None:
    """The lower-case token texts a TokenArray keeps are those of its texts, and follow texts kept anew."""
    from psan.tool.text.document import (
        Token,
        TokenArray,
        forget_token_texts,
        keep_token_texts,
        lower_case_token_texts,
        token_texts,
    )
    text = " ".join(words)
    starts, pos = [], 0
    for w in words:
        starts.append(pos)
        pos += len(w) + 1
    ends = [s + len(w) for s, w in zip(starts, words, strict=True)]
    fresh = set(filter(str.islower, set(words)))
    array = TokenArray(starts, ends)
    assert lower_case_token_texts(text, array) == fresh
    assert lower_case_token_texts(text, array) is lower_case_token_texts(text, array)  # kept
    assert lower_case_token_texts(text, list(map(Token, range(len(words)), starts, ends))) == fresh
    upper = text.upper()
    keep_token_texts(upper, array, [upper[a:b] for a, b in zip(starts, ends, strict=True)])
    assert lower_case_token_texts(upper, array) == set()
    forget_token_texts(array)
    assert lower_case_token_texts(text, array) == fresh and token_texts(text, array) == words


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=12), st.lists(st.integers(0, 80), max_size=8),
       st.booleans())
def test_split_tokens_keep_the_texts_of_their_pieces(lengths: list[int], boundaries: list[int], kept: bool) -> None:
    """Tokens split at candidate edges keep their texts: the same as slicing the text at the new offsets."""
    from psan.tool.text.document import Sentence, TokenArray, kept_token_texts, token_texts
    from psan.tool.text.tokens import split_tokens_and_sentences
    starts, pos = [], 0
    for n in lengths:
        starts.append(pos)
        pos += n + 1
    ends = [s + n for s, n in zip(starts, lengths, strict=True)]
    text = "".join(chr(97 + i % 26) for i in range(pos))
    tokens = TokenArray(starts, ends)
    if kept:
        token_texts(text, tokens)
    split, _ = split_tokens_and_sentences(tokens, [Sentence(0, len(starts))], boundaries)
    inside = {b for b in boundaries if any(s < b < e for s, e in zip(starts, ends, strict=True))}
    assert split.starts == sorted({*starts, *inside})
    if kept:
        assert kept_token_texts(split)[1] == [text[a:b] for a, b in zip(split.starts, split.ends, strict=True)]
    else:
        assert kept_token_texts(split) is None


GLUED_WORDS = ["John", "Smith", "Keith", "Walker", "and", "or", "And", ",", "&", "/", "-", "Court", "of", "Appeal",
               ":", ";", "the", "Maybe", "Mhm", "(", ")", "England", "’s", "Ltd", "Newcastle", "yes", "EU", "1989"]
GLUED_CATEGORIES = [Category.PERSON, Category.ORGANIZATION, Category.LOCATION, Category.OTHER, Category.DATE]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(GLUED_WORDS), st.sampled_from([" ", " ", "", "\n", ". "])),
                min_size=1, max_size=14),
       st.lists(st.tuples(st.integers(0, 13), st.integers(1, 5), st.sampled_from(GLUED_CATEGORIES),
                          st.sampled_from(["nametag", "nametag", "capitalized", "propagation", "layout"])),
                max_size=8))
@example([("John", " "), ("Smith", ""), (",", " "), ("Keith", " "), ("Walker", ". "), ("Keith", " "),
          ("Walker", "")], [(0, 5, Category.PERSON, "nametag"), (5, 2, Category.PERSON, "nametag")])
@example([("John", " "), ("Smith", " "), ("and", " "), ("Keith", " "), ("Walker", ". "), ("Keith", " "),
          ("Walker", "")], [(0, 5, Category.PERSON, "nametag"), (5, 2, Category.PERSON, "nametag")])
def test_glued_spans_one_piece_shortcut_equals_the_general_cut(words: list[tuple[str, str]], spans: list[tuple]
                                                               ) -> None:
    """split_glued's shortcut for a span with nothing to cut at gives what the general cut gives."""
    from psan.tool.detection import consolidate
    from psan.tool.text.document import Document, Entity, Sentence, TokenArray
    text, starts, ends = laid_out(words)
    n = len(starts)
    entities = sorted({Entity(a, min(n, a + k), "SPEAKER" if source == "layout" else str(cat), cat, source, 0.8)
                       for a, k, cat, source in spans if a < n}, key=lambda e: (e.first_token, -e.end_token, e.type))

    def cut() -> list[Entity]:
        doc = Document(text, TokenArray(list(starts), list(ends)), [Sentence(0, n)], list(entities), "en")
        consolidate.split_glued(doc)
        return doc.entities

    fast = cut()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(consolidate, "_one_piece", lambda *args: False)
        assert fast == cut()


NUMBER_PIECES = ["Law", "Laws", "Decree-Law", "Act", "Code", "No.", "no.", "Nos.", "numbers", "plot", "plots", "of",
                 " ", "\n", "\t", "\u00a0", "5190", "12", "x", "Mr", "approx.", ",", "(", "the"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(NUMBER_PIECES), max_size=16), st.data())
@example(["Law", " ", "numbers", " ", "12"], None)
@example(["the", " ", "Act", " ", "Nos.", "\n", "12"], None)
@example(["plot", " ", "No.", " ", "12"], None)
@example(["plots", " ", "no.", "\t", "\n", "12"], None)
def test_look_back_string_tests_equal_their_regexes(pieces: list[str], data: st.DataObject | None) -> None:
    """The string tests before the look-back regexes of numbers ("Law No." before it, "plot no." before it) give
    the regexes' answers: where a regex matches, its string test holds."""
    from psan.tool.detection import extension
    text = "".join(pieces)
    starts = [data.draw(st.integers(0, len(text)))] if data is not None else range(len(text) + 1)
    for start in starts:
        assert nonpersonal.instrument_before(text, start) == bool(
            nonpersonal.INSTRUMENT_BEFORE.search(text, max(0, start - 30), start))
        for window in range(max(0, start - 60), start + 1):
            assert extension.ends_in_no(text, window, start) or not extension.NO_BEFORE.search(text, window, start)


def test_grown_span_copy_equals_dataclass_replace() -> None:
    """A grown candidate is its dataclass copy with the new edges, every other field kept."""
    import dataclasses

    from psan.tool.detection.extension import extend_mentions
    fields = [f.name for f in dataclasses.fields(CharSpan)]
    assert fields == ["start", "end", "type", "category", "source", "score", "priority"]  # what the copy passes
    text = "He lived in northern Cyprus."
    span = CharSpan(21, 27, "GPE", Category.LOCATION, "ner", 0.7, 3)
    assert extend_mentions(text, [span], "en") == [dataclasses.replace(span, start=12)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from(["A", "B"])), max_size=20))
def test_span_order_equals_the_tuple_key_sort(spans: list[tuple[int, int, str]]) -> None:
    """Entities in span order: as sorted by (first token, longest first), equal ones as they came."""
    from psan.tool.text.document import Entity, in_span_order
    entities = [Entity(a, a + b, kind, Category.OTHER, str(n)) for n, (a, b, kind) in enumerate(spans)]
    expected = sorted(entities, key=lambda e: (e.first_token, -e.end_token))
    assert [e.source for e in in_span_order(entities)] == [e.source for e in expected]


JOIN_PIECES = ["Lublin", ",", " ", "Poland", "the", "Faculty", "of", "Medicine", "Kayseri", "University", "and",
               "Social", "Court", "\n", "Warsaw", "Kraków", "Gdańsk", "Makarios", "Avenue", "Larnaca", "x" * 9]
JOIN_KINDS = [("LOC", Category.LOCATION), ("ORG", Category.ORGANIZATION), ("NORP", Category.OTHER),
              ("PERSON", Category.PERSON), ("GPE", Category.LOCATION)]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(JOIN_PIECES), min_size=1, max_size=14),
       st.lists(st.tuples(st.integers(0, 13), st.integers(1, 4), st.sampled_from(JOIN_KINDS), st.sampled_from("ab")),
                max_size=8))
@example(["Lublin", ",", " ", "Poland", " ", "x" * 9], [(0, 1, ("LOC", Category.LOCATION), "a"),
                                                         (3, 1, ("GPE", Category.LOCATION), "a")])
@example(["Faculty", " ", "of", " ", "Medicine", " ", "of", " ", "Kayseri", " ", "University"],
         [(0, 5, ("ORG", Category.ORGANIZATION), "a"), (8, 3, ("ORG", Category.ORGANIZATION), "a")])
def test_joined_neighbours_equal_the_plain_join(pieces: list[str], spans: list[tuple]) -> None:
    """Joining neighbouring candidates with two stable sorts and the gap length tested first gives what sorting by
    a key tuple and testing every neighbouring pair gave."""
    from psan.tool.detection import extension
    text, bounds = "", []
    for piece in pieces:
        bounds.append((len(text), len(text) + len(piece)))
        text += piece
    cands = []
    for first, n, (kind, category), source in spans:
        if first < len(bounds):
            last = bounds[min(len(bounds), first + n) - 1]
            cands.append(CharSpan(bounds[first][0], last[1], kind, category, source, 0.5))

    def plain_join(text: str, spans: list[CharSpan]) -> list[CharSpan]:
        import dataclasses
        names = sorted((s for s in spans if s.category in (Category.ORGANIZATION, Category.LOCATION)
                        or s.type in ("NORP", "PRODUCT", "FAC")
                        or s.type == "PERSON" and re.search(r"[ \t](?:Avenue|Street|Road|Boulevard|Square|Lane)$",
                                                            text[s.start:s.end])),
                       key=lambda s: (s.start, -s.end))
        drop, joined, i = set(), [], 0
        while i < len(names) - 1:
            a, b = names[i], names[i + 1]
            if a.source == b.source and a.end <= b.start and extension._joinable(text, a, b):
                joined.append(dataclasses.replace(b, start=a.start) if a.type in ("NORP", "PRODUCT", "FAC")
                              else dataclasses.replace(a, end=b.end))
                drop.update((id(a), id(b)))
                i += 2
                continue
            i += 1
        return [s for s in spans if id(s) not in drop] + joined if joined else spans

    fast = extension.extend_mentions(text, cands, "en")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extension, "_join", plain_join)
        assert extension.extend_mentions(text, cands, "en") == fast


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.sampled_from(["A", "B"]),
                          st.sampled_from([0.5, 0.9, float("nan")])), max_size=12))
def test_unique_entities_equal_dict_fromkeys(fields: list[tuple]) -> None:
    from psan.tool.text.document import Entity, unique_entities
    nan = Entity(0, 1, "A", Category.OTHER, "x", float("nan"))
    entities = [Entity(a, a + b, kind, Category.OTHER, "x", score) for a, b, kind, score in fields] + [nan, nan]
    expected = list(dict.fromkeys(entities))
    assert [id(e) for e in unique_entities(entities)] == [id(e) for e in expected]


ACRONYM_WORDS = ["European", "Court", "of", "Human", "Rights", "(", "ECHR", ")", "the", "Turkish", "Army", "TA",
                 "and", "ECHR", "."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ACRONYM_WORDS), min_size=1, max_size=16),
       st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4), st.sampled_from(GLUED_CATEGORIES)), max_size=8))
@example(["European", "Court", "of", "Human", "Rights", "(", "ECHR", ")", "and", "ECHR"],
         [(9, 1, Category.ORGANIZATION), (1, 1, Category.OTHER)])
@example(["European", "Court", "of", "Human", "Rights", "(", "ECHR", ")", "and", "ECHR"],
         [(9, 1, Category.ORGANIZATION), (0, 1, Category.OTHER), (0, 4, Category.OTHER), (6, 1, Category.OTHER)])
@example(["European", "Court", "of", "Human", "Rights", "(", "ECHR", ")", "and", "ECHR"],
         [(9, 1, Category.ORGANIZATION)])
@example(["European", "Court", "of", "Human", "Rights", "(", "ECHR", ")", "and", "ECHR"],
         [(9, 1, Category.ORGANIZATION), (1, 1, Category.OTHER), (8, 1, Category.OTHER)])
def test_long_forms_do_not_depend_on_the_entities_order(words: list[str], spans: list[tuple]) -> None:
    """Long forms found with the entities in token order (their starts need no sort) equal those found with the
    entities in any order (sorted first)."""
    from psan.tool.detection.acronym_definitions import mark_long_forms
    from psan.tool.text.document import Document, Entity, TokenArray
    text, starts, ends = "", [], []
    for word in words:
        starts.append(len(text))
        text += word
        ends.append(len(text))
        text += " "
    entities = sorted({Entity(a, min(len(words), a + n), str(cat), cat, "ner", 0.8)
                       for a, n, cat in spans if a < len(words)}, key=lambda e: (e.first_token, -e.end_token, e.type))
    found = []
    for order in (entities, entities[::-1]):
        doc = Document(text, TokenArray(starts, ends), [], list(order), "en")
        mark_long_forms(doc)
        found.append(sorted(doc.entities, key=lambda e: (e.first_token, e.end_token, e.type)))
    assert found[0] == found[1]
