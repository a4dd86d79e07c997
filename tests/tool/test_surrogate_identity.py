"""Surrogates that stay true to each other and to the world.

A national ID and the written date of birth of one person encode the same shifted date; phone
surrogates keep a valid calling code (the original's, or the project's country's).
"""
from __future__ import annotations

import random
import re

import phonenumbers
import pytest

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.detection.recognizers import ids
from psan.tool.surrogates import birthdates, dates, phones, pseudonymize_document
from psan.tool.text.document import Category


def _regions(text: str, spans: list[tuple[str, Category, str]]) -> list[PrivateRegion]:
    out = []
    for s, category, type_ in spans:
        i = text.index(s)
        out.append(PrivateRegion(i, i + len(s), category, None, type_))
    return sorted(out, key=lambda r: r.start)


# --- birth dates ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("type_", "value", "born"), [
    ("CZ_BIRTH_NUMBER", "736028/5163", (1973, 10, 28)),      # a woman (+50)
    ("CZ_BIRTH_NUMBER", "850312/1231", (1985, 3, 12)),
    ("PL_PESEL", "44051401359", (1944, 5, 14)),
    ("PL_PESEL", "02270803628", (2002, 7, 8)),               # +20: born in the 2000s
    ("SE_PERSONNUMMER", "811218-9876", (1981, 12, 18)),
    ("SE_PERSONNUMMER", "19811218-9876", (1981, 12, 18)),
    ("SI_EMSO", "0101006500006", (2006, 1, 1)),
])
def test_birth_date_decoded_from_the_id(type_: str, value: str, born: tuple[int, int, int]) -> None:
    assert birthdates.decode(type_, value) == born


CASES = [
    ("cs", "Jana Nováková, nar. 28. října 1973, r. č. 736028/5163, bytem Praha.",
     "28. října 1973", "736028/5163", "CZ_BIRTH_NUMBER"),
    ("cs", "narozen 12.03.1985, rodné číslo 850312/1231", "12.03.1985", "850312/1231", "CZ_BIRTH_NUMBER"),
    ("pl", "Jan Kowalski, ur. 14 maja 1944 r., PESEL 44051401359.", "14 maja 1944", "44051401359", "PL_PESEL"),
    ("sv", "Född 1981-12-18, personnummer 811218-9876.", "1981-12-18", "811218-9876", "SE_PERSONNUMMER"),
    ("cs", "R. č. 850312/1231; datum narození: 12. 3. 1985.", "12. 3. 1985", "850312/1231", "CZ_BIRTH_NUMBER"),
]


@pytest.mark.parametrize(("language", "text", "dob", "id_", "type_"), CASES)
def test_id_and_date_of_birth_encode_the_same_shifted_date(language: str, text: str, dob: str, id_: str,
                                                           type_: str) -> None:
    validator = {"CZ_BIRTH_NUMBER": ids.valid_birth_number, "PL_PESEL": ids.valid_pesel,
                 "SE_PERSONNUMMER": ids.valid_personnummer}[type_]
    assert validator(id_)
    original = birthdates.decode(type_, id_)
    for seed in range(15):
        spans = [(dob, Category.DATE, "DATE"), (id_, Category.ID, type_)]
        output, entries = pseudonymize_document(text, _regions(text, spans), language, seed)
        by_original = {e["original_text"]: e["replacement"] for e in entries}
        new_id, new_dob = by_original[id_], by_original[dob]
        assert validator(new_id), new_id
        shifted = birthdates.decode(type_, new_id)
        assert shifted is not None and shifted != original
        assert dates.parse(new_dob, language) == shifted, (new_dob, new_id)
        assert abs(shifted[0] - original[0]) <= 3
        assert [c.isdigit() for c in new_id] == [c.isdigit() for c in id_]  # layout kept
        assert id_ not in output.text and dob not in output.text


def test_other_dates_are_not_tied_to_the_id() -> None:
    text = "r. č. 850312/1231, smlouva ze dne 12.03.1985 a ze dne 4. 5. 2001"
    regions = _regions(text, [("850312/1231", Category.ID, "CZ_BIRTH_NUMBER"), ("4. 5. 2001", Category.DATE, "DATE")])
    _, entries = pseudonymize_document(text, regions, "cs", 3)
    new_date = {e["original_text"]: e["replacement"] for e in entries}["4. 5. 2001"]
    assert dates.parse(new_date, "cs") != birthdates.decode("CZ_BIRTH_NUMBER", "850312/1231")


def test_shift_respects_the_layout_of_the_id() -> None:
    # a 10-digit rodné číslo can only encode 1954–2053: a 1955 birth date never shifts below 1954
    for seed in range(40):
        year, month, day = birthdates.shift(seed, (1955, 6, 1), 3, birthdates.year_range("CZ_BIRTH_NUMBER",
                                                                                         "550601/1234"))
        assert 1954 <= year <= 1958 and year != 1955 and 1 <= month <= 12 and 1 <= day <= 28


def test_parse_and_render_dates() -> None:
    rng = random.Random(1)
    assert dates.parse("12. března 1985", "cs") == (1985, 3, 12)
    assert dates.parse("1985-03-12", "en") == (1985, 3, 12)
    assert dates.parse("3 March 1985", "en") == (1985, 3, 3)
    assert dates.parse("12.03.85", "cs", this_year=2026) == (1985, 3, 12)
    assert dates.parse("March 1985", "en") is None  # no day: not a date of birth
    assert dates.render("12. března 1985", "cs", (1987, 11, 4), rng) == "04. listopadu 1987"
    assert dates.render("12.03.85", "cs", (1987, 11, 4), rng) == "04.11.87"
    assert dates.render("12 Mar 1985", "en", (1987, 11, 4), rng) == "04 Nov 1987"


# --- phones --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("language", "number", "code"), [
    ("cs", "+420 603 123 456", 420),
    ("en", "+44 20 7946 0958", 44),
    ("pl", "0048 601 234 567", 48),
    ("sv", "(+46) 70-123 45 67", 46),
    ("en", "+1 (415) 555-2671", 1),
])
def test_phone_surrogates_keep_the_calling_code(language: str, number: str, code: int) -> None:
    valid = 0
    for seed in range(30):
        got = phones.phone(number, language, random.Random(seed))
        assert re.sub(r"\d", "0", got) == re.sub(r"\d", "0", number)  # layout kept
        parsed = phonenumbers.parse(got.replace("(", "").replace(")", "").replace("00", "+", 1)
                                    if got.startswith("00") else got.replace("(", "").replace(")", ""), None)
        assert parsed.country_code == code
        valid += phonenumbers.is_valid_number(parsed)
    assert valid >= 27  # nearly always a valid number of that country


@pytest.mark.parametrize(("language", "number", "region"), [
    ("cs", "603 123 456", "CZ"), ("en", "020 7946 0958", "GB"), ("pl", "601 234 567", "PL"),
])
def test_national_numbers_stay_numbers_of_the_projects_country(language: str, number: str, region: str) -> None:
    for seed in range(20):
        got = phones.phone(number, language, random.Random(seed))
        assert phonenumbers.is_valid_number(phonenumbers.parse(got, region)), got


def test_invalid_calling_code_becomes_the_projects() -> None:
    got = phones.phone("+999 123 456 789", "cs", random.Random(1))
    assert got.startswith("+420 ")
    assert len(re.sub(r"\D", "", got)) == len(re.sub(r"\D", "", "+999 123 456 789"))


def test_phone_surrogate_in_a_document() -> None:
    text = "Volejte +420 603 123 456 nebo 603 987 654."
    regions = _regions(text, [("+420 603 123 456", Category.CONTACT, "PHONE"),
                              ("603 987 654", Category.CONTACT, "PHONE")])
    output, entries = pseudonymize_document(text, regions, "cs", 5)
    for e in entries:
        assert e["replacement"] != e["original_text"]
        assert phonenumbers.is_valid_number(phonenumbers.parse(e["replacement"], "CZ")), e["replacement"]
    assert "+420 603 123 456" not in output.text
