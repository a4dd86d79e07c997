"""Which generator a region needs: from its coarse category plus the recognizer's native type.

Why: ``Category.CONTACT`` covers e-mails, URLs and phones, ``Category.ID``
covers checksum-bearing national IDs and opaque codes; CNEC, OntoNotes and the
pattern recognizers each name them differently.
"""
from __future__ import annotations

import re

from psan.tool.surrogates.checksum import VALIDATORS
from psan.tool.text.document import Category

#: generator kinds
PERSON, CITY, STREET, COUNTRY, ADDRESS, POSTAL, ORG = "person", "city", "street", "country", "address", "postal", "org"
EMAIL, URL, USERNAME, PHONE, IP = "email", "url", "username", "phone", "ip"
NATIONAL_ID, NUMBER = "national_id", "number"
DATE, AGE, TAG = "date", "age", "tag"

_TYPES: dict[str, str] = {
    # contact
    "EMAIL": EMAIL, "EMAIL_ADDRESS": EMAIL, "me": EMAIL, "MAIL": EMAIL,
    "URL": URL, "mi": URL, "DOMAIN_NAME": URL, "WWW": URL,
    "USERNAME": USERNAME, "USER": USERNAME,
    "PHONE": PHONE, "PHONE_NUMBER": PHONE, "at": PHONE,
    "IP": IP, "IP_ADDRESS": IP,
    # ids
    "CREDIT_CARD": "CARD", "IBAN_CODE": "IBAN",
    "CODE": NUMBER, "n_": NUMBER, "US_DRIVER_LICENSE": NUMBER, "ID": NUMBER,
    # places
    "POSTAL_CODE": POSTAL, "ZIP_CODE": POSTAL, "az": POSTAL,
    "STREET": STREET, "gs": STREET, "ah": STREET,
    "STREET_ADDRESS": ADDRESS, "ADDRESS": ADDRESS,
    "gc": COUNTRY, "COUNTRY": COUNTRY,
    "gu": CITY, "gq": CITY, "CITY": CITY, "LOC": CITY, "GPE": CITY, "LOCATION": CITY, "PLACE": CITY,
    "REGION": CITY, "gr": CITY, "g_": CITY,
    # time
    "DATE": DATE, "DATETIME": DATE, "DATE_TIME": DATE, "TIME": DATE, "T": DATE, "td": DATE, "tf": DATE,
    "th": DATE, "tm": DATE, "ty": DATE,
    "AGE": AGE, "na": AGE,
    # persons and organizations
    "P": PERSON, "pf": PERSON, "ps": PERSON, "p_": PERSON, "pm": PERSON, "PER": PERSON, "PERSON": PERSON,
    "PERSON_NAME": PERSON, "FIRST_NAME": PERSON, "SURNAME": PERSON,
    "ORG": ORG, "ORGANIZATION": ORG, "i_": ORG, "ia": ORG, "ic": ORG, "if": ORG, "io": ORG, "mn": ORG, "ms": ORG,
}

_BY_CATEGORY = {Category.PERSON: PERSON, Category.LOCATION: CITY, Category.ORGANIZATION: ORG,
                Category.DATE: DATE, Category.ID: NUMBER}

_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_URL_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|www\.)", re.IGNORECASE)


def kind_of(category: Category | str, type_: str, original: str) -> str:
    """Generator kind (or a checksum type like ``PL_PESEL``) for one region."""
    t = type_ or ""
    if t in VALIDATORS:
        return t
    kind = _TYPES.get(t) or _TYPES.get(t.upper()) if t else None
    if kind is None:
        try:
            kind = _BY_CATEGORY.get(Category(category))
        except ValueError:
            kind = None
        if str(category) == Category.CONTACT.value:
            kind = _contact(original)
    if kind in VALIDATORS:
        return kind
    if kind == CITY and any(ch.isdigit() for ch in original):
        return STREET if re.search(r"[^\W\d_]{2,}", original) else POSTAL
    return kind or TAG


def _contact(original: str) -> str:
    text = original.strip()
    if _EMAIL_RE.match(text):
        return EMAIL
    if _URL_RE.match(text):
        return URL
    if text.startswith("@"):
        return USERNAME
    if sum(ch.isdigit() for ch in text) >= 5:
        return PHONE
    return TAG
