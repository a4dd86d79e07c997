"""Regnal numbers in a person's name ("Jan Pavel II.", "Karla IV.", "Henry VIII"): a numeral, not a surname.

Why: the name's words are rendered as first names and surnames, so "II" became a surname printed in capitals
("Svetozára Kornela PLCHA.") and "XIV" one a reader sees as invented.  A regnal number is replaced by another
numeral, never the original one (a surrogate never prints the original's words), so the surrogate keeps the
shape of a monarch's or a pope's name.  One letter ("Pavol V.", "Karel I.") stays an initial: read alone it is as
likely an initial as a numeral, and an initial's surrogate is a letter either way.
"""
from __future__ import annotations

import random
import re

__all__ = ["is_regnal", "name_end", "regnal_surrogate"]

#: a Roman numeral from II to XXXIX in upper case (written regnal numbers stay far below that)
_REGNAL = re.compile(r"(?:X{0,3})(?:IX|IV|VI{0,3}|I{0,3})")
#: a regnal number closing a name, with its ordinal dot ("Karla IV.")
_TRAILING = re.compile(rf"\s+({_REGNAL.pattern})\.?\Z")
#: the numerals a surrogate is drawn from: two letters or more (a one-letter one would read as an initial)
_POOL = ("II", "III", "IV", "VI", "VII", "VIII", "IX", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX",
         "XX", "XXI", "XXII", "XXIII")


def is_regnal(word: str, first: bool) -> bool:
    """Whether ``word`` of a person's name is a regnal number: a Roman numeral of two letters or more in capitals,
    never the name's first word ("XI Jinping" in capitals is a surname first)."""
    return not first and len(word) >= 2 and _REGNAL.fullmatch(word) is not None


def regnal_surrogate(word: str, rng: random.Random) -> str:
    """Another regnal number than ``word`` (drawn with ``rng``: the entity's stream keeps it the same everywhere)."""
    return rng.choice([n for n in _POOL if n != word])


def name_end(text: str, start: int, end: int) -> int:
    """Where the name ``text[start:end]`` ends before a regnal number closing it ("Karla IV." → "Karla"): the case
    and gender of the name are read from its words, and the numeral is none (read as a surname, "IV." made the
    mention nominative)."""
    m = _TRAILING.search(text, start, end)
    if m is None or not is_regnal(m.group(1), first=not text[start:m.start()].strip()):
        return end
    return m.start()
