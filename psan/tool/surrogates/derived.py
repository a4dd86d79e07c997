"""Identifiers derived from a person's name follow that person's pseudonym.

Why: ``jane.miller@uni.org`` beside "Jane Miller" is the same person; a random local part
(``wqcgvkfw.clcgtx@…``) tells the reader nothing and a surrogate name beside an unrelated address reads
as two people.  An e-mail address, a user handle or a URL path that spells the person's name (whole, as
initial + surname, joined or separated) is rebuilt from the person's surrogate name
(``anna.novak@…``), the rest of the identifier shaped as before.  Pure: the replacer gives the owners
(original name words and their surrogates) and the random stream.
"""
from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from psan.tool.surrogates import shape

__all__ = ["Owner", "fold", "mentions_owner", "derive"]

_PART_RE = re.compile(r"[^\W\d_]+|\d+|[\W_]+", re.UNICODE)
_MIN_NAME = 3


@dataclass(frozen=True, slots=True)
class Owner:
    """A person: original given names and surname (lemmas) with their surrogates."""

    given: tuple[str, ...]
    surname: str
    surrogate_given: tuple[str, ...]
    surrogate_surname: str


def fold(word: str) -> str:
    """Lower case ASCII, as names are spelled in addresses ("Šťastný" → "stastny")."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _spellings(given: Sequence[str], surname: str) -> list[tuple[str, Callable[[Owner], str]]]:
    """How a name is written in an identifier, longest first, each with how to write the surrogate so."""
    first = fold(given[0]) if given else ""
    last = fold(surname)
    out: list[tuple[str, Callable[[Owner], str]]] = []

    def sg(o: Owner) -> str:
        return fold(o.surrogate_given[0]) if o.surrogate_given else ""

    def ss(o: Owner) -> str:
        return fold(o.surrogate_surname)

    if first and last:
        out += [(first + last, lambda o: sg(o) + ss(o)), (last + first, lambda o: ss(o) + sg(o)),
                (first[0] + last, lambda o: sg(o)[:1] + ss(o)), (last + first[0], lambda o: ss(o) + sg(o)[:1])]
    if last and len(last) >= _MIN_NAME:
        out.append((last, ss))
    if first and len(first) >= _MIN_NAME:
        out.append((first, sg))
    return out


def mentions_owner(text: str, given: Sequence[str], surname: str) -> bool:
    """Does the identifier spell this person's name (a part of at least three letters, or joined forms)?"""
    words = {fold(w) for w in _PART_RE.findall(text) if w[:1].isalpha()}
    return any(spelling in words for spelling, _ in _spellings(given, surname))


def _rebuild(part: str, owner: Owner, rng: random.Random, initials: list[str]) -> str:
    """One alphabetic run of the identifier: a spelling of the name → the surrogate's, an initial → its
    initial, anything else scrambled."""
    low = fold(part)
    for spelling, render in _spellings(owner.given, owner.surname):
        if low == spelling:
            return shape.case_pattern_word(part, render(owner)) if part[:1].isupper() else render(owner)
    if len(low) == 1 and initials:
        letter = initials.pop(0)
        return letter.upper() if part.isupper() else letter
    return shape.scramble(part, rng)


_URL_RE = re.compile(r"\A((?:[a-zA-Z][a-zA-Z0-9+.-]*://)?[^/?#\s]*)(.*)\Z", re.DOTALL)


def derive(text: str, owner: Owner, rng: random.Random, domain_rng: random.Random) -> str:
    """The identifier rebuilt around the owner's surrogate name (the domain or host from ``domain_rng``).

    An address: the local part is rebuilt; a URL ("https://uni.org/~jmiller"): its path is, the scheme
    and host shaped as any URL's; a handle: the whole of it.
    """
    if "@" not in text and ("://" in text or text.casefold().startswith("www.")):
        m = _URL_RE.match(text)
        host, path = (m.group(1), m.group(2)) if m else (text, "")
        return shape.url(host, domain_rng) + _rebuild_run(path, owner, rng)
    local, at, domain = text.rpartition("@")
    if not at or not local:
        local, at, domain = text, "", ""
    rebuilt = _rebuild_run(local, owner, rng)
    if at:
        rebuilt += "@" + shape.email("x@" + domain, domain_rng).partition("@")[2]
    return rebuilt


def _rebuild_run(local: str, owner: Owner, rng: random.Random) -> str:
    """Names spelled in ``local`` → the owner's surrogate spellings; digits and other words shaped."""
    initials = [fold(g)[:1] for g in owner.surrogate_given]
    out = []
    for m in _PART_RE.finditer(local):
        part = m.group()
        if part[:1].isalpha():
            out.append(_rebuild(part, owner, rng, initials))
        elif part[:1].isdigit():
            out.append(shape.digits_random(part, rng))
        else:
            out.append(part)
    return "".join(out)
