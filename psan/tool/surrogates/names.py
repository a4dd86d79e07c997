"""Surrogate name words: which lemma stands in for a name word, and its form in the original's case.

Why: the entity's surrogate is chosen at lemma level (one person = one
surrogate name) and each mention is re-inflected into the original mention's
form: Polish by Morfeusz2 (:mod:`psan.tool.morph.declension.inflect_pl`), Czech/Slovak by declension
rules with a surrogate of the same declension class (:mod:`psan.tool.morph.declension.inflect_cs`),
Swedish/English by keeping a genitive ``-s``.  The pools drawn from are the name lists of
:mod:`psan.tool.morph.namelists`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from psan.tool.morph import wordlist
from psan.tool.morph.declension import declension_for, inflect_cs, inflect_pl
from psan.tool.morph.features import SLOT_OF_CASE
from psan.tool.morph.namelists import pool_sets, pools
from psan.tool.words.names import LOCALES

FIRST, LAST, PLACE = "first", "last", "place"
_PL_ADJ = ("ski", "cki", "dzki", "ska", "cka", "dzka")


@cache
def _faker(language: str) -> Any:
    from faker import Faker
    return Faker(list(LOCALES.get(language, ("en_US",))))


def faker_value(language: str, method: str, seed: int) -> str:
    """One seeded Faker value (cities/streets/companies where the locale has no list)."""
    fake = _faker(language)
    fake.seed_instance(seed)
    return str(getattr(fake, method)())


# ---------------------------------------------------------------- word analysis


@dataclass(frozen=True, slots=True)
class WordForm:
    """What a surrogate word must copy from the original word."""

    lemma: str
    gender: str = ""
    pl: inflect_pl.Interp | None = None
    cs: inflect_cs.Reading | None = None
    genitive: str = ""  # sv/en possessive suffix kept ("s", "'s")


def gender_hint(word: str, language: str, role: str) -> str:
    """'m'/'f' when the lists or the ending tell, else ''."""
    p = pool_sets(language)
    if role == FIRST or role == "":
        if word in p.first_f and word not in p.first_m:
            return "f"
        if word in p.first_m and word not in p.first_f:
            return "m"
    if language in ("cs", "sk") and word.lower().endswith(("ová", "á")):
        return "f"
    if language == "pl" and word.lower().endswith(("ska", "cka", "dzka")):
        return "f"
    return ""


@lru_cache(maxsize=200_000)
def analyse_word(word: str, language: str, role: str, gender: str = "", case: str = "") -> WordForm:
    """Lemma and form information of one (title-cased) original word (cached: a pure function of its arguments).

    ``case``: the mention's analysed case; an unlisted form in another case is not its own lemma ("s
    Lollobrigidou" is Lollobrigida's instrumental, not a nominative "Lollobrigidou")."""
    person = role != PLACE
    if language == "pl" and inflect_pl.available():
        readings = inflect_pl.analyse(word, role)
        if readings and readings[0].lemma[:1].isupper():
            r = readings[0]
            g = "f" if r.gender == "f" else "m" if r.gender.startswith("m") else ""
            return WordForm(r.base, g, pl=r)
        return WordForm(word, gender)
    decl = declension_for(language)
    if decl is not None:
        readings = decl.analyse(word, language, gender, person)
        if readings:
            r = readings[0]
            if case not in ("", "Nom") and not r.known and r.lemma == word:
                slot = SLOT_OF_CASE.get(case, "")
                r = next((x for x in readings if x.slot[:1] == slot and x.lemma != word), r)
            return WordForm(r.lemma, r.gender if r.known or not gender else gender, cs=r)
        return WordForm(word, gender)
    if language in ("sv", "en", "") or language not in ("pl", "cs", "sk", "sl"):
        known = pool_sets(language).known
        if word.endswith("s") and word not in known and word[:-1] in known:
            return WordForm(word[:-1], gender, genitive="s")
    return WordForm(word, gender)


def candidates(language: str, role: str, gender: str, form: WordForm) -> tuple[str, ...]:
    """Surrogate lemma pool for a word: same role and gender; Czech: same declension class first."""
    pool = _role_pool(language, role, gender)
    if language == "pl" and inflect_pl.available() and form.pl is not None:
        pool = _pl_known(language, role, gender) or pool
        adjectival = form.lemma.endswith(_PL_ADJ)
        pool = _pl_adjectival(language, role, gender, adjectival) or pool
    decl = declension_for(language)
    if decl is not None and form.cs is not None:
        g = form.gender or gender or "m"
        cls = decl.word_class(form.lemma, g)
        same = _same_class(language, role, gender, g, cls)
        if len(same) >= MIN_CLASS_POOL:
            return same
        if cls.startswith("a_m") and role == LAST and (same or _same_class(language, role, gender, g, "a_m")):
            # a man's -a surname (Procházka, Koštunica) declines as a woman's does (s Procházkou, s Lollobrigidou): a
            # surrogate of another class would fix a gender its forms leave open, so the -a class is kept however
            # small; not for first names, whose -a class is a handful (Gejza for every James, George and Bill)
            return same or _same_class(language, role, gender, g, "a_m")
        if role != PLACE:  # a rare class (Ester, Miriam): names with the same endings, else any declinable
            alike = _same_endings(language, role, gender, g, _endings(form.lemma, language, g))
            if len(alike) >= MIN_CLASS_POOL:
                return alike
            return _declinable(language, role, gender, g) or same or pool
        return same or pool
    return pool


def _endings(lemma: str, language: str, gender: str) -> tuple[str, str]:
    """The genitive's and instrumental's endings of a name (Novák, Petr → "a", "em"): what a reader sees."""
    decl = declension_for(language) or inflect_cs
    table = decl.decline(lemma, gender or "m", True)
    return table.get("2", "")[-1:], table.get("7", "")[-2:]


@cache
def _same_endings(language: str, role: str, gender: str, form_gender: str, endings: tuple[str, str]) -> tuple[str, ...]:
    """The role's names declining with the same genitive and instrumental endings."""
    return tuple(c for c in _role_pool(language, role, gender) if _endings(c, language, form_gender) == endings)


#: the fewest names a declension class must have to be a surrogate pool of its own (fewer repeat too often;
#: any class renders every case, the analysed case or the original's slot)
MIN_CLASS_POOL = 20


@cache
def _declinable(language: str, role: str, gender: str, form_gender: str) -> tuple[str, ...]:
    """The role's names that decline (no indeclinable class: their case would not show)."""
    decl = declension_for(language) or inflect_cs
    return tuple(c for c in _role_pool(language, role, gender) if decl.word_class(c, form_gender) != "indecl")


# The derived pools below are cached by their (short) defining strings: hashing a pool tuple of
# thousands of names per word would cost as much as the filtering it saves.
@cache
def _role_pool(language: str, role: str, gender: str) -> tuple[str, ...]:
    """The role's surrogate lemmas whose every printed form is a real word (:func:`real_paradigm`)."""
    p = pools(language)
    if role == FIRST:
        if gender not in ("m", "f"):
            return _role_pool(language, role, "m") + _role_pool(language, role, "f")
        pool, g = (p.first_f, "f") if gender == "f" else (p.first_m, "m")
    elif role == LAST:
        if gender not in ("m", "f"):
            return tuple(sorted(set(_role_pool(language, role, "m") + _role_pool(language, role, "f"))))
        pool, g = (p.last_f, "f") if gender == "f" else (p.last_m, "m")
    else:
        return tuple(c for c in pool_sets(language).places
                     if real_paradigm(c, language, PLACE, place_gender(c, language)))
    return tuple(c for c in pool if real_paradigm(c, language, role, g))


def role_pool(language: str, role: str, gender: str) -> tuple[str, ...]:
    """The surrogate lemmas of a role and gender ("" = both), each with a real-word paradigm."""
    return _role_pool(language, role, gender)


def is_real_form(form: str, language: str) -> bool:
    """Whether one printed name word is a word of the language: listed by hunspell, or (Polish) a form
    Morfeusz's dictionary (SGJP, real names with their paradigms) gives a proper-name reading."""
    if wordlist.is_word(form, language):
        return True
    if language == "pl" and inflect_pl.available():
        return any(r.lemma[:1].isupper() for r in inflect_pl.analyse(form))
    return False


def paradigm(lemma: str, language: str, role: str, gender: str) -> tuple[str, ...]:
    """Every singular form a surrogate lemma can be printed in (its declension; Polish: Morfeusz's forms)."""
    if language == "pl" and inflect_pl.available():
        forms = tuple(f for f, _l, tag, _q in inflect_pl._generate(lemma) if tag.startswith("subst:sg"))  # noqa: SLF001
        return forms or (lemma,)
    decl = declension_for(language)
    if decl is None:
        return (lemma,)
    return tuple(dict.fromkeys(decl.decline(lemma, gender or "m", role != PLACE).values())) or (lemma,)


@lru_cache(maxsize=50_000)
def real_paradigm(lemma: str, language: str, role: str, gender: str) -> bool:
    """Whether every form of ``lemma``'s paradigm is a real word (always true without a word list): a
    surrogate lemma that would decline into a non-word ("Kdyněe") is never drawn."""
    if not wordlist.available(language):
        return True
    return all(is_real_form(f, language) for f in paradigm(lemma, language, role, gender))


@cache
def _pl_known(language: str, role: str, gender: str) -> tuple[str, ...]:
    kind = role if role != PLACE else "place"
    return tuple(c for c in _role_pool(language, role, gender) if inflect_pl.known(c, kind))


@cache
def _pl_adjectival(language: str, role: str, gender: str, adjectival: bool) -> tuple[str, ...]:
    pool = _pl_known(language, role, gender) or _role_pool(language, role, gender)
    return tuple(c for c in pool if c.endswith(_PL_ADJ) == adjectival)


@cache
def _same_class(language: str, role: str, gender: str, form_gender: str, cls: str) -> tuple[str, ...]:
    """The pool's lemmas of one declension class (cs, sk, sl; classified once per pool, not per word)."""
    decl = declension_for(language) or inflect_cs
    return tuple(c for c in _role_pool(language, role, gender) if decl.word_class(c, form_gender) == cls)


def realize(lemma: str, form: WordForm, language: str, role: str, gender: str = "", strict: bool = False) -> str | None:
    """The surrogate lemma in the original word's form (``strict``: ``None`` when Morfeusz has no such form)."""
    if form.pl is not None:
        got = inflect_pl.inflect(lemma, form.pl, role if role != PLACE else "place")
        return got if got is not None or strict else lemma
    if form.cs is not None:
        decl = declension_for(language) or inflect_cs
        return decl.inflect(lemma, form.cs.slot, form.gender or gender or "m", role != PLACE)
    if form.genitive:
        return lemma if lemma.endswith(("s", "x", "z")) else lemma + form.genitive
    return lemma


# ---------------------------------------------------------------- places in a case (psan.tool.morph)

#: plural place paradigms by lemma ending: ending → the forms' endings by UD case (Teplice, Michalovce)
_PLURAL_PLACES: dict[str, tuple[str, dict[str, str]]] = {
    "cs": ("ice", {"Nom": "ice", "Gen": "ic", "Dat": "icím", "Acc": "ice", "Voc": "ice", "Loc": "icích",
                   "Ins": "icemi"}),
    "sk": ("ovce", {"Nom": "ovce", "Gen": "oviec", "Dat": "ovciam", "Acc": "ovce", "Loc": "ovciach",
                    "Ins": "ovcami"}),
    "sl": ("ice", {"Nom": "ice", "Gen": "ic", "Dat": "icam", "Acc": "ice", "Loc": "icah", "Ins": "icami"}),
}
#: further plural place paradigms (Slovak Piešťany, Topoľčany: few -ovce places are in the word list)
_MORE_PLURAL_PLACES: dict[str, tuple[tuple[str, dict[str, str]], ...]] = {
    "sk": (("any", {"Nom": "any", "Gen": "an", "Dat": "anom", "Acc": "any", "Loc": "anoch", "Ins": "anmi"}),),
}


def _plural_paradigms(language: str) -> tuple[tuple[str, dict[str, str]], ...]:
    first = _PLURAL_PLACES.get(language)
    return ((first,) if first else ()) + _MORE_PLURAL_PLACES.get(language, ())


def plural_place(lemma: str, case: str, language: str) -> str | None:
    """A plural place name (Teplice, Michalovce) in ``case`` (``None`` for another kind of lemma)."""
    for end, forms in _plural_paradigms(language):
        if lemma.endswith(end) and case in forms:
            return lemma[: -len(end)] + forms[case]
    return None


#: family plurals of a masculine surname by UD case, added to its oblique stem (Novák → Novákovi, Novákových)
_FAMILY_PLURALS = {
    "cs": {"Nom": "ovi", "Gen": "ových", "Dat": "ovým", "Acc": "ovy", "Voc": "ovi", "Loc": "ových", "Ins": "ovými"},
    "sk": {"Nom": "ovci", "Gen": "ovcov", "Dat": "ovcom", "Acc": "ovcov", "Loc": "ovcoch", "Ins": "ovcami"},
    "sl": {"Nom": "ovi", "Gen": "ovih", "Dat": "ovim", "Acc": "ove", "Loc": "ovih", "Ins": "ovimi"},
}


def plural_person(lemma: str, case: str, language: str) -> str | None:
    """A masculine surname as a family plural in ``case`` (``None`` where the language or lemma has none)."""
    endings = _FAMILY_PLURALS.get(language)
    decl = declension_for(language)
    if not endings or decl is None or case not in endings or lemma.endswith(("ý", "í", "á")):
        return None
    genitive = decl.decline(lemma, "m", True).get("2", "")
    if not genitive.endswith(("a", "y", "u", "e")):  # Novák/Nováka, Kadlec/Kadlce → Novákovi, Kadlcovi
        return None
    return genitive[:-1] + endings[case]


@cache
def _family_plurals(language: str) -> frozenset[str]:
    endings = _FAMILY_PLURALS.get(language, {})
    return frozenset(f for lemma in _role_pool(language, LAST, "m") + _role_pool(language, FIRST, "m")
                     for case in endings if (f := plural_person(lemma, case, language)))


def is_family_plural(form: str, language: str) -> bool:
    """Whether ``form`` is a family plural of a surrogate name with a real-word paradigm ("Novákovci"): a
    regular derivation the word lists do not list."""
    return form in _family_plurals(language)


@cache
def family_plural_pool(language: str, role: str, gender: str) -> tuple[str, ...]:
    """The role's names that have a family plural (:func:`plural_person`): surrogates of a plural mention."""
    return tuple(c for c in _role_pool(language, role, gender or "m") if plural_person(c, "Nom", language))


def place_gender(lemma: str, language: str) -> str:
    """'m'/'f' a place lemma declines by (known gender, else by its ending)."""
    from psan.tool.morph.namelists import known_genders
    g = known_genders(language).get(lemma)
    return g or ("f" if lemma.endswith("a") else "m")


@cache
def declinable_places(language: str, plural: bool) -> tuple[str, ...]:
    """Single-word places of ``language`` that decline regularly: singular ones, or plural ones (Teplice)."""
    places = pool_sets(language).places
    if language == "pl":
        if not inflect_pl.available():
            return ()
        out = []
        for c in places:
            readings = [i for i in inflect_pl.analyse(c, "place") if i.base == c and "nazwa_geograficzna" in i.quals]
            if not readings:
                continue
            numbers = {n for i in readings for n, _c in i.forms}
            if (numbers == {"pl"}) == plural and all(is_real_form(f, language) for f, _l, _t, _q
                                                     in inflect_pl._generate(c)):  # noqa: SLF001
                out.append(c)
        return tuple(out)
    decl = declension_for(language)
    if decl is None:
        return ()
    paradigms = _plural_paradigms(language)
    if plural:
        return tuple(c for c in places if any(c.endswith(end) and (not wordlist.available(language) or all(
            is_real_form(plural_place(c, k, language) or c, language) for k in forms)) for end, forms in paradigms))
    end = paradigms[0][0] if paradigms else ""
    places = _role_pool(language, PLACE, "")
    return tuple(c for c in places if not (end and c.endswith(end)) and not c.endswith(("y", "i", "any"))
                 and decl.word_class(c, place_gender(c, language)) not in ("indecl", "i_adj", "y_adj", "a_adj"))


@cache
def agreement_gender(lemma: str, language: str) -> str:
    """'m'/'f'/'n': the gender the words agreeing with a place take ("zastoupeno Polsko", "sousední Brno"); a
    place in -o is neuter, though it declines by a paradigm :func:`place_gender` files under 'm'."""
    return "n" if lemma.endswith("o") else place_gender(lemma, language)


@cache
def declinable_places_of_gender(language: str, gender: str) -> tuple[str, ...]:
    """The singular declinable places of one gender ('m'/'f'/'n'): a place agrees with the original's adjectives
    and participles, so its surrogate takes the same gender."""
    return tuple(c for c in declinable_places(language, False) if agreement_gender(c, language) == gender)


def draw(rng: random.Random, pool: tuple[str, ...]) -> str | None:
    return rng.choice(pool) if pool else None
