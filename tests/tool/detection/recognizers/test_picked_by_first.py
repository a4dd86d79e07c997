"""Alternatives picked by look-behinds of their first characters, grouped, match what the plain alternation matches.

Why: :func:`psan.tool.detection.recognizers.base.picked_by_first` groups the look-behinds for speed only (the regexes
of secrets, provinces, titles, money and dates are built with it); a group whose class missed a character its
alternatives match would drop a span.  The property compares the grouped regex with the plain one (every look-behind
tried in turn), with and without ignoring case, inside ``(?i:…)`` too, on texts of the characters Unicode's case
folding mixes (the long s, the Kelvin sign, the dotted and dotless i) and of the class syntax's own characters.
"""
from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers.base import after_first, first_class_first, picked_by_first

CHARS = ["a", "A", "s", "S", "ſ", "k", "K", "\u212a", "i", "I", "İ", "ı", "é", "É", "-", "]", "^", "\\", ".", "[", "ß",
         "σ", "Σ", "ς", "1", " "]
RESTS = ["", "a", "b", "s", "(a)", "(s)|k", "[ab]", "S?", "(?:ı|i)", r"\w", "(?i:K)"]


def plain(branches: list[tuple[str, str]], ignore_case: bool) -> str:
    """The alternation with one look-behind per alternative, tried one after another (the reference)."""
    def behind(ch: str) -> str:
        return f"(?<=(?i:{re.escape(ch)}))" if ignore_case else f"(?<={re.escape(ch)})"
    return "(?:" + "|".join(f"{behind(f)}(?:{rest})" for f, rest in branches) + ")"


def found(pattern: str, text: str) -> list[tuple[tuple[int, int], ...]]:
    regex = re.compile(pattern)
    return [tuple(m.span(g) for g in range(regex.groups + 1)) for m in regex.finditer(text)]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(CHARS), st.lists(st.sampled_from(RESTS), min_size=1, max_size=3)),
                max_size=14, unique_by=lambda branch: branch[0]),
       st.lists(st.sampled_from(CHARS), max_size=30).map("".join), st.booleans(), st.booleans())
@example([(c, ["a"]) for c in "askiéSKIÉ"], "ſa\u212aaİaıaSaKa", True, False)
def test_grouped_look_behinds_match_as_the_plain_ones(branches: list[tuple[str, list[str]]], text: str,
                                                      ignore_case: bool, wrapped: bool) -> None:
    pairs = [(f, "|".join(rests)) for f, rests in branches]
    grouped, reference = picked_by_first(pairs, ignore_case), plain(pairs, ignore_case)
    if wrapped:  # as inside ``(?i:…)``, where the dates put an alternation of number words
        grouped, reference = f"(?i:{grouped})", f"(?i:{reference})"
    assert found(r"[\s\S]" + grouped + "x?", text) == found(r"[\s\S]" + reference + "x?", text), (pairs, text)


def test_few_alternatives_are_left_as_they_were() -> None:
    assert after_first(["abc", "xyz", "ab"]) == "(?:(?<=a)(?:bc|b)|(?<=x)(?:yz))"
    assert first_class_first("ab", r"\w", {"a": "x", "b": "y"}, ignore_case=False) == \
        r"[ab](?<!\w[\s\S])(?:(?<=a)(?:x)|(?<=b)(?:y))"


def test_many_alternatives_are_grouped() -> None:
    pattern = after_first(["ab", "bc", "cd", "de", "ef", "fg"])
    assert pattern.startswith("(?:(?<=[abc])(?:(?<=a)(?:b)|")
    assert found("[a-g]" + pattern, "abxcdef") == found("[a-g]" + plain([(w[0], w[1:]) for w in
                                                                          ["ab", "bc", "cd", "de", "ef", "fg"]],
                                                                         False), "abxcdef")
