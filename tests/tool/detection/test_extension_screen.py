"""Growing a name's end: the one-regex screen (``extension.GROWS_AT_END``) changes no grown mention.

Why: the screen exists for speed only (six regexes called from Python per name of a large document); a name
it wrongly stops would leave the rest of a court's name, its bracket or its possessive in clear.  The property
compares :func:`psan.tool.detection.extension.extend_mentions` with the screen against the same call with a screen
that never stops a name (the plain rules), on texts built from the words the rules look for.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection import extension
from psan.tool.text.document import Category, CharSpan

PIECES = ["Court", "Tribunal", "Ministry", "Lublin", "Kayseri", "of", "for", "in", "the", "First-instance",
          "Justice", "General", "Jurisdiction", "and", "Article", "village", "municipal", "court", "police",
          "prison", "-Cypriot", "‑based", "-born", "'s", "’s", "s", "(Sąd Rejonowy)", "[GC]", "(see", ")", "(",
          "“", "”", " ", "  ", "\t", "\n", ",", ".", "x"]
KINDS = [("ORG", Category.ORGANIZATION), ("LOC", Category.LOCATION), ("GPE", Category.LOCATION),
         ("NORP", Category.OTHER), ("MONEY", Category.OTHER), ("PERSON", Category.PERSON)]
NEVER_STOPS = re.compile("")  # matches at every position: every name goes through the rules


def grown(text: str, cands: list[CharSpan], screen: re.Pattern[str]) -> list[CharSpan]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extension, "GROWS_AT_END", screen)
        return extension.extend_mentions(text, cands, "en")


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=16),
       st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4), st.sampled_from(KINDS)), min_size=1, max_size=5))
@example(["Istanbul", " ", "Court", " ", "of", " ", "First-instance", "’s"],
         [(0, 3, ("ORG", Category.ORGANIZATION))])
@example(["Lublin", " ", "village"], [(0, 1, ("LOC", Category.LOCATION))])
@example(["Konak", " ", "court"], [(0, 1, ("ORG", Category.ORGANIZATION))])
@example(["Turkish", "-Cypriot"], [(0, 1, ("GPE", Category.LOCATION))])
@example(["Lublin", " ", "(Sąd Rejonowy)"], [(0, 1, ("ORG", Category.ORGANIZATION))])
@example(["Tribunal", "'s"], [(0, 1, ("ORG", Category.ORGANIZATION))])
def test_screened_name_ends_equal_the_plain_rules(pieces: list[str], spans: list[tuple]) -> None:
    text, bounds = "", []
    for piece in pieces:
        bounds.append((len(text), len(text) + len(piece)))
        text += piece
    cands = [CharSpan(bounds[first][0], bounds[min(len(bounds), first + n) - 1][1], kind, category, "test", 0.5)
             for first, n, (kind, category) in spans if first < len(bounds)]
    assert grown(text, cands, extension.GROWS_AT_END) == grown(text, cands, NEVER_STOPS)


def test_the_screen_keeps_each_rule_regex_flags() -> None:
    """The alternation is compiled with the rules' own flags (a rule compiled with others would match otherwise)."""
    assert extension.GROWS_AT_END.flags == re.compile("").flags
