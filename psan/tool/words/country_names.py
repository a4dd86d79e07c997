"""Every country's name in a language, from the Unicode CLDR (Babel) and ISO 3166 (pycountry's iso-codes).

Why: a gazetteer that knows only some countries misses the rest in a language whose NER is weak on places
("Peru", "Storbritannien" in Swedish), and a hand-made list is never complete nor kept up to date.  CLDR
(through Babel, already needed by the web app's translations) gives each country's common name in each
language ("Storbritannien", "USA"), ISO 3166's translations in Debian's iso-codes (through pycountry) its
short and official names ("Förenade kungariket", "Amerikas förenta stater").  Only countries (two-letter
codes), not continents or CLDR's numeric regions.  Either package missing: its names are left out.
"""
from __future__ import annotations

import gettext
import importlib.util
from functools import cache

__all__ = ["country_names", "subdivision_names"]


#: CLDR's two-letter territory codes that name no country (the EU, the euro area, the UN, pseudo-locales)
NOT_COUNTRIES = frozenset({"EU", "EZ", "UN", "QO", "XA", "XB", "ZZ"})


def _cldr(language: str) -> set[str]:
    if importlib.util.find_spec("babel") is None:
        return set()
    from babel import Locale, UnknownLocaleError
    try:
        territories = Locale.parse(language).territories
    except (UnknownLocaleError, ValueError):
        return set()
    return {name for code, name in territories.items()
            if len(code) == 2 and code.isalpha() and code not in NOT_COUNTRIES}


def _iso(language: str) -> set[str]:
    if importlib.util.find_spec("pycountry") is None:
        return set()
    import pycountry
    try:
        translation = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[language])
    except OSError:
        if language != "en":
            return set()
        translation = gettext.NullTranslations()  # English is the catalogue's own language
    names: set[str] = set()
    for country in pycountry.countries:
        for attribute in ("name", "common_name", "official_name"):
            value = getattr(country, attribute, None)
            if value:
                names.add(translation.gettext(value))
    return names


@cache
def country_names(language: str) -> frozenset[str]:
    """The names of every country in ``language`` (an ISO 639-1 code), capitalized, without parentheses or commas
    ("Bolivia, Plurinational State of" and "Korea (Republic of)" are catalogue entries, not names in text)."""
    names = _cldr(language) | _iso(language)
    return frozenset(n.strip() for n in names if n and n[0].isupper() and not any(ch in n for ch in ",()[]"))


#: countries whose subdivisions' ISO 3166-2 names are English names of places
ENGLISH_SPEAKING = ("GB", "IE", "US", "CA", "AU", "NZ")


@cache
def subdivision_names(countries: tuple[str, ...]) -> frozenset[str]:
    """The ISO 3166-2 names of the countries' subdivisions (pycountry): counties, states, and the cities that are
    districts of their own ("Manchester", "Leeds", "Cardiff"), without a catalogue's bracketed other-language name.

    Why: Faker generates English towns instead of listing them, so an English place that is no country had no
    list to be found in, and a NER reading a town as a person ("moved to Manchester") had no second opinion.
    """
    if importlib.util.find_spec("pycountry") is None:
        return frozenset()
    import pycountry
    names: set[str] = set()
    for code in countries:
        for subdivision in pycountry.subdivisions.get(country_code=code) or ():
            name = subdivision.name.split("[", 1)[0].strip()
            if name.endswith(", The"):
                name = name[:-len(", The")]
            if name and name[0].isupper() and not any(ch in name for ch in ",()[]"):
                names.add(name)
    return frozenset(names)
