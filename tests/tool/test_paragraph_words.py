"""The lower-case words of a paragraph (:class:`LowerCaseWords`) equal a plain reading of the paragraph's words.

Why: the recognizers ask it whether a word is also written in lower case ("SOBOTA" beside "sobota"); the sets are
built lazily and in C, so a property test holds them to the definition (the words between blank lines, lower-case
ones; those not in capitals, lower-cased).
"""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers.paragraphs import LowerCaseWords

_PIECES = ["sobota", "Sobota", "SOBOTA", "most", "Most", "İstanbul", "ıi", "ß", "ǅ", "x2", "_", "12", " ", "\n",
           "\n\n", "\n \t\n", ".", "NATO", "nato", "Nato"]


def reference(text: str, pos: int) -> tuple[frozenset[str], frozenset[str]]:
    """The paragraph around ``pos``: its lower-case words and its words not in capitals, lower-cased."""
    start = 0
    for blank in re.finditer(r"\n[ \t\r\f\v]*\n", text):
        if blank.end() > pos:
            break
        start = blank.end()
    nxt = re.compile(r"\n[ \t\r\f\v]*\n").search(text, start)
    words = re.findall(r"\w+", text[start:nxt.start() if nxt else len(text)])
    return frozenset(w for w in words if w.islower()), frozenset(w.lower() for w in words if not w.isupper())


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join), st.sampled_from(_PIECES[:10]))
def test_the_paragraph_word_sets_equal_a_plain_reading(text: str, word: str) -> None:
    words = LowerCaseWords(text)
    for pos in range(len(text) + 1):
        lower, not_capitals = reference(text, pos)
        assert words(word, pos) == (word.lower() in lower), (text, pos)
        assert words.not_in_capitals(word, pos) == (word.lower() in not_capitals), (text, pos)
