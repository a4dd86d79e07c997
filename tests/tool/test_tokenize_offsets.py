"""The regex tokenizer's fast path (:func:`psan.tool.text.tokens.token_offsets`, :func:`sentence_bounds`) against the
plain definitions it replaces: ``TOKEN_RE.finditer`` and a walk that tests every pair of neighbouring tokens.

Why: the pipeline takes the regex tokenizer's tokens as offset arrays from one ``split`` (a BMP-only regex when
the text has no character beyond U+FFFF) and tests only the tokens a sentence can end after; a single
different token or sentence would move every span's token range.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.text.document import Sentence, TokenArray, token_texts
from psan.tool.text.tokens import (
    BLANK_LINE_RE,
    TOKEN_RE,
    abbreviations,
    ends_sentence,
    list_line_break,
    sentence_bounds,
    split_sentences,
    token_offsets,
    tokenize,
    tokenize_array,
)

ALPHABET = list("aB1 .!?…\"'”’»)]}›\n\r\t-,:/Mr.e.g  -*•0é\u0301\x00\U0001D167\U0001F600İ")


def walk_every_token(text: str, starts: list[int], ends: list[int], language: str | None) -> list[Sentence]:
    """The sentence rules tested after every token (the definition :func:`sentence_bounds` shortcuts)."""
    n = len(starts)
    if not n:
        return []
    abbrevs = abbreviations(language)
    out, first = [], 0
    for i in range(n - 1):
        gap = text[ends[i]:starts[i + 1]]
        if not gap:
            continue
        if "\n" in gap and BLANK_LINE_RE.search(gap.replace("\r\n", "\n").replace("\r", "\n")):
            split = True
        else:
            split = ends_sentence(text, starts, ends, i, first, gap, starts[i + 1], abbrevs) or (
                ("\n" in gap or "\r" in gap) and list_line_break(text, starts[i], ends[i], starts[i + 1]))
        if split:
            out.append(Sentence(first, i + 1))
            first = i + 1
    out.append(Sentence(first, n))
    return out


def check(text: str, language: str | None) -> None:
    spans = [m.span() for m in TOKEN_RE.finditer(text)]
    starts, ends, texts = token_offsets(text)
    assert list(zip(starts, ends, strict=True)) == spans
    assert texts == [text[a:b] for a, b in spans]
    expected = walk_every_token(text, starts, ends, language)
    assert sentence_bounds(text, starts, ends, language) == expected
    tokens, sentences = tokenize(text, language)
    assert [(t.id, t.start, t.end) for t in tokens] == [(i, a, b) for i, (a, b) in enumerate(spans)]
    assert sentences == expected
    assert split_sentences(text, tokens, language) == expected
    array, sentences = tokenize_array(text, language)
    assert isinstance(array, TokenArray) and array == tokens and sentences == expected
    assert token_texts(text, array) == texts


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=80).map("".join), st.sampled_from(["en", "cs", "pl", None]))
def test_fast_path_equals_definitions(text: str, language: str | None) -> None:
    check(text, language)


@pytest.mark.parametrize("text", [
    "Mr. Smith. Dr. Who\n- item\n1. two\n\nend", "e.g. this. s.r.o. X\r\nY", "A. B. C.\n", "„hi.“ Next (so).\" Yes",
    "mark \U0001D167x beyond the BMP\U0001F600. Next", "", "   \n ", "one"])
def test_fast_path_examples(text: str) -> None:
    for language in ("en", "cs", None):
        check(text, language)


@pytest.mark.shared
def test_fast_path_on_corpora(shared_dir: Path) -> None:
    files = sorted((shared_dir / "data").glob("*.jsonl"))
    if not files:
        pytest.skip("no shared corpora")
    for path in files:
        with open(path, encoding="utf-8") as fh:
            records = [json.loads(line) for line in fh if line.strip()][:30]
        for record in records:
            check(record["text"], record.get("lang"))
