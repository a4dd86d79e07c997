"""Phone-number surrogates that are still phone numbers of a real country.

Why: replacing every digit turns "+420 603 123 456" into "+917 …", a calling code of no country
(or of another continent), which looks fake and breaks tools that parse numbers.  The calling
code is kept (the original's when it is a valid one, else the project's country's), the rest
of the digits are drawn again, keeping the layout, and a draw that the ``phonenumbers`` library
accepts as a valid number of that country is preferred.
"""
from __future__ import annotations

import random
import re

import phonenumbers

#: the country a project's language stands for (numbers written without a calling code)
REGIONS = {"cs": "CZ", "sk": "SK", "pl": "PL", "sv": "SE", "sl": "SI", "en": "GB", "de": "DE"}
_TRIES = 80
_INTERNATIONAL = re.compile(r"^\s*\(?\s*(\+|00)")


def region_of(language: str) -> str:
    return REGIONS.get((language or "").lower()[:2], "GB")


def calling_code_length(digits: str) -> int | None:
    """Length of the valid calling code ``digits`` starts with (codes are prefix-free), else ``None``."""
    for n in (1, 2, 3):
        if len(digits) > n and phonenumbers.region_code_for_country_code(int(digits[:n])) != "ZZ":
            return n
    return None


def _fill(original: str, digits: str, skip: int = 0) -> str:
    """Write ``digits`` into the digit positions of ``original`` after its first ``skip`` digits."""
    it = iter(digits)
    out, seen = [], 0
    for ch in original:
        if ch.isdigit():
            seen += 1
            out.append(ch if seen <= skip else next(it))
        else:
            out.append(ch)
    return "".join(out)


def _valid(number: str, region: str | None) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(number, region))
    except phonenumbers.NumberParseException:
        return False


def _draw(keep: str, count: int, rng: random.Random) -> str:
    """``keep`` (the first national digits, so a mobile stays a mobile) then random digits, ``count`` in all."""
    return keep + "".join(str(rng.randint(0, 9)) for _ in range(count - len(keep)))


def phone(original: str, language: str, rng: random.Random) -> str:
    """A surrogate of ``original``: same layout and calling code, other subscriber digits."""
    digits = "".join(ch for ch in original if ch.isdigit())
    prefix = _INTERNATIONAL.match(original)
    if prefix is not None:
        skip = 2 if prefix.group(1) == "00" else 0  # the 00 stays as written
        international = digits[skip:]
        code_len = calling_code_length(international)
        if code_len is not None:
            code = international[:code_len]
        else:  # no country has this code: use the project's country's
            code = str(phonenumbers.country_code_for_region(region_of(language)))[:max(len(international) - 1, 1)]
            code_len = len(code)
        rest = len(international) - code_len
        keep = international[code_len:code_len + (2 if rest > 6 else 1)] if rest > 4 else ""
        candidate = original
        for _ in range(_TRIES):
            national = _draw(keep, rest, rng)
            candidate = _fill(original, code + national, skip)
            if _valid("+" + code + national, None):
                return candidate
        return candidate
    region = region_of(language)
    keep = digits[:3] if digits.startswith("0") else digits[:2]  # trunk prefix (UK 0…) and the area/mobile prefix
    candidate = original
    for _ in range(_TRIES):
        candidate = _fill(original, _draw(keep, len(digits), rng))
        if _valid(candidate, region):
            return candidate
    return candidate
