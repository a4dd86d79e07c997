"""A short text's secret keywords, tried where its lower-cased text has their first letters, find what the scan does.

Why: :func:`psan.tool.detection.recognizers.ids.keyword_starts` exists for speed only (substring searches of the
lowered text instead of the keyword regex scanning the whole text); a keyword it missed would leave a password in
clear.  The properties check that every position where the regex matches is among the positions found (texts with
Unicode's case-folding extras, the Kelvin sign, the dotted and dotless i, the long s), that the secret recognizer's
spans equal those of the regex scanning the whole text, and that :data:`FOLDED_ONLY` holds every character the regex's
ignoring of case matches to a prefix letter that ``lower()`` does not make that letter.
"""
from __future__ import annotations

import re
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import ids
from psan.tool.detection.recognizers.ids import FOLDED_ONLY, SECRET_AFTER_KEYWORD, SECRET_PREFIXES, SecretRecognizer
from tests.tool.test_prescan import PIECES, SAMPLES, match_starts

KEYWORDS = [*ids.SECRET_KEYWORDS, "PASSWORD", "Pwd", "LÖSENORD", "HASŁO", "Api Key", "API_KEY", "Secret", "PIN",
            "\u212aey", "to\u212aen", "ToKeN", "pass word", "İ", "ı", "ſ", "Σ", ": ", "=", " is ", " je ", "hunter22",
            " ", "\n", "-", "_", "'", "x"]
TEXTS = st.one_of(SAMPLES, st.lists(st.sampled_from(PIECES + KEYWORDS), max_size=16).map("".join))


def test_the_folded_only_characters_are_all_there_are() -> None:
    everything = "".join(map(chr, range(sys.maxunicode + 1)))
    letters = sorted(set("".join(SECRET_PREFIXES)))
    folded = {ch for x in letters for ch in re.compile(f"(?i:{re.escape(x)})").findall(everything) if ch.lower() != x}
    assert folded == set(FOLDED_ONLY)


@settings(max_examples=600, deadline=None)
@given(TEXTS)
@example("ſecret: hunter22")
@example("\u212aey: hunter22, PASSWORD = hunter22")
@example("İ api key: hunter22")
def test_keyword_starts_hold_every_match(text: str) -> None:
    at = ids.keyword_starts(text, text.lower())
    if at is None:
        assert len(text.lower()) != len(text) or any(ch in text for ch in FOLDED_ONLY)
        return
    assert set(match_starts(SECRET_AFTER_KEYWORD, text)) <= set(at), text


@settings(max_examples=600, deadline=None)
@given(TEXTS)
@example("key: hunter22 and \u212aEY: hunter23")
@example("the password is hunter22")
def test_secrets_are_those_of_the_whole_scan(text: str) -> None:
    recognizer = SecretRecognizer()
    found = recognizer.analyze(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ids, "keyword_starts", lambda text, lowered: None)  # the plain form: the regex scans the text
        assert found == recognizer.analyze(text), text
