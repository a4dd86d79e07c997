"""A word the dictionary knows only as a common word (psan.tool.words.lexicon.is_common_word)."""
from __future__ import annotations

import pytest

from psan.tool.words import lexicon

pytestmark = pytest.mark.skipif(not lexicon.available(), reason="simplemma (pip extra 'swedish') is not installed")


@pytest.mark.parametrize("word", ["Bitka", "Pracovníci", "Nakoniec", "Ďalšie", "Angličtina"])
def test_common_words(word: str) -> None:
    assert lexicon.is_common_word(word, ["sk"]) is True


@pytest.mark.parametrize("word", ["Bush", "Iraku", "Moskve", "Richard",  # known, but their lemma keeps its capital
                                  "Husajn", "Blix"])  # unknown
def test_names_and_unknown_words(word: str) -> None:
    assert lexicon.is_common_word(word, ["sk"]) is False
