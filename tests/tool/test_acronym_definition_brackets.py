"""The brackets that define acronyms, read off one fixed regex, against the alternation of the text's acronyms.

Why: :func:`psan.tool.detection.acronym_definitions.all_definitions` compiled an alternation of each text's own
acronyms; it now reads every bracket's run of capitals and dashes off one regex compiled once.  The positions must
be the ones the alternation found, for acronyms nested in others ("EU", "EU-X"), brackets opened twice, quotes and
"the" before and after, and runs that go on past an acronym.
"""
from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.acronym_definitions import ACRONYM_CORE, all_definitions, definitions_by_alternation

ACRONYMS = ("EU", "EU-X", "EUR", "BNP", "B", "X-", "UN", "UNHCR", "ECHR", "AB-CD")
#: a bracket as the definitions are written, or nearly: "(", blanks, "the", a quote, the acronym (or a run that goes
#: on past it), a quote, blanks, a closing character
bracket = st.tuples(st.sampled_from(("(", "( ", "(the ", "(“", "(the “the ", "(\n", "( the", "x(")),
                    st.sampled_from(ACRONYMS + ("EU-", "EUX", "BNP-E", "-EU")),
                    st.sampled_from(("", "”", "'", " ", "’ \t")),
                    st.sampled_from((")", ":", ";", ",", "", "x", "-", "(EU)"))).map("".join)
piece = st.one_of(bracket, st.sampled_from(ACRONYMS),
                  st.sampled_from(("(", "((", ")", ":", ";", ",", " ", "\n", "the ", "the", "“", "”", '"', "'", "‘",
                                   "’", "-", "A", "Z", "x", "ž", "Ž", "é", "1", "(the “", "”)", " )", "\t")))


@settings(max_examples=600, deadline=None)
@given(st.lists(piece, max_size=14).map("".join),
       st.lists(st.sampled_from(ACRONYMS + ("A-", "ZZ", "X-Y-Z")), unique=True, max_size=5))
@example("(EU-X) (EU) (the “EU”: x", ["EU"])
@example("((BNP)", ["BNP"])
@example("(EU-X) (X-)", ["EU-X", "X-"])
def test_brackets_read_off_one_regex_are_the_alternations(text: str, acronyms: list[str]) -> None:
    assert all_definitions(text, acronyms) == definitions_by_alternation(text, acronyms)


@given(st.text(st.sampled_from("ABZ-x( "), min_size=1, max_size=12))
def test_acronyms_the_long_forms_are_found_for_are_capitals_and_dashes(text: str) -> None:
    """What :func:`mark_long_forms` takes as an acronym (its ``ACRONYM_CORE`` group) is capitals and dashes."""
    m = ACRONYM_CORE.fullmatch(text)
    if m is not None:
        assert re.fullmatch(r"[A-Z][A-Z\-]*", m.group(1))


def test_other_acronyms_keep_the_alternation() -> None:
    text = "The Court (Ž-X) and (Ž-X) again (AB)."
    assert all_definitions(text, ["Ž-X", "AB"]) == definitions_by_alternation(text, ["Ž-X", "AB"]) == {"Ž-X": [10, 20],
                                                                                         "AB": [32]}
