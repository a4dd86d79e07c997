"""Demographic quasi-identifiers (TAB's DEM): occupations and nationality phrases, own category."""
from __future__ import annotations

import pytest

from psan.tool.detection.defaults import default_config
from psan.tool.detection.recognizers.demographic import (
    SCORE,
    DemographicRecognizer,
    default_recognizers,
    is_demographic_phrase,
)
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category


def found(text: str) -> list[str]:
    return [text[s.start:s.end] for s in DemographicRecognizer().analyze(text)]


@pytest.mark.parametrize("text,expected", [
    ("He was a taxi driver by profession.", ["taxi driver by profession"]),
    ("The applicant is an anaesthesiologist in Ankara.", ["anaesthesiologist"]),
    ("She worked as a primary school teacher until 1998.", ["primary school teacher"]),
    ("The applicant, who is white British, lives in Leeds.", ["white British"]),
    ("a retired non-commissioned officer", ["retired non-commissioned officer"]),
    ("lodged by a Turkish national, Mr Ali Erden", ["Turkish national"]),  # the phrase, as TAB masks it at times
    ("He had worked as a lawyer in Istanbul.", ["lawyer"]),
    # typeset judgments hyphenate with U+2011 (non-breaking hyphen)
    ("a retired non\u2011commissioned officer", ["retired non\u2011commissioned officer"]),
    ("a self\u2011employed plumber", ["self\u2011employed plumber"]),
    # an adjectival noun is an occupation only on its own; a capitalized one before a name is a title
    ("She complained to the principal of the secondary school.", ["principal", "secondary school"]),
    ("He was appointed as an assistant Professor in Leeds.", ["assistant Professor"]),
    # schools and diplomas (type EDUCATION); an occupation at one is one phrase
    ("She left the secondary school with a nursing college certificate.", ["secondary school",
                                                                           "nursing college certificate"]),
    ("He holds a technical high‑school diploma.", ["technical high‑school diploma"]),
    ("In 2001 he was a student at the naval academy in Split.", ["student at the naval academy"]),
])
def test_occupations_and_nationality_phrases(text: str, expected: list[str]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize("text", [
    "The applicant's lawyer lodged an appeal and the judge dismissed it.",
    "The police officers questioned him; the prosecutor indicted him.",
    "The Turkish Government replied.",
    "He was one of the principal organisers of the march.",
    "The Principal Public Prosecutor appealed.",
    "the account of Professor Mallory was credited",
    # a kind of school in the plural is schools in general, not someone's; a school without a kind says nothing
    "The reform favoured pupils of vocational schools over technical colleges.",
    "the school board met at the school",
])
def test_procedural_roles_outside_an_occupation_frame_are_not_flagged(text: str) -> None:
    assert found(text) == []


def test_own_category_low_score_below_names() -> None:
    (span,) = DemographicRecognizer().analyze("She is a journalist.")
    assert span.category is Category.DEMOGRAPHIC and span.score == SCORE and span.priority < -10
    assert category_of("DEM") is Category.DEMOGRAPHIC and category_of("OCCUPATION") is Category.DEMOGRAPHIC
    assert default_recognizers("cs") == []
    assert "demographic" in default_config("en")["recognizers"]
    assert "demographic" not in default_config("cs")["recognizers"]


def test_suspicious_by_default() -> None:
    from psan.store.admin.rules import PRIVATE_BY_DEFAULT, default_ne_confidence
    assert "OCCUPATION" not in PRIVATE_BY_DEFAULT and default_ne_confidence("OCCUPATION") == 0.0


def test_never_public_by_a_shortcut() -> None:
    """Quasi-identifiers wait for a person's decision: no suggestion, accept or learned type makes them public."""
    from psan.tool.decisions.sensitivity import never_public_by_suggestion, sensitive_type
    assert sensitive_type("OCCUPATION") and sensitive_type("NATIONALITY")
    assert never_public_by_suggestion(["OCCUPATION"], Category.DEMOGRAPHIC, ["taxi", "driver"])


@pytest.mark.parametrize("text, expected", [
    ("a lawyer", True), ("A lawyer", True), ("retired primary school teacher", True), ("a civil servant", True),
    ("senior civil servant", True), ("teachers", True), ("a taxi driver", True), ("editor-in-chief", True),
    ("a Turkish national", True), ("Polish nationals", True), ("Turkish", True),
    # a capitalized occupation may be a surname; a name, a place, a clause, a number: not a demographic phrase
    ("Lawyer", False), ("Baker", False), ("John Teacher", False), ("Mr Smith", False), ("Warsaw", False),
    ("a lawyer practising", False), ("the applicant", False), ("25", False), ("", False),
])
def test_a_phrase_marked_by_hand_is_demographic_by_the_lists(text: str, expected: bool) -> None:
    assert is_demographic_phrase(text, "en") is expected


def test_languages_without_lists_have_no_demographic_phrases() -> None:
    assert not is_demographic_phrase("a lawyer", "cs")
