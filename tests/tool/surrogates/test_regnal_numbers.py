"""A regnal number in a person's name ("Jana Pavla II.", "Karla IV.", "Henry VIII") is another numeral in the
surrogate, never the original one nor a surname, and the name's case is read from its words."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from psan.tool.cli.pseudonymize import pseudonymize_corpus
from psan.tool.words.regnal import is_regnal, name_end, regnal_surrogate

NUMERAL = re.compile(r"\b(?:X{0,3})(?:IX|IV|VI{0,3}|I{0,3})\b")


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)


def _run(lang: str, text: str, mention: str, label: str, seed: str = "0") -> dict:
    start = text.index(mention)
    doc = {"id": "d", "lang": lang, "text": text, "spans": [{"start": start, "end": start + len(mention),
                                                           "label": label}]}
    return pseudonymize_corpus([doc], None, "pseudonymize", seed)[0]


@pytest.mark.parametrize(("word", "first", "regnal"), [
    ("II", False, True), ("XIV", False, True), ("VIII", False, True), ("XXIII", False, True),
    ("V", False, False),  # one letter: as likely an initial
    ("XI", True, False),  # the first word of a name in capitals ("XI Jinping") is a surname
    ("LI", False, False), ("DI", False, False), ("IIII", False, False), ("Iv", False, False),
])
def test_a_roman_numeral_of_two_letters_after_the_first_word_is_a_regnal_number(word, first, regnal):
    assert is_regnal(word, first) is regnal


@given(st.sampled_from(["II", "III", "IV", "VI", "IX", "XII", "XIV", "XXI"]), st.integers(0, 2**32))
def test_the_surrogate_numeral_is_never_the_original(word, seed):
    got = regnal_surrogate(word, random.Random(seed))
    assert got != word and is_regnal(got, first=False)


def test_the_name_ends_before_its_regnal_number_for_reading_its_case():
    text = "Za vlády Karla IV. vznikla"
    assert text[9:name_end(text, 9, 18)] == "Karla"
    assert name_end("Karel V.", 0, 8) == 8  # one letter: an initial, part of the name
    assert name_end("IV.", 0, 3) == 3  # nothing but the numeral: left as it is


@pytest.mark.parametrize(("lang", "text", "mention", "label", "case"), [
    ("sk", "Štátny smútok za Jána Pavla II. vyhlásil aj Paraguay.", "Jána Pavla II.", "PER", "Acc"),
    ("cs", "Za vlády Karla IV. vznikla univerzita.", "Karla IV.", "PERSON", "Gen"),
    ("pl", "Papież Jan Paweł II odwiedził Polskę.", "Jan Paweł II", "PER", "Nom"),
    ("en", "Henry VIII married six times.", "Henry VIII", "PERSON", None),
])
@pytest.mark.parametrize("seed", ["0", "1", "2"])
def test_a_monarchs_surrogate_keeps_a_numeral_of_its_own_and_the_names_case(lang, text, mention, label, case, seed):
    out = _run(lang, text, mention, label, seed)
    (rep,) = out["replacements"]
    original = NUMERAL.findall(mention.rstrip("."))[-1]
    words = rep["surrogate"].rstrip(".").split()
    assert is_regnal(words[-1], first=False) and words[-1] != original, rep
    assert not any(w.isupper() and len(w) > 1 and not is_regnal(w, first=False) for w in words), rep
    if case is not None:
        assert rep["features"]["Case"] == case, rep


def test_a_monarchs_mentions_in_different_cases_are_one_entity_with_one_surrogate():
    text = "Za vlády Karla IV. vznikla univerzita. Karel IV. ji založil. Karlovi IV. se líbila."
    mentions = ["Karla IV.", "Karel IV.", "Karlovi IV."]
    spans = [{"start": text.index(m), "end": text.index(m) + len(m), "label": "PERSON"} for m in mentions]
    out = pseudonymize_corpus([{"id": "d", "lang": "cs", "text": text, "spans": spans}], None, "pseudonymize", "0")[0]
    numerals = {r["surrogate"].rstrip(".").split()[-1] for r in out["replacements"]}
    cases = [r["features"]["Case"] for r in out["replacements"]]
    assert len(numerals) == 1 and cases == ["Gen", "Nom", "Dat"], out["replacements"]
