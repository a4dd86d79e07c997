"""Faker's proper-name lists of each language: first names by gender, surnames, cities, streets, regions
and countries (base forms).

Why here, below the recognizers and the morphology: the gazetteer recognizes names from these lists, the
morphology declines them and the surrogates draw from them; none of the three should import another for them.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from psan.tool.words.country_names import ENGLISH_SPEAKING, country_names, subdivision_names

LOCALES: dict[str, tuple[str, ...]] = {
    "cs": ("cs_CZ",), "sk": ("sk_SK",), "pl": ("pl_PL",), "sv": ("sv_SE",), "sl": ("sl_SI",),
    "en": ("en_GB", "en_US"),
}


@dataclass(frozen=True, slots=True)
class NameLists:
    """Proper-name lists of one language (base forms only), e.g. for drawing surrogates."""

    language: str
    first_names_male: frozenset[str]
    first_names_female: frozenset[str]
    last_names: frozenset[str]
    last_names_male: frozenset[str]
    last_names_female: frozenset[str]
    cities: frozenset[str]
    streets: frozenset[str]
    regions: frozenset[str]
    countries: frozenset[str] = frozenset()
    #: English: the ISO 3166-2 subdivisions of English-speaking countries (places to recognize, not to draw from)
    districts: frozenset[str] = frozenset()


#: languages whose gazetteer also looks up country names (in the language, with case forms): every language,
#: the names of every country (:func:`psan.tool.words.country_names.country_names`, besides Faker's list)
COUNTRY_LANGUAGES = frozenset({"cs", "sk", "sl", "pl", "sv", "en"})


def provider_names(cls: type, *names: str) -> list[str]:
    """The capitalized entries without digits of a Faker provider's lists ``names`` (an OrderedDict gives its keys).

    Why ``isalpha`` first: no digit is a letter, so an all-letter name (nearly all of them) needs no walk
    over its characters; :func:`_first_names_of_all_locales` filters some 10^5 entries at first use.
    """
    values: list[str] = []
    for name in names:
        value = getattr(cls, name, None)
        if value:
            values.extend(map(str, value))  # OrderedDict → keys
    return [v for v in values if v and v[0].isupper() and (v.isalpha() or not any(map(str.isdigit, v)))]


def _feminine_pl(surname: str) -> str:
    for male, female in (("ski", "ska"), ("cki", "cka"), ("dzki", "dzka")):
        if surname.endswith(male):
            return surname[: -len(male)] + female
    return surname


@cache
def name_lists(language: str) -> NameLists:
    """Faker's lists for ``language`` (``cs``, ``sk``, ``pl``, ``sv``, ``sl``, ``en``); empty for others."""
    fm: set[str] = set()
    ff: set[str] = set()
    lm: set[str] = set()
    lf: set[str] = set()
    last: set[str] = set()
    cities: set[str] = set()
    streets: set[str] = set()
    regions: set[str] = set()
    countries: set[str] = set()
    for locale in LOCALES.get(language, ()):
        person = importlib.import_module(f"faker.providers.person.{locale}").Provider
        address = importlib.import_module(f"faker.providers.address.{locale}").Provider
        fm.update(provider_names(person, "first_names_male"))
        ff.update(provider_names(person, "first_names_female"))
        lm.update(provider_names(person, "last_names_male", "male_last_names"))
        lf.update(provider_names(person, "last_names_female", "female_last_names"))
        last.update(provider_names(person, "last_names", "unisex_last_names"))
        cities.update(provider_names(address, "cities"))
        streets.update(provider_names(address, "streets"))
        regions.update(provider_names(address, "states", "regions"))
        if language in COUNTRY_LANGUAGES:
            countries.update(provider_names(address, "countries"))
    if language == "pl":
        lf.update(_feminine_pl(s) for s in lm)
        last.discard("Doe")
    last.update(lm, lf)
    districts: frozenset[str] = frozenset()
    if language == "en":  # Faker has no English towns; the districts and counties of ISO 3166-2, no listed name
        districts = frozenset(n for n in subdivision_names(ENGLISH_SPEAKING)
                              if n not in fm and n not in ff and n not in last)
    if language in COUNTRY_LANGUAGES:
        # a country that is also a listed name ("Jordan", "Chad") stays a name: the person lists decide
        countries.update(country_names(language))
        countries = {n for n in countries if n not in fm and n not in ff and n not in last}
    return NameLists(language, frozenset(fm), frozenset(ff), frozenset(last), frozenset(lm), frozenset(lf),
                     frozenset(cities), frozenset(streets), frozenset(regions), frozenset(countries), districts)
