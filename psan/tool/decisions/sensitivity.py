"""Spans that no automatic shortcut may make public.

Why: a home address ("Dlouhá 12"), a date of birth ("1. 1. 1978"), a city district of an address
("Praha 1"), national IDs, account and card numbers, e-mails and phone numbers identify a person
by themselves.  A suggestion, accepting a window (``a``), a learned entity type or the learned
model must never publish them; only a person's explicit decision may.  What counts:

* the categories ID, CONTACT, SENSITIVE (GDPR art. 9 topics) and DEMOGRAPHIC (occupations, nationality
  phrases: quasi-identifiers that identify in one document and not in the next, so a type-wide
  "public" learned from other documents is not safe for them);
* address types (street with number, postal code, CNEC ``ah``/``az``/``at``/``A`` …) and
  personal-number types (birth numbers, SSN, PESEL …: their category is ID);
* a full date (day, month and a year at least :data:`ADULT_YEARS` back): it may be a birth date;
* a place name followed by a number ("Praha 1", "Brno 2"): a district or an address part;
* the categories and entity types an admin lists for the project (``project.sensitive_types``);
* any span that overlaps an address, a phone number or another span of :data:`SENSITIVE_TYPES`
  (:func:`overlaps_any`): "London" of "22 Baker Street, London" is a place name alone and a piece of a
  home address here, and "Ring 555-0199" holds a phone number.
"""
from __future__ import annotations

import datetime
import re
from collections.abc import Collection, Iterable, Sequence

from psan.tool.text.categories import category_of
from psan.tool.text.document import Category

__all__ = ["SENSITIVE_CATEGORIES", "SENSITIVE_TYPES", "sensitive_type", "never_public_by_suggestion",
           "birth_date_like", "overlaps_any"]

SENSITIVE_CATEGORIES = frozenset({Category.ID, Category.CONTACT, Category.SENSITIVE, Category.DEMOGRAPHIC})
#: entity types of addresses, dates and numbers that are personal whatever their coarse category
SENSITIVE_TYPES = frozenset({
    "STREET", "STREET_ADDRESS", "ADDRESS", "POSTAL_CODE", "ZIP_CODE", "ah", "az", "at", "A", "me", "mi",
    "PHONE", "PHONE_NUMBER", "EMAIL", "EMAIL_ADDRESS", "IBAN", "IBAN_CODE", "CREDIT_CARD", "BANK_ACCOUNT",
    "US_SSN", "CZ_BIRTH_NUMBER", "PL_PESEL", "SE_PERSONNUMMER", "SI_EMSO", "DATE_OF_BIRTH", "BIRTH_DATE",
})
#: a full date this many years back or more may be someone's date of birth
ADULT_YEARS = 14
_FULL_DATE = re.compile(r"^\d{1,2}\s*[./-]\s*(?:\d{1,2}|[^\W\d]+)\s*[./-]?\s*(?P<year>(?:19|20)\d{2})$"
                        r"|^\d{1,2}\s*\.?\s*[^\W\d]+\s+(?P<year2>(?:19|20)\d{2})$"
                        r"|^[^\W\d]+\s+\d{1,2},?\s+(?P<year3>(?:19|20)\d{2})$")
_DATE_CATEGORIES = frozenset({Category.DATE})


def sensitive_type(ne_type: str, extra: Collection[str] = ()) -> bool:
    """Is every span of this entity type kept from automatic publication (type-level: learned types)?

    Dates count here too: a type-wide "public" would publish dates of birth with the rest.
    """
    category = category_of(ne_type)
    return (ne_type in SENSITIVE_TYPES or ne_type in extra or str(category) in extra
            or category in SENSITIVE_CATEGORIES or category in _DATE_CATEGORIES)


def birth_date_like(words: Sequence[str], today: datetime.date | None = None) -> bool:
    """A full date (day, month, year) at least :data:`ADULT_YEARS` years back: possibly a date of birth."""
    match = _FULL_DATE.match(" ".join(words).strip())
    if not match:
        return False
    year = int(match.group("year") or match.group("year2") or match.group("year3"))
    return year <= (today or datetime.date.today()).year - ADULT_YEARS


def never_public_by_suggestion(ne_types: Sequence[str], category: Category | str | None, words: Sequence[str],
                               extra: Collection[str] = ()) -> bool:
    """Must this span wait for a person's explicit decision rather than be suggested or decided PUBLIC?

    ``ne_types``: the entity types on exactly the span; ``category``: its coarse category;
    ``words``: its token texts; ``extra``: the project's admin-listed categories and types.
    """
    cat = str(category) if category is not None else ""
    if cat in extra or cat in {str(c) for c in SENSITIVE_CATEGORIES}:
        return True
    if any(t in SENSITIVE_TYPES or t in extra or str(category_of(t)) in extra
           or category_of(t) in SENSITIVE_CATEGORIES for t in ne_types):
        return True
    if birth_date_like(words):
        return True
    located = cat == str(Category.LOCATION) or any(category_of(t) is Category.LOCATION for t in ne_types)
    return located and len(words) >= 2 and words[-1].rstrip(".").isdigit()


def overlaps_any(first: int, end: int, ranges: Iterable[tuple[int, int]]) -> bool:
    """Does the range ``[first, end)`` overlap one of ``ranges`` (``[first, end)`` ranges of sensitive spans)?

    Why: NER cuts an address into a number, a place and a postcode ("22", "Baker Street, London",
    "OQ6 8PA"), or wraps a phone number in a longer guess; each piece alone looks public, and
    publishing the pieces publishes the address.
    """
    return any(a < end and first < b for a, b in ranges)
