"""National IDs, IBANs and card numbers that still pass their checksum.

Why: downstream tools (and psan's own recognizers) validate PESEL, rodné
číslo, personnummer, EMŠO, IBAN, card numbers …; a surrogate that fails the
check would stand out or break a pipeline.  A surrogate keeps the layout of
the original (delimiters, letters, digit count), draws a random plausible
birth date where the number encodes one (gender digit kept), and then fixes
the check digit(s) — via python-stdnum for IBAN, otherwise by trying the ten
values of the last digit against the project's validator (the check digit of
every supported scheme is a function of the other digits).
"""
from __future__ import annotations

import random
from collections.abc import Callable

from stdnum import iban as std_iban

from psan.tool.detection.recognizers import ids
from psan.tool.surrogates import birthdates, shape
from psan.tool.surrogates.birthdates import Date

Validator = Callable[[str], bool]

VALIDATORS: dict[str, Validator] = {
    "PL_PESEL": ids.valid_pesel,
    "CZ_BIRTH_NUMBER": ids.valid_birth_number,
    "SK_BIRTH_NUMBER": ids.valid_birth_number,
    "SE_PERSONNUMMER": ids.valid_personnummer,
    "SI_EMSO": ids.valid_emso,
    "IBAN": ids.valid_iban,
    "CARD": ids.valid_card,
    "PL_NIP": ids.valid_nip,
    "PL_REGON": ids.valid_regon,
    "CZ_ICO": ids.valid_ico,
    "CZ_DIC": ids.valid_cz_dic,
    "SK_DIC": ids.valid_sk_dic,
    "US_SSN": ids.valid_us_ssn,
}

_TRIES = 60


def _fill(original: str, digits: str) -> str:
    """Put ``digits`` into the digit positions of ``original`` (delimiters and letters kept)."""
    it = iter(digits)
    return "".join(next(it) if ch.isdigit() else ch for ch in original)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _date(rng: random.Random, first: int, last: int) -> tuple[int, int, int]:
    return rng.randint(first, last), rng.randint(1, 12), rng.randint(1, 28)


def _serial(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(n))


def _body(type_: str, original_digits: str, rng: random.Random) -> str:
    """Digits before the last check digit, with a valid date part where the scheme has one."""
    n = len(original_digits)
    if type_ == "PL_PESEL" and n == 11:
        y, m, d = _date(rng, 1940, 2009)
        month = m + (20 if y >= 2000 else 0)
        gender = int(original_digits[9]) % 2
        return f"{y % 100:02d}{month:02d}{d:02d}" + _serial(rng, 3) + str(rng.randrange(gender, 10, 2))
    if type_ in ("CZ_BIRTH_NUMBER", "SK_BIRTH_NUMBER") and n in (9, 10):
        y, m, d = _date(rng, 1954, 2003) if n == 10 else _date(rng, 1920, 1953)
        female = original_digits[2] in "5678"
        month = m + (50 if female else 0)
        body = f"{y % 100:02d}{month:02d}{d:02d}" + _serial(rng, 3)
        return body if n == 10 else body  # 9-digit numbers (before 1954) have no check digit: validator decides
    if type_ == "SE_PERSONNUMMER" and n in (10, 12):
        y, m, d = _date(rng, 1940, 2009)
        century = f"{y // 100}" if n == 12 else ""
        return f"{century}{y % 100:02d}{m:02d}{d:02d}" + _serial(rng, 3)
    if type_ == "SI_EMSO" and n == 13:
        y, m, d = _date(rng, 1940, 2009)
        return f"{d:02d}{m:02d}{y % 1000:03d}" + original_digits[7:9] + _serial(rng, 3)
    if type_ == "CARD":
        return original_digits[0] + _serial(rng, n - 2)
    return shape.digits_random(original_digits, rng)[:-1]


def valid_checksum(type_: str, text: str, rng: random.Random, birth: Date | None = None) -> str | None:
    """A surrogate of ``text`` that passes ``VALIDATORS[type_]``, same layout; ``None`` if unsupported/failed.

    ``birth``: the (shifted) birth date the surrogate must encode (:mod:`.birthdates`), instead of
    a random one, so it agrees with the surrogate of the holder's written date of birth.
    """
    validator = VALIDATORS.get(type_)
    if validator is None:
        return None
    if type_ == "IBAN":
        return _iban(text, rng, validator)
    orig = _digits(text)
    if len(orig) < 2:
        return None
    for _ in range(_TRIES):
        body = None
        if birth is not None:
            body = birthdates.encode(type_, orig, birth, _serial(rng, 4))
        if body is None:
            body = _body(type_, orig, rng)
        if type_ in ("CZ_BIRTH_NUMBER", "SK_BIRTH_NUMBER") and len(orig) == 9:
            candidate = _fill(text, body)
            if validator(candidate) and candidate != text:
                return candidate
            continue
        start = rng.randint(0, 9)
        for k in range(10):
            candidate = _fill(text, body + str((start + k) % 10))
            if candidate != text and validator(candidate):
                return candidate
    return None


def _iban(text: str, rng: random.Random, validator: Validator) -> str | None:
    compact = "".join(ch for ch in text if ch.isalnum())
    if len(compact) < 5 or not compact[:2].isalpha():
        return None
    country = compact[:2]
    for _ in range(_TRIES):
        bban = shape.scramble(compact[4:], rng)
        check = std_iban.calc_check_digits(country + "00" + bban)
        new = country + check + bban
        it = iter(new)
        candidate = "".join(next(it) if ch.isalnum() else ch for ch in text)
        if candidate != text and validator(candidate):
            return candidate
    return None
