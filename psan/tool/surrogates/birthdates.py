"""One shifted birth date per person: national IDs and the date of birth must tell the same story.

Why: a rodné číslo, PESEL, personnummer or EMŠO encodes its holder's birth date.  If the ID's
surrogate drew its own random date while the written date of birth was shifted by other rules,
the output would contradict itself ("born 3. 4. 1981", ID 850612/…), and a reader comparing the
two learns which one is fake.  So the birth date encoded in an ID is mapped once, deterministically
(project seed + original date), to a shifted date that both the ID surrogate and the surrogate of
the same date written out use — a date in the text equal to an ID's birth date is taken to be that
person's date of birth.

The shift follows the date policy (year ±``delta``, never 0; month random; day 1–28) within the
years the ID's layout can encode (a 10-digit rodné číslo is 1954–2053, a 9-digit one before 1954).
"""
from __future__ import annotations

import datetime
import re

from psan.tool.surrogates.rng import stream

Date = tuple[int, int, int]

#: ID types whose digits encode the holder's birth date
BIRTH_DATE_IDS = ("PL_PESEL", "CZ_BIRTH_NUMBER", "SK_BIRTH_NUMBER", "SE_PERSONNUMMER", "SI_EMSO")

_PESEL_CENTURY = {0: 1900, 20: 2000, 40: 2100, 60: 2200, 80: 1800}


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _real(y: int, m: int, d: int) -> Date | None:
    try:
        datetime.date(y, m, d)
    except ValueError:
        return None
    return (y, m, d)


def decode(type_: str, text: str, today: datetime.date | None = None) -> Date | None:
    """The birth date the ID ``text`` encodes, or ``None`` (not such an ID, or no real date)."""
    n = _digits(text)
    if type_ == "PL_PESEL" and len(n) == 11:
        yy, mm, dd = int(n[0:2]), int(n[2:4]), int(n[4:6])
        offset = (mm // 20) * 20
        return _real(_PESEL_CENTURY.get(offset, 1900) + yy, mm - offset, dd)
    if type_ in ("CZ_BIRTH_NUMBER", "SK_BIRTH_NUMBER") and len(n) in (9, 10):
        yy, mm, dd = int(n[0:2]), int(n[2:4]), int(n[4:6])
        mm = mm - 50 if mm > 50 else mm
        mm = mm - 20 if mm > 20 else mm  # extra serial ranges since 2004
        year = 1900 + yy if len(n) == 9 or yy >= 54 else 2000 + yy
        return _real(year, mm, dd)
    if type_ == "SE_PERSONNUMMER" and len(n) in (10, 12):
        if len(n) == 12:
            year, rest = int(n[0:4]), n[4:]
        else:
            today = today or datetime.date.today()
            yy, rest = int(n[0:2]), n[2:]
            year = 2000 + yy if 2000 + yy <= today.year else 1900 + yy
            if "+" in text:  # a '+' separator: a hundred years old or more
                year -= 100
        mm, dd = int(rest[0:2]), int(rest[2:4])
        return _real(year, mm, dd - 60 if dd > 60 else dd)
    if type_ == "SI_EMSO" and len(n) == 13:
        dd, mm, yyy = int(n[0:2]), int(n[2:4]), int(n[4:7])
        return _real(1000 + yyy if yyy >= 800 else 2000 + yyy, mm, dd)
    return None


def year_range(type_: str, text: str) -> tuple[int, int]:
    """The years an ID of this type and layout can encode (the shifted date must fit)."""
    n = len(_digits(text))
    if type_ in ("CZ_BIRTH_NUMBER", "SK_BIRTH_NUMBER"):
        return (1900, 1953) if n == 9 else (1954, 2053)
    if type_ == "PL_PESEL":
        return (1800, 2299)
    if type_ == "SI_EMSO":
        return (1800, 2799)
    if type_ == "SE_PERSONNUMMER" and n == 10 and not re.search(r"\+", text):
        this_year = datetime.date.today().year
        return (this_year - 99, this_year)
    return (1800, 2199)


def shift(seed: int | str, original: Date, delta: int, years: tuple[int, int]) -> Date:
    """The surrogate birth date of ``original`` (same result for the ID and the written date).

    Year ±1…``delta`` within ``years``; when no such year fits the ID's layout the year is the
    nearest one that does (the date always changes, so it never repeats the original).
    """
    rng = stream(seed, "birth-date", original)
    y, _, _ = original
    lo, hi = years
    choices = [y + d for d in range(-delta, delta + 1) if d != 0 and lo <= y + d <= hi]
    if choices:
        year = rng.choice(choices)
    else:
        year = min((c for c in range(lo, hi + 1) if c != y), key=lambda c: abs(c - y))
    # another month: a written date of birth must not print its original's month name
    month, day = rng.choice([m for m in range(1, 13) if m != original[1]]), rng.randint(1, 28)
    return (year, month, day)


def encode(type_: str, original_digits: str, date: Date, serial: str) -> str | None:
    """Digits of an ID of ``type_`` born on ``date``: the digits before the check digit.

    ``serial`` gives the random serial digits; the gender (PESEL's 10th digit parity, the +50 of a
    woman's rodné číslo, the +60 of a samordningsnummer) is kept from ``original_digits``.
    """
    y, m, d = date
    n = len(original_digits)
    if type_ == "PL_PESEL" and n == 11:
        century = {1800: 80, 1900: 0, 2000: 20, 2100: 40, 2200: 60}[y // 100 * 100]
        gender = int(original_digits[9]) % 2
        last = (int(serial[3]) // 2) * 2 + gender
        return f"{y % 100:02d}{m + century:02d}{d:02d}{serial[:3]}{last}"
    if type_ in ("CZ_BIRTH_NUMBER", "SK_BIRTH_NUMBER") and n in (9, 10):
        female = int(original_digits[2:4]) > 50
        return f"{y % 100:02d}{m + (50 if female else 0):02d}{d:02d}{serial[:3]}"
    if type_ == "SE_PERSONNUMMER" and n in (10, 12):
        coordination = int(original_digits[-6:-4]) > 60  # day field of the 10-digit form
        day = d + 60 if coordination else d
        century = f"{y // 100}" if n == 12 else ""
        return f"{century}{y % 100:02d}{m:02d}{day:02d}{serial[:3]}"
    if type_ == "SI_EMSO" and n == 13:
        return f"{d:02d}{m:02d}{y % 1000:03d}{original_digits[7:9]}{serial[:3]}"
    return None
