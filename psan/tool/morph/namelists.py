"""The lists of names and places: surrogate pools, the known lemmas' genders, the words kept in a name.

Why one module: the declension (:mod:`psan.tool.morph.declension`) needs the known lemmas and their genders,
the analysis (:mod:`psan.tool.morph.analysis`) the known places and the words that are no name
(:data:`KEEP_WORDS`), the surrogates (:mod:`psan.tool.surrogates.names`) the pools they draw from; all are
built here, once per language, from Faker's lists (:func:`psan.tool.words.names.name_lists`).
Pools are sorted lists so a draw depends only on the seeded stream, never on set iteration order.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from psan.tool.words.names import LOCALES, name_lists

#: honorifics and particles kept as they are inside a person region
KEEP_WORDS = frozenset({
    "mr", "mrs", "ms", "miss", "dr", "prof", "sir", "lord", "lady", "judge", "pan", "paní", "pani", "pán", "slečna",
    "ing", "mgr", "bc", "phdr", "mudr", "judr", "rndr", "doc", "herr", "fru", "fröken", "von", "van", "de", "der",
    "den", "la", "le", "di", "da", "del", "dos", "bin", "ibn", "al", "jr", "sr",
})
#: kept honorifics a surrogate writes in a shorter form of the same meaning: a surrogate never repeats a word of
#: three letters or more of its original, so "Mrs Anna Christou" could only become a tag; "Ms Lorraine Stanton"
#: keeps the form
HONORIFIC_STANDINS = {"mrs": "ms", "miss": "ms"}
#: kept name particles of three letters or more: the surrogate leaves them out ("Carl Friedrich von Siemens" →
#: "Piotr Oliwier Wolski"), for it may not repeat them and a person with one was left a tag
DROPPED_PARTICLES = frozenset({"von", "van", "der", "den", "del", "dos", "bin", "ibn"})


@dataclass(frozen=True, slots=True)
class Pools:
    first_m: tuple[str, ...]
    first_f: tuple[str, ...]
    last_m: tuple[str, ...]
    last_f: tuple[str, ...]
    last: tuple[str, ...]
    cities: tuple[str, ...]
    streets: tuple[str, ...]
    countries: tuple[str, ...]


def _single(values: Any) -> tuple[str, ...]:
    return tuple(sorted(v for v in values if v and " " not in v and "-" not in v and v.isalpha()))


@cache
def pools(language: str) -> Pools:
    """Sorted single-word name pools (surrogate lemmas) and place lists for ``language`` (English fallback)."""
    lists = name_lists(language if language in LOCALES else "en")
    cities = tuple(sorted(lists.cities or lists.regions))
    countries: set[str] = set()
    for locale in LOCALES.get(language, ("en_US",)):
        provider = importlib.import_module(f"faker.providers.address.{locale}").Provider
        countries.update(str(c) for c in getattr(provider, "countries", ()) or ())
    if not countries:
        countries.update(importlib.import_module("faker.providers.address.en_US").Provider.countries)
    last_m = _single(lists.last_names_male) or _single(lists.last_names)
    last_f = _single(lists.last_names_female) or _single(lists.last_names)
    # a first name on both gender lists (Faker's sv_SE female list holds "Ahmed", "Mohammed" …) cannot carry a gender
    both = lists.first_names_male & lists.first_names_female
    return Pools(_single(lists.first_names_male - both), _single(lists.first_names_female - both), last_m, last_f,
                 _single(lists.last_names), cities, tuple(sorted(lists.streets)), tuple(sorted(countries)))


@dataclass(frozen=True, slots=True)
class PoolSets:
    """Membership sets of a language's pools, built once (a tuple scan per word was half of a ZIP export)."""

    first_m: frozenset[str]
    first_f: frozenset[str]
    known: frozenset[str]  # first names, last names and cities: lemmas a genitive ``-s`` may be cut to
    places: tuple[str, ...]  # single-word cities, the place surrogate pool


@cache
def pool_sets(language: str) -> PoolSets:
    """The membership sets of :func:`pools` for ``language`` (cached per process)."""
    p = pools(language)
    return PoolSets(frozenset(p.first_m), frozenset(p.first_f),
                    frozenset(p.first_m) | frozenset(p.first_f) | frozenset(p.last) | frozenset(p.cities),
                    tuple(c for c in p.cities if " " not in c))


@cache
def cities_of_length(language: str, words: int) -> tuple[str, ...]:
    """Cities of ``words`` words (cached: filtered once per process, not per replaced word)."""
    return tuple(c for c in pools(language).cities if len(c.split()) == words)


@cache
def streets_of_length(language: str, words: int) -> tuple[str, ...]:
    """Streets of ``words`` words (cached like :func:`cities_of_length`)."""
    return tuple(s for s in pools(language).streets if len(s.split()) == words)


@cache
def single_word_places(language: str) -> tuple[str, ...]:
    """Single-word cities and streets: surrogate words inside an address."""
    p = pools(language)
    return tuple(c for c in p.cities + p.streets if " " not in c)


@cache
def known_genders(language: str, countries: bool = True) -> dict[str, str]:
    """Known lemma → gender ('m'/'f') from the language's name and place lists (``countries``: with the
    countries; the Czech analyser's readings were measured without them)."""
    lists = name_lists(language)
    genders: dict[str, str] = {}
    for name in lists.first_names_male | lists.last_names_male:
        genders[name] = "m"
    for name in lists.first_names_female | lists.last_names_female:
        genders.setdefault(name, "f")
    for name in lists.last_names:
        genders.setdefault(name, "f" if name.endswith(("á", "ová")) else "m")
    for name in lists.cities | (lists.countries if countries else set()):
        if " " not in name:
            genders.setdefault(name, "f" if name.endswith("a") else "m")
    return genders
