"""The phone recognizer's screen rules out only numbers that libphonenumber finds invalid.

Why: :func:`psan.tool.detection.recognizers.contact.ruled_out_by_plan` skips libphonenumber for digit runs that no plan
of the region's country code can hold; a screen that ruled out one valid number would drop a phone span (a leak).
The properties compare it with libphonenumber's own answer on numbers written as texts write them: every example
number of every plan (national, international and E.164 forms, with trunk, country-code and dialling prefixes,
digits changed, added or dropped) and runs of digits and separators.
"""
from __future__ import annotations

import re

import phonenumbers
from hypothesis import example, given, settings
from hypothesis import strategies as st

from psan.tool.detection.recognizers.contact import FALLBACK_REGIONS, PHONE_REGIONS, PhoneRecognizer, ruled_out_by_plan

#: the regions psan parses for
REGIONS = sorted({*FALLBACK_REGIONS, *(r for rs in PHONE_REGIONS.values() for r in rs)})
ALL_REGIONS = sorted(phonenumbers.SUPPORTED_REGIONS)
TYPES = [getattr(phonenumbers.PhoneNumberType, name) for name in dir(phonenumbers.PhoneNumberType)
         if name.isupper() and name != "UNKNOWN"]
FORMATS = (phonenumbers.PhoneNumberFormat.NATIONAL, phonenumbers.PhoneNumberFormat.INTERNATIONAL,
           phonenumbers.PhoneNumberFormat.E164)
#: the characters of a candidate run that the screen sees (an ASCII run; others go to libphonenumber unscreened)
SEPARATORS = " ()./-"


def _libphonenumber_valid(value: str, region: str) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(value, region))
    except phonenumbers.NumberParseException:
        return False


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def _examples(region: str) -> list[str]:
    """Every example number of the plans of ``region``'s country code, in every format, "+" dropped."""
    out = []
    for sibling in phonenumbers.region_codes_for_country_code(phonenumbers.country_code_for_region(region)):
        for type_ in TYPES:
            number = phonenumbers.example_number_for_type(sibling, type_)
            if number is not None:
                out.extend(phonenumbers.format_number(number, f).lstrip("+") for f in FORMATS)
    return out


@st.composite
def written_numbers(draw: st.DrawFn) -> str:
    """An example number of some plan as a text may write it: a prefix, some digits changed, separators."""
    source = draw(st.sampled_from(REGIONS) | st.sampled_from(ALL_REGIONS))
    number = phonenumbers.example_number_for_type(source, draw(st.sampled_from(TYPES)))
    if number is None:
        number = phonenumbers.example_number(source)
    text = phonenumbers.format_number(number, draw(st.sampled_from(FORMATS))).lstrip("+")
    prefix = draw(st.sampled_from(["", "0", "1", "00", "011", "06", "180020", str(number.country_code),
                                   f"0{number.country_code}", "(0)", "(", "1-"]))
    chars = [c if c.isdigit() or c in SEPARATORS else draw(st.sampled_from(SEPARATORS)) for c in prefix + text]
    for _ in range(draw(st.integers(0, 2))):
        positions = [i for i, c in enumerate(chars) if c.isdigit()]
        i = draw(st.sampled_from(positions))
        chars[i] = draw(st.sampled_from("0123456789" + ("" if len(positions) < 8 else "-")))
    if draw(st.booleans()):
        chars.append(draw(st.sampled_from("0123456789")))
    if draw(st.booleans()) and chars[-1:] != ["("]:
        chars.pop()
    return "".join(chars)


runs = st.text(alphabet="0123456789" * 3 + SEPARATORS, min_size=1, max_size=22)


@settings(max_examples=3000, deadline=None)
@given(written_numbers() | runs, st.sampled_from(REGIONS) | st.sampled_from(ALL_REGIONS))
@example("12345/06", "GB")
@example("(0) 20 7946 0958", "GB")
@example("011 44 20 7946 0958", "US")
@example("1 613 555 0123", "CA")
def test_a_ruled_out_number_is_invalid_for_libphonenumber(value: str, region: str) -> None:
    if ruled_out_by_plan(_digits(value), region):
        assert not _libphonenumber_valid(value, region)


def test_no_example_number_of_a_plan_is_ruled_out() -> None:
    """Every region (not only psan's): a number of another region of the same country code ("+44" Jersey for
    "GB", "+7" Kazakhstan for "RU") parses for either."""
    for region in ALL_REGIONS:
        for value in _examples(region):
            for written in (value, "0" + value, "(" + value):
                if _libphonenumber_valid(written, region):
                    assert not ruled_out_by_plan(_digits(written), region), (written, region)


def test_application_numbers_are_ruled_out_without_libphonenumber() -> None:
    """The digit runs of court decisions' application numbers fit no plan of the English regions."""
    for value in ("12345/06", "45874/05", "18403/91", "1996/302"):
        assert all(ruled_out_by_plan(_digits(value), region) for region in PHONE_REGIONS["en"])
        assert not PhoneRecognizer(PHONE_REGIONS["en"])._parse(value)
