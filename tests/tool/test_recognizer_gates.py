"""The fast forms of the special-category and demographic recognizers' scans against their plain definitions.

Why: ``bench_preannotation.py`` holds the default English pipeline to spaCy's NER alone, and these scans were
a fifth of psan's own CPU there; they were rewritten so the regex engine skips ahead in C (a character class
first, terms grouped by first letter, the occupation nouns looked up among the text's distinct words).  Each
must find exactly what its plain form finds (Hypothesis, examples, the shared corpora).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import demographic, health, sensitive

PIECES = ["HIV", "hiv", "aids", "-", "--", " ", "\n", "x", "a", "é", "_", "1", "ſon", "K", "İ", "Roma", "Via Roma",
          "gay", "GAY", "my wife", "his  son", "the applicant's mother", "LGBTQ", "Kurds", "rakovina", "Žid", "žid",
          "Rom", "Romové", "svědek Jehovův", "jej syn", "ich deti", "min fru", "teacher", "Teachers", "officers",
          "Officer", "judge", "es", "s", "white", "Asian", "British", "national", "nationals", "Turkish",
          "mixed-race", "woman", "civil", "servant", "L5", "-S1", "C5–C6", "T12/L1", "disorder", "disorders",
          "tumours", "migraines", "illnesses", "diseases"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)

PLAIN_AFTER_NATIONALITY = re.compile(rf"\b([A-Z][\w-]+)\s+{demographic.NATIONALITY_NOUNS}\b")
PLAIN_COLOUR_BEFORE = re.compile(r"\b(?:white|black|mixed-race|Asian)\s+([\w-]+)\b")
PLAIN_SPINAL_SEGMENT = re.compile(r"\b([CTLS])(\d{1,2})\s?[-‑–/]\s?([CTLS])(\d{1,2})\b")


def matches(pattern: re.Pattern[str], text: str) -> list[tuple]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


def check(text: str) -> None:
    for language in sensitive.languages():
        assert sensitive.term_starts(text, language) == [m.start() for m in sensitive._plain_gate(language).finditer(
            text)], language
    assert [m.span() for m in demographic.head_words(text)] == [
        m.span() for m in demographic._WORD_RE.finditer(text) if demographic._head(m.group())]
    assert matches(demographic._AFTER_NATIONALITY, text) == matches(PLAIN_AFTER_NATIONALITY, text)
    assert matches(demographic._COLOUR_BEFORE, text) == matches(PLAIN_COLOUR_BEFORE, text)
    assert matches(health._SPINAL_SEGMENT, text) == matches(PLAIN_SPINAL_SEGMENT, text)
    for words, groups in ((health.HEADS, health._HEAD_GROUPS), (health.CONDITION_NOUNS, health._CONDITION_GROUPS)):
        assert sorted(health._word_starts(text, groups)) == sorted(
            (word, pos) for word in words for pos in health._starts(text, word))


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_fast_scans_equal_plain_forms(text: str) -> None:
    check(text)


@pytest.mark.parametrize("text", [
    "Via Roma, the Roma; my wife and HIS SON", "a retired-teacher, ex--officer Officers",
    "white British and black woman", "a Turkish national, of Kurdish origin", "L5-S1 xL5-S1"])
def test_fast_scans_examples(text: str) -> None:
    check(text)


def test_alternatives_expand_a_leading_group() -> None:
    assert sensitive._alternatives(r"(?:a|b(?:c|d)|[|)]e)\s+x") == [r"a\s+x", r"b(?:c|d)\s+x", r"[|)]e\s+x"]
    assert sensitive._alternatives(r"(?:a|b)?c") == [r"(?:a|b)?c"]
    assert sensitive._alternatives("plain") == ["plain"]


@pytest.mark.shared
def test_fast_scans_on_corpora(shared_dir: Path) -> None:
    files = sorted((shared_dir / "data").glob("*.jsonl"))
    if not files:
        pytest.skip("no shared corpora")
    for path in files:
        with open(path, encoding="utf-8") as fh:
            for line in [line for line in fh if line.strip()][:40]:
                check(json.loads(line)["text"])
