"""English phrase recognizers: date ranges/decades/years in context, terms, money, file numbers.

Valid examples are found with the expected span; ordinary sentences of legal and everyday
English produce nothing (no false positives on prose, counts, article or law numbers).
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers import patterns
from psan.tool.detection.recognizers.amounts import MoneyRecognizer
from psan.tool.detection.recognizers.dates import (
    YEAR_CONTEXT_BEFORE,
    DurationRecognizer,
    EnglishDatePhraseRecognizer,
    PenaltyRecognizer,
    context_before,
)
from psan.tool.detection.recognizers.references import CaseNumberRecognizer
from psan.tool.text.document import Category


def texts(recognizer, text: str) -> list[str]:  # noqa: ANN001 - any recognizer
    return [text[s.start:s.end] for s in recognizer.analyze(text)]


ORDINARY = [
    "The applicant complained under Article 6 § 1 of the Convention and Article 1 of Protocol No. 1.",
    "Law no. 2577 on administrative procedure was amended by section 12 of Act no. 4/1995.",
    "There were 1998 cases pending, no 5 was missing and the number 42 appeared twice.",
    "Within two weeks the court held a hearing; the witnesses spoke for several days.",
    "He bought 5 pounds of flour and walked 3 miles to Marks Street on page 300.",
    "Rule 39 of the Rules of Court applies; see paragraphs 25-27 and 1998/99 above.",
    "The meeting is at 10:30, the ratio was 150/90 and the score 3-2.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_no_false_positives_on_ordinary_sentences(text: str) -> None:
    for recognizer in (EnglishDatePhraseRecognizer(), DurationRecognizer(), MoneyRecognizer(),
                       CaseNumberRecognizer()):
        assert texts(recognizer, text) == [], (recognizer, text)


@pytest.mark.parametrize("text,expected", [
    ("On 1 and 3 May 2001 he was questioned", ["1 and 3 May 2001"]),
    ("between 12th and 14th of March, 2004", ["12th and 14th of March, 2004"]),
    ("hearings held on 5-7 June", ["5-7 June"]),
    ("from May to July 2001", ["May to July 2001"]),
    ("in the late 1990s and the 1980's", ["late 1990s", "1980's"]),
    ("the 1998-99 season and 2001–2003", ["1998-99", "2001–2003"]),
    ("He was born in 1955. Since 2001 and by the end of 2003", ["1955", "2001", "2003"]),
    ("in spring 2005 and the summer of 1999", ["2005", "1999"]),
])
def test_english_date_phrases(text: str, expected: list[str]) -> None:
    assert texts(EnglishDatePhraseRecognizer(), text) == expected


@pytest.mark.parametrize("text", ["2003-01 was a month", "from 1999-1990", "in 1998% of", "in 1805s", "in 12345/1998"])
def test_english_date_phrases_invalid(text: str) -> None:
    assert texts(EnglishDatePhraseRecognizer(), text) == []


@pytest.mark.parametrize("text,expected", [
    ("sentenced to two years and six months' imprisonment", ["two years and six months'"]),
    ("a term of 18 months’ imprisonment", ["18 months’"]),
    ("He was detained for twenty-three days", ["twenty-three days"]),
    ("remanded in custody for 3 weeks", ["3 weeks"]),
])
def test_durations_with_context(text: str, expected: list[str]) -> None:
    assert texts(DurationRecognizer(), text) == expected


@pytest.mark.parametrize("text,expected", [
    ("awarded EUR 5,000 for non-pecuniary damage", ["EUR 5,000"]),
    ("paid 5,000 euros and £300.", ["5,000 euros", "£300"]),
    ("a fine of 54,000,000 Turkish liras (TRL) was", ["54,000,000 Turkish liras (TRL)"]),
    ("TRL 1,579,135,521.", ["TRL 1,579,135,521"]),
    ("worth approximately GBP 268,000 in", ["GBP 268,000"]),
    ("EUR 1.5 million", ["EUR 1.5 million"]),
    ("The applicant paid 1,250.50 euros and 300 dollars in 12 instalments.", ["1,250.50 euros", "300 dollars"]),
    ("500 Deutsche Marks and 200 pounds sterling", ["500 Deutsche Marks", "200 pounds sterling"]),
    # thousands written with dots, two adjectives before the currency word
    ("of 12.750.000 Turkish liras (TRL) and", ["12.750.000 Turkish liras (TRL)"]),
    ("he received 640 New Turkish liras in", ["640 New Turkish liras"]),
    ("a sum of TRL 1,250.500.000 was", ["TRL 1,250.500.000"]),
    # after a code any grouping of digits is the amount, even a mistyped one
    ("the court awarded him TRL 12.345.6789 in", ["TRL 12.345.6789"]),
])
def test_money(text: str, expected: list[str]) -> None:
    assert texts(MoneyRecognizer(), text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("The assize court sentenced her to life imprisonment in 2004.", ["life imprisonment"]),
    ("the public prosecutor requested the death penalty for both", ["death penalty"]),
    # the law's penalty, no person's
    ("Protocol No. 6 concerns the abolition of the death penalty.", []),
    ("life imprisonment is the heaviest penalty of the Code", []),
])
def test_life_and_death_sentences_in_a_sentencing_frame(text: str, expected: list[str]) -> None:
    assert texts(PenaltyRecognizer(), text) == expected


@pytest.mark.parametrize("text,expected", [
    # currency words in any case, the longer word of two with one first letter, an adjective of the mark
    ("fined 300 KUNA and 20 Eurocents", ["300 KUNA", "20 Eurocents"]),
    ("paid 40 Finnish marks, 7 korunas and 12 złotych", ["40 Finnish marks", "7 korunas", "12 złotych"]),
    ("a loan of 5m Zlotys", ["5m Zlotys"]),
])
def test_money_words_in_any_case(text: str, expected: list[str]) -> None:
    assert texts(MoneyRecognizer(), text) == expected


@pytest.mark.parametrize("text", ["5 pounds of flour", "12 centres", "3 Lewis", "20 percentage points"])
def test_money_word_must_end_the_word(text: str) -> None:
    assert texts(MoneyRecognizer(), text) == []


@pytest.mark.parametrize("text", ["In 2000 the EUROPEAN Court", "3 Marks Street", "USDA 500", "page 5 EUROPEAN"])
def test_money_invalid(text: str) -> None:
    assert texts(MoneyRecognizer(), text) == []


@pytest.mark.parametrize("text,expected", [
    ("originated in an application (no. 24254/05) against", ["24254/05"]),
    ("registered under application no. 53791/09.", ["53791/09"]),
    ("applications nos. 32964/96, 33362/96 and 33369/96 lodged", ["32964/96", "33362/96", "33369/96"]),
    ("under registration no. D-4840 in", ["D-4840"]),
    ("case no. 2-345/01 was", ["2-345/01"]),
    ("passport No. AB123456", ["AB123456"]),
    ("plot no. 937 was sold", ["937"]),
    ("in applications 12345/06 and 2345/07", ["12345/06", "2345/07"]),
])
def test_case_numbers(text: str, expected: list[str]) -> None:
    assert texts(CaseNumberRecognizer(), text) == expected


def test_short_numeric_codes_are_not_ids() -> None:
    """Short pure-digit codes are OTHER: as IDs they would be propagated to every page number."""
    (plot,) = CaseNumberRecognizer().analyze("plot no. 937")
    (app,) = CaseNumberRecognizer().analyze("application no. 24254/05")
    assert plot.category == Category.OTHER and app.category == Category.ID


def test_year_after_in_is_a_date_in_english() -> None:
    """A year needs a date word before it ("In 2005"); a bare 2005 is a count (see test_patterns)."""
    text = "In 2005 there were 12 weeks."
    assert [text[s.start:s.end] for s in patterns.analyze(text, "en") if s.type == "DATE"] == ["2005"]


def test_english_phrases_only_for_english() -> None:
    text = "awarded EUR 5,000 in application no. 24254/05 between 1 and 3 May 2001"
    en = {s.type for s in patterns.analyze(text, "en")}
    assert {"MONEY", "CASE_NUMBER"} <= en
    assert not {"MONEY", "CASE_NUMBER"} & {s.type for s in patterns.analyze(text, "cs")}


def test_age_phrases() -> None:
    found = [text for text in ("at the age of 42", "he was 42 years of age")
             for s in patterns.analyze(text, "en") if s.type == "AGE" for text in [text[s.start:s.end]]]
    assert found == ["age of 42", "42 years of age"]


@pytest.mark.parametrize("text,expected", [
    ("registered under sheet/plan 11/15W.2 and plan 11/14 E.1 of the Land Registry", ["11/15W.2", "11/14 E.1"]),
    ("plot no. 900 of block D and sheet/plan 24/59W2.", ["900", "24/59W2"]),
    ("as held in R v. Lambert [2001] 3 WLR 206, the Act", ["[2001] 3 WLR 206"]),
    ("in the Supreme Court case NJA 2005 p. 884 (see below)", ["NJA 2005 p. 884"]),
    ("the plan covered 2/3 of the cost; plans 5 were late", []),
])
def test_land_registry_codes_and_law_reports(text: str, expected: list[str]) -> None:
    assert texts(CaseNumberRecognizer(), text) == expected


@pytest.mark.parametrize("text,expected", [
    ("between 2 March 1999 and 7 April 2001 the", ["between 2 March 1999 and 7 April 2001"]),
    ("hearings on 3 May, on 9 June and on 12 October 1996.", ["3 May, on 9 June and on 12 October 1996"]),
    ("from 1 April 1984 to 31 August 1988 he", ["1 April 1984 to 31 August 1988"]),
    ("the night of 14/15 May 2004", ["15 May 2004"]),  # "14" alone is no date: nothing to join
    ("the night of 14 May/15 May 2004", ["14 May/15 May 2004"]),
    ("on 2 May 2001. On 4 June 2002 he", ["2 May 2001", "4 June 2002"]),  # a full stop parts them
    # a bare year listed after a date is part of the list; alone it is no date
    ("in March 1994, 1995 or 1996 they", ["March 1994, 1995 or 1996"]),
    ("It had 1951 members and 1948 guests.", []),
    ("on 3 May 2001 and 20004 others", ["3 May 2001"]),
])
def test_english_date_periods_and_lists_are_one_span(text: str, expected: list[str]) -> None:
    from psan.tool.detection.recognizers.dates import WrittenDateRecognizer
    assert texts(WrittenDateRecognizer("en"), text) == expected


def test_a_year_listed_after_a_year_in_date_context_is_part_of_it() -> None:
    from psan.tool.detection.recognizers.dates import EnglishDatePhraseRecognizer
    assert texts(EnglishDatePhraseRecognizer(), "The applicants were born in 1951 and 1948 respectively.") == [
        "1951 and 1948"]  # the year is the span ("in" is context)
    assert texts(EnglishDatePhraseRecognizer(), "It had 1951 members and 1948 guests.") == []


#: what may stand before a year: the context words in their case forms (ſ, İ, ı fold onto s and i), "of", spaces,
#: hyphens, line breaks, other words and numbers
_BEFORE_YEAR = ["in", "In", "IN", "ın", "İn", "since", "ſince", "from", "of", "Of", "by", "year", "mid", "early",
                "spring", "within", "begin", "x", "_", "5", "March", " ", "  ", "\n", "\t", "-", "\u00a0", ".", ","]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_BEFORE_YEAR), max_size=10).map("".join))
def test_the_context_word_test_read_backwards_agrees_with_the_search(text: str) -> None:
    backwards = text[::-1]
    for start in range(len(text) + 1):
        expected = YEAR_CONTEXT_BEFORE.search(text, max(0, start - 25), start) is not None
        assert context_before(text, backwards, start) == expected, (text, start)
