"""A name's base before its legal form: the one-word shortcut gives what the regex gives.

Why: :func:`psan.tool.detection.consolidate.legal_base` answers "" for a text of one word at most without its regex
(speed only); a wrong "" would drop a company's evidence and change a category.  The property compares it with the
regex alone on texts of words, legal forms, commas and blanks of every kind.
"""
from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.consolidate import legal_base, legal_base_by_regex

PIECES = ["Serco", "Kim", "Se", "Ltd", "ltd.", "Limited", "GmbH", "AG", "ag", "Co.", "s.", "r.", "o.", "s.r.o.",
          "Inc.", "plc", "AB", "oy", "x", ",", ", ", " ", "  ", "\t", "\n", "\u00a0", "\u2003", "\x1c", ".", "-"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
@example(" Ltd")
@example("\u00a0Limited ")
@example("Serco Limited")
@example(",\nGmbH")
def test_the_legal_base_is_the_regexs(text: str) -> None:
    assert legal_base(text) == legal_base_by_regex(text), text
