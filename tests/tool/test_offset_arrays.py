"""Offset arrays and first-class regexes change nothing: the same tokens, matches, lines and spans.

Why: ``TokenArray`` (the pipeline's tokens as two offset lists), the token automaton that visits only
vocabulary tokens, the JSONL lines formatted without the JSON encoder and the regexes rewritten to start
with a character class (``first_class_first``) exist for speed only (``bench/bench_nametag_ratio.py``).
Each is checked here against the plain form it replaces, on generated input (Hypothesis) and, for the
whole pipeline, on the shared dev corpora (``bench/compare_spans.py`` checks every corpus exactly).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.cli import span_lines, span_records
from psan.tool.decisions.rules import TokenAutomaton
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.recognizers import acronyms, addresses, gazetteer, ids, institutions, references
from psan.tool.detection.recognizers.base import case_insensitive_class, first_class_first, has_digit
from psan.tool.text.document import Document, Entity, Sentence, Token, TokenArray, token_bounds
from psan.tool.text.tokens import split_tokens_and_sentences


def offsets(lengths: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Sorted, non-overlapping token offsets from (gap, length) pairs."""
    starts, ends, pos = [], [], 0
    for gap, length in lengths:
        pos += gap
        starts.append(pos)
        ends.append(pos + length)
        pos += length
    return starts, ends


TOKENS = st.lists(st.tuples(st.integers(0, 2), st.integers(1, 4)), max_size=12)


# --- TokenArray reads like the list of tokens it stands for -------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(TOKENS, st.integers(-15, 15), st.integers(-15, 15), st.sampled_from([None, 1, 2, -1]))
def test_token_array_reads_like_a_list(lengths: list[tuple[int, int]], i: int, j: int, step: int | None) -> None:
    starts, ends = offsets(lengths)
    array = TokenArray(starts, ends)
    listed = [Token(k, a, b) for k, (a, b) in enumerate(zip(starts, ends, strict=True))]
    assert len(array) == len(listed) and list(array) == listed and array == listed and listed == array
    assert array[i:j:step] == listed[i:j:step]
    if -len(listed) <= i < len(listed):
        assert array[i] == listed[i]
    else:
        with pytest.raises(IndexError):
            array[i]  # noqa: B018 - the read is the test
    assert token_bounds(array) == token_bounds(listed) == (starts, ends)
    assert (array != listed[:-1]) == bool(listed)


def test_document_with_token_array_equals_document_with_list() -> None:
    text = "Jan Novák  přišel."
    starts, ends = [0, 4, 11, 17], [3, 9, 17, 18]
    listed = [Token(k, a, b) for k, (a, b) in enumerate(zip(starts, ends, strict=True))]
    a = Document(text, TokenArray(starts, ends), [Sentence(0, 4)], [Entity(0, 2, "P")], "cs")
    b = Document(text, listed, [Sentence(0, 4)], [Entity(0, 2, "P")], "cs")
    assert a == b
    assert a.char_range(0, 2) == b.char_range(0, 2) == (0, 9)
    assert a.span_text(0, 2) == "Jan Novák" and a.token_text(2) == "přišel"


@settings(max_examples=300, deadline=None)
@given(TOKENS, st.sets(st.integers(0, 40), max_size=8), st.lists(st.integers(0, 12), max_size=4))
def test_split_of_token_array_equals_split_of_list(lengths: list[tuple[int, int]], cuts: set[int],
                                                     sentence_cuts: list[int]) -> None:
    starts, ends = offsets(lengths)
    n = len(starts)
    bounds = sorted({0, n, *(c for c in sentence_cuts if c <= n)})
    sentences = [Sentence(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if a < b]
    listed = [Token(k, a, b) for k, (a, b) in enumerate(zip(starts, ends, strict=True))]
    array_tokens, array_sentences = split_tokens_and_sentences(TokenArray(starts, ends), sentences, cuts)
    list_tokens, list_sentences = split_tokens_and_sentences(listed, sentences, cuts)
    assert isinstance(array_tokens, TokenArray)
    assert array_tokens == list_tokens and array_sentences == list_sentences
    assert (starts, ends) == offsets(lengths)  # the input arrays are left as they were


# --- the token automaton visits only vocabulary tokens ------------------------------------------------------
def naive_scan(patterns: dict[tuple[str, ...], list[int]], tokens: list[str],
               segments: list[tuple[int, int]]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every occurrence inside every segment (a segment listed twice reports its occurrences twice)."""
    found = []
    for a, b in segments:
        for i in range(a, b):
            for pattern, rule_ids in patterns.items():
                if tuple(tokens[i:i + len(pattern)]) == pattern and i + len(pattern) <= b:
                    found.append((i, i + len(pattern), tuple(sorted(set(rule_ids)))))
    return sorted(found)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcx"), min_size=1, max_size=3).map(tuple), min_size=1, max_size=5),
       st.lists(st.sampled_from("abcdx"), max_size=20), st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)),
                                                                 max_size=3))
def test_token_automaton_equals_naive_scan(patterns: list[tuple[str, ...]], tokens: list[str],
                                           segments: list[tuple[int, int]]) -> None:
    table = {p: [i] for i, p in enumerate(patterns)}
    segments = [(min(a, b, len(tokens)), min(max(a, b), len(tokens))) for a, b in segments] or [(0, len(tokens))]
    assert sorted(TokenAutomaton(table).scan(tokens, segments)) == naive_scan(table, tokens, segments)


# --- JSONL lines ---------------------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12), st.text(min_size=1, max_size=30),
       st.lists(st.tuples(st.integers(0, 5), st.integers(1, 3), st.text(max_size=5), st.text(max_size=5),
                          st.one_of(st.floats(allow_nan=True), st.integers(-3, 3), st.booleans())), max_size=6))
def test_span_lines_equal_encoded_records(rel: str, text: str, ents: list[tuple]) -> None:
    starts = list(range(len(text)))
    doc = Document(text, TokenArray(starts, [s + 1 for s in starts]), [], [], "en")
    doc.entities = [Entity(first, min(first + size, len(text)), kind, "PERSON", source, score)
                    for first, size, kind, source, score in ents if first < len(text)]
    expected = [json.dumps(rec, ensure_ascii=False) + "\n" for rec in span_records(rel, doc)]
    assert list(span_lines(rel, doc)) == expected


# --- has_digit ------------------------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab 7²٣½Ⅻ①\n"), max_size=20))
def test_has_digit_is_isdigit(text: str) -> None:
    assert has_digit(text) == any(ch.isdigit() for ch in text)


# --- regexes that start with their first character's class ---------------------------------------------------
#: the patterns as written before they started with a class (the same matches are required)
PLAIN = {
    "gazetteer": (r"(?<![^\W\d_])(?<![^\W\d_]-)[" + "".join(
        re.escape(chr(cp)) for cp in range(0x10000) if chr(cp).isupper() and chr(cp).isalpha())
        + r"][^\W\d_]*(?:-[^\W\d_]+)*"),
    "number": references.NUMBER_PLAIN,
    "bare": r"(?=\d)(?<![\w./-])\d{3,6}/\d{2}(?:\d{2})?(?![\w/‑-]|[.,]\d)",
    "land": (r"(?=[blmps])\b(?:sheets?|plans?|blocks?|plots?|parcels?|maps?|lots?)(?:/(?:sheet|plan|map|block)s?)?"
             r"\s+(?P<code>\d+/\d+[A-Z]?(?:[./]\d+)*(?:[ .]?[A-Z]{1,2}\.?\d+(?:\.\d+)*)?)(?![\w/])"),
    "citation": (r"(?=[\[(ADHMNR])(?:[\[(](?:19|20)\d\d[\])]\s+(?:\d{1,3}\s+)?[A-Z][A-Za-z]{1,5}"
                 r"(?:\s+\([A-Za-z]+\))?\s+\d{1,5}"
                 r"|\b(?:NJA|RÅ|HFD|AD|MD|RH)\s+(?:19|20)\d\d\s+(?:p\.|s\.|ref\.|not\.?)\s*\d{1,5})(?!\w)"),
    "secret": ids.SECRET_AFTER_KEYWORD_PLAIN,
    "province": institutions.PROVINCE_PLAIN,
    "acronym": r"(?=[A-Z])(?<![\w-])[A-Z]{2,6}-[A-Z]{1,5}(?![\w-])",
    "prison": institutions.PRISON_PLAIN,
    "county": institutions.COUNTY_PLAIN,
    "street_en": addresses.EN_STREET_PLAIN,
    "loose_street_en": addresses.EN_LOOSE_PLAIN,
    "acronyms": acronyms.ACRONYM_PLAIN,
    "coined": acronyms.COINED_PLAIN,
}
REWRITTEN = {"gazetteer": gazetteer.capitalized_word_re(), "number": references.NUMBER_RE,
             "bare": references.BARE_RE, "land": references.LAND_RE, "citation": references.CITATION_RE,
             "secret": ids.SECRET_AFTER_KEYWORD, "province": institutions.PROVINCE_RE,
             "acronym": institutions.HYPHEN_ACRONYM_RE, "prison": institutions.PRISON_RE,
             "county": institutions.COUNTY_RE, "street_en": re.compile(addresses.ADDRESS_FORMS["en"].street),
             "loose_street_en": re.compile(addresses.ADDRESS_FORMS["en"].loose),
             "acronyms": acronyms.ACRONYM_RE, "coined": acronyms.COINED_RE}
PIECES = ["No", "no.", "Nos.", "NOS", "nr.", "N°", "№", "number", "numbers", "n", "N", "o", "12345/06", "2004/123",
          "B-17", "D-4840", "7", "/", ".", "-", "‑", ",", ":", " ", "\n", "(", ")", "[", "]", "2001", "1998", "3",
          "WLR", "AC", "NJA", "RÅ", "HFD", "AD", "MD", "RH", "p.", "s.", "ref.", "not", "sheet", "plan", "plans",
          "block", "plot", "parcel", "map", "lot", "lots", "/sheet", "11/15W.2", "E.1", "119/5", "x", "Émile", "É",
          "Frýdek-Místek", "a-", "-B", "password", "PASSWORD", "Pass", "ſecret", "pin", "PIN", "kód", "code", "api",
          "key", "_", "=", "=>", "is", "je", "heslo", "hasło", "lösenord", "token", "access", "abcd1234", "'", '"',
          "secret", "client", "K", "k", "İ", "ı", "Edirne", "Istanbul", "İstanbul", "Şırnak", "Sirnak", "Ankara's",
          "Van", "Urfa", "Şanlıurfa", "DHKP", "C", "PKK", "KADEK", "COVID", "19", "A", "AB", "HM", "HMP", "Prison",
          "Remand", "Centre", "Young", "Offender", "Gaol", "County", "Durham", "Kent", "Council", "Court", "shire",
          "York", "221B", "Baker", "Street", "St.", "Rd", "Apt", "J.", "Jean-Paul", "12a", "km", "years", "\t",
          "@", "NATO", "COFOBRIM", "ÁČŽ", "ĽUBO", "ABCDEFGHIJKLMNOP", "OSN-u", "-ové", "ová", "2"]


@pytest.mark.shared
@pytest.mark.parametrize("name", list(PLAIN))
def test_rewritten_regexes_find_the_plain_matches_on_the_corpora(shared_dir: Path, name: str) -> None:
    rewritten, plain = REWRITTEN[name], re.compile(PLAIN[name])
    for corpus in ("tab-dev", "elitr-dev", "cnec-dtest"):
        path = shared_dir / "data" / f"{corpus}.jsonl"
        if not path.is_file():
            pytest.skip(f"corpus {path} not found")
        with open(path, encoding="utf-8") as fh:
            for line in list(fh)[:30]:
                text = json.loads(line)["text"]
                assert [m.span() for m in rewritten.finditer(text)] == [m.span() for m in plain.finditer(text)]


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(list(PLAIN)), st.lists(st.sampled_from(PIECES), max_size=10))
def test_rewritten_regexes_find_the_plain_matches(name: str, pieces: list[str]) -> None:
    text = "".join(pieces)
    rewritten, plain = REWRITTEN[name], re.compile(PLAIN[name])
    assert [(m.span(), m.groupdict()) for m in rewritten.finditer(text)] == \
        [(m.span(), m.groupdict()) for m in plain.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAbBkKsSſİıiI-x "), max_size=8))
def test_first_class_first_equals_case_insensitive_alternation(text: str) -> None:
    rests = {"a": "b|bb", "k": "", "s": "(?i:s)", "i": "x"}
    plain = re.compile(r"(?=(?i:[aksi]))(?<![\w-])(?:(?i:a)(?:b|bb)|(?i:s)(?:(?i:s))|(?i:i)(?:x))-?")
    fast = re.compile(first_class_first("aksi", r"[\w-]", rests, "-?"))
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)]
    assert re.fullmatch(case_insensitive_class("sk"), "ſ") and re.fullmatch(case_insensitive_class("sk"), "\u212a")


# --- the whole pipeline: tokens as arrays or as Token objects give the same document ------------------------
class ListTokensPipeline(Pipeline):
    """The same pipeline, with its tokens turned into a list of Token objects right after tokenization."""

    def _tokenize(self, text: str) -> Document:
        doc = super()._tokenize(text)
        doc.tokens = list(doc.tokens)
        return doc


@pytest.mark.shared
def test_token_arrays_equal_token_objects_on_the_corpora(shared_dir: Path) -> None:
    model = shared_dir / "models" / "nametag" / "english-conll-trivial.ner"
    if not model.is_file():
        pytest.skip(f"NameTag model {model} not found")
    config = {"language": "en", "tokenizer": "nametag", "ner": [{"kind": "nametag", "model": str(model)}],
              "recognizers": ["patterns", "gazetteers"]}
    fast, plain = Pipeline(config), ListTokensPipeline(config)
    for corpus in ("tab-dev", "elitr-dev"):
        path = shared_dir / "data" / f"{corpus}.jsonl"
        if not path.is_file():
            pytest.skip(f"corpus {path} not found")
        with open(path, encoding="utf-8") as fh:
            texts = [json.loads(line)["text"] for line in fh if line.strip()][:12]
        for text in texts:
            a, b = fast.process(text), plain.process(text)
            assert isinstance(a.tokens, TokenArray) and isinstance(b.tokens, list)
            assert (a.tokens, a.sentences, a.entities) == (b.tokens, b.sentences, b.entities)
            assert list(span_lines("f", a)) == list(span_lines("f", b))


def test_entity_and_span_keep_their_dataclass_behaviour() -> None:
    """Entity's and CharSpan's faster ``__init__`` build the same frozen, comparable, hashable, picklable objects."""
    import dataclasses
    import pickle

    from psan.tool.text.document import Category, CharSpan
    entity = Entity(1, 3, "P", Category.PERSON, "nametag", 0.8)
    assert entity == Entity(first_token=1, end_token=3, type="P", category=Category.PERSON, source="nametag",
                            score=0.8)
    assert Entity(0, 1, "X") == Entity(0, 1, "X", Category.OTHER, "", 1.0)
    span = CharSpan(0, 4, "DATE", Category.DATE, "date", 0.9, 20)
    assert span == CharSpan(start=0, end=4, type="DATE", category=Category.DATE, source="date", score=0.9,
                            priority=20)
    assert CharSpan(0, 4, "D", Category.DATE, "d") == CharSpan(0, 4, "D", Category.DATE, "d", 1.0, 0)
    for obj in (entity, span):
        assert pickle.loads(pickle.dumps(obj)) == obj and hash(obj) == hash(dataclasses.replace(obj))
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.type = "Y"  # type: ignore[misc]
    assert dataclasses.replace(span, score=0.5).score == 0.5 and repr(entity).startswith("Entity(first_token=1")
    with pytest.raises(TypeError):
        CharSpan(0, 4, "D")  # type: ignore[call-arg]
