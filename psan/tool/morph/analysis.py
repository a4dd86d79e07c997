"""Case, gender, number and animacy of each replaced mention, from the tagger, the context and paradigms.

Why combined: a tagger trained on general text sees few names, suffix paradigms alone cannot tell
"Jana" (Jana, nominative) from "Jana" (Jan, genitive), and a preposition fixes the case but not the
gender.  Each mention's last name word gets a score for every (case, number, gender):

* **paradigms** — readings of the word by the language's name declension (:mod:`psan.tool.surrogates`
  ``inflect_cs``/``lang_sk``/``lang_sl``; Polish: Morfeusz2); a reading of a listed name counts more
  than one of a guessed lemma, an indeclinable reading allows every case;
* **context** — the governing preposition before the name (:mod:`.context`), a title ("panem",
  "paní", "Mr"), locatives only after a preposition;
* **tagger** — the UDPipe tagger's case, number and gender of the word in its sentence (:mod:`.tagger`,
  absent → rules only);
* **the entity** — all mentions of one person share a gender: titles, the -ová/-á surname forms, the
  first-name lists and the mentions' own best readings vote;
* **the other name words** — first name and surname stand in the same case and gender.

Organisations (kind ``other``) are analysed like places, by their word's inanimate paradigms and the context.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from psan.tool.morph import context, namecase, tagger, valency, wordlist
from psan.tool.morph.features import CASE_OF_SLOT, CASES, PL_CASE, PL_NUMBER, Features

if TYPE_CHECKING:
    from psan.tool.morph.declension.inflect_cs import Reading

PERSON, PLACE, OTHER = "person", "place", "other"
_TOKEN = re.compile(r"\w+|[^\w\s]")
_ALPHA = re.compile(r"[^\W\d_]+")
_CONTEXT = 4  # words before a name given to the tagger (its features see two words around)
#: marks before a name that are no words of the sentence ("podle fyziologa * Cannona", "† Novák")
_MARKS = frozenset({"*", "†", "✝", "✞"})
_SENTENCE_END = re.compile(r"[.!?]+\s+(?=[\"„“(]?[^\W\d_])")
_PRIOR = {"Nom": 0.3, "Gen": 0.2, "Acc": 0.1, "Loc": 0.1, "Ins": 0.1, "Dat": 0.05, "Voc": -1.0}
_GENDERS = ("Masc", "Fem", "Neut")
_NUMBERS = ("Sing", "Plur")
Key = tuple[str, str, str]  # (case, number, gender)
#: feminine diminutive suffixes of first names (Drahuška, Žofinka, Vendulka): an -a name that is a woman's
_DIMINUTIVES = ("inka", "uška", "ička", "enka", "ečka", "ulka", "unka", "ulinka")
#: endings of women's surname forms (cs/sk -ová in every case)
_WOMENS = ("ová", "ové", "ovou", "ovej", "ovú")
#: endings of oblique forms: a guessed lemma equal to such a form is an unlikely nominative
_OBLIQUE = ("ovi", "em", "ou", "ého", "ému", "ým", "ím", "ách", "ech", "ích", "ami", "ům", "ej", "om", "ovej", "mi",
            "yho", "iho", "ymu", "imu", "ě", "ií", "iou", "ách", "ov")
#: … and of a person's name (places keep them: Baku, Peru)
_OBLIQUE_PERSON = ("u",)


@dataclass(frozen=True, slots=True)
class Mention:
    """A replaced region: offsets, what it names (person/place/other) and its entity key."""

    start: int
    end: int
    kind: str
    entity: str = ""


#: prepositions "in" that take a place in the locative only: their accusative ("věřit v", "v pátek") never
#: governs a place, so an undeclined foreign place after them ("V Cannes") stands in the locative
_IN_LOCATIVE = {"cs": frozenset({"v", "ve"}), "sk": frozenset({"v", "vo"}), "sl": frozenset({"v"})}


@dataclass(slots=True)
class Evidence:
    """What a mention's form and context say about its case, number and gender (the readers below fill it)."""

    readings: list[dict[Key, float]]  # per name word (last word last): supported keys → weight
    prep: tuple[str, ...]
    title_gender: str
    title_cases: tuple[str, ...]
    tagged: dict[str, str] | None
    #: tagger features of an agreeing word right before the name (adjective, determiner, title noun)
    agreeing: dict[str, str] | None = None
    #: the name follows an abbreviation or a common noun with no preposition ("JZD Ráby", "okrese Pardubice")
    apposition: bool = False
    #: the name follows a common noun: a possessive genitive or a nominative apposition
    after_noun: bool = False
    #: the cases the noun before the name can stand in (an apposition agrees with it)
    noun_cases: tuple[str, ...] = ()
    #: the name follows a verb: an object (accusative) rather than a possessor
    after_verb: bool = False
    #: the name is set off at the start of a sentence and closed by "," "!" or "?" ("Franto, povídám", "Láďo?")
    vocative: bool = False
    #: the gender of a past participle next to the name ("pravila Drahuš"): the name's, if it is the subject
    subject_gender: str = ""
    #: … and its number
    subject_number: str = ""
    #: the verb before the name has its subject before it ("Bush kritizoval Irán"): the name is its object
    subject_before: bool = False
    #: the cases the name's dependency relation allows (subject → Nom, object → Acc, …; the parser's)
    syntax: tuple[str, ...] = ()
    #: the number of the verb the name is the subject of (the parser's)
    syntax_number: str = ""
    #: the name follows a passive participle it cannot agree with ("vedená Nerovským"): its agent, instrumental
    agent: bool = False
    #: the preposition's first case is the one the treebanks give it after the word before it ("zájem o" + Acc)
    by_valency: bool = False
    #: the name follows a verb: (number, gender) of a reading → the share of each case of a noun of that
    #: number and gender after that verb in the treebanks (:func:`valency.verb_cases`; empty without a table)
    verb_cases: dict[tuple[str, str], dict[str, float]] | None = None
    #: a verb follows the name (Polish, no tagger): a man's genitive = accusative form is rather its object
    before_verb: bool = False
    #: a verb form by the dictionary precedes the name (no tagger): the same
    object_of_verb: bool = False
    #: the tagged case of a place noun before the name ("rieku Araxes"): a form that has it agrees
    place_noun_case: str = ""
    #: the learned reader's probabilities of the name's case, number and gender (:mod:`.namecase`)
    learned: dict[str, dict[str, float]] | None = None


def _gender_ud(g: str) -> str:
    return "Masc" if g.startswith("m") else "Fem" if g == "f" else "Neut" if g == "n" else ""


def _declension_readings(word: str, language: str, person: bool) -> dict[Key, float]:
    """(case, number, gender) → weight of a word's readings by the language's declension rules: the singular
    readings of its paradigms, weighed by how plausible each is for a person's or a place's name, then the
    plural readings its ending allows."""
    from psan.tool.morph.declension import declension_for
    decl = declension_for(language)
    out: dict[Key, float] = {}
    if decl is None:
        return out
    for r in decl.analyse(word, language, "", person)[:12]:
        weight = _reading_weight(r, word, language, person)
        if weight is not None:
            _add_singular_reading(out, decl, r, weight, person)
    _add_plural_readings(out, word, language, person)
    return out


#: languages whose dictionary gives the stems of place names' forms thoroughly enough to doubt a guessed lemma it
#: lacks (the Slovak one misses readings: "Bielorusku", "Petra"; ner_eval/results/inflection.md)
_THOROUGH_STEMS = frozenset({"cs"})


def _not_the_dictionarys_lemma(lemma: str, word: str, language: str) -> bool:
    """Whether the dictionary knows a capitalized word as a form of names ("Morava" → Morava, "Evropu" → Evropa)
    and a guessed lemma is none of them ("Morav", "Evrop"; the word itself, "Evropu": then it is no nominative of its
    own): then that reading is hardly the word's."""
    found = wordlist.stems(word, language)
    return bool(found) and lemma not in found and any(s[:1].isupper() for s in found)


def _implausible_reading(r: Reading, word: str, language: str, person: bool) -> bool:
    """Whether a paradigm's reading cannot be the name's: a man's reading of a woman's -ová/-á name, a place's
    masculine reading in -a, a Slovak place guessed as an -io neuter."""
    low = r.lemma.casefold()
    if person:
        # -ová/-á names are women's (Tománkovou, Novákovej)
        return r.gender != "f" and (low.endswith(("ová", "á")) or word.casefold().endswith(_WOMENS))
    # a place in -a declines as a feminine (its masculine reading would dodge the weights below);
    # "Námestie" is no locative of a guessed "Námestio" (an -io neuter's locative ends in -iu)
    return (r.gender == "m" and low.endswith("a")) or (not r.known and language == "sk" and low.endswith("io"))


def _reading_weight(r: Reading, word: str, language: str, person: bool) -> float | None:
    """How much a paradigm's reading is worth (a listed name's twice a guess), ``None`` for an implausible
    one: a guessed lemma equal to an oblique-looking or plural-looking word is hardly its nominative, and so is
    a place's word the dictionary knows as a form of another name only."""
    if _implausible_reading(r, word, language, person):
        return None
    weight = 2.0 if r.known else 1.0
    if not r.known and r.lemma == word and (word.casefold().endswith(_OBLIQUE)
                                            or person and word.casefold().endswith(_OBLIQUE_PERSON)):
        weight = 0.3  # "Kippenbergerovi" is hardly a nominative
    elif person and not r.known and r.lemma == word and r.gender != "f" \
            and word.casefold().endswith(_PLURAL_NOMINATIVES.get(language, ())):
        weight = 0.3  # "Moskovčania", "Nemci", "Novákové": a man's nominative singular hardly ends so
    elif not person and not r.known and (r.lemma == word or language in _THOROUGH_STEMS) \
            and _not_the_dictionarys_lemma(r.lemma, word, language):
        # "Evropu" is the dictionary's form of Evropa, hardly a place "Evropu" (every language); nor, where the
        # dictionary's stems are thorough, a form of a guessed "Evrop" or "Morav" it lacks
        weight = 0.3
    return _person_weight(r, weight, language) if person else _place_weight(r, weight)


def _person_weight(r: Reading, weight: float, language: str = "") -> float:
    """A guessed feminine reading of a person: a diminutive is as good as a listed name, another -a word
    is rather a man's surname or an oblique form, unless the dictionary declines it as a woman's name (and a
    man's reading of a word it declines as a woman's only counts half)."""
    low = r.lemma.casefold()
    if r.known:
        return weight
    if r.gender == "f" and low.endswith(_DIMINUTIVES):
        return 2.0  # a feminine diminutive (Drahuška) is as good as a listed woman's name
    if r.gender == "f" and not low.endswith(("ová", "á", "ie", "ia")):
        genders = wordlist.name_genders(r.lemma, language)
        if genders == {"Fem"}:
            return 2.0  # the dictionary's woman's name only ("Diana", "Erika"): as good as a listed one
        # both ("Magda", "Jirka") as likely as the man's; unlisted: rather a man's surname (Koštunica) or an
        # oblique form (Clintona)
        return weight if "Fem" in genders else weight * 0.5
    if low.endswith("a") and wordlist.name_genders(r.lemma, language) == {"Fem"}:
        return weight * 0.5  # "Diana" is no man's -a name
    return weight


def _place_weight(r: Reading, weight: float) -> float:
    """A guessed place in -sko is a neuter country (its -ska is the genitive), a feminine -ska less likely."""
    if r.known:
        return weight
    low = r.lemma.casefold()
    if low.endswith(("sko", "cko")):
        return 1.5  # Slovensko, Poľsko, Uhorsko: "Uhorska" is their genitive
    if low.endswith(("ska", "cka")) and r.gender == "f":
        return 0.7
    return weight


def _add_singular_reading(out: dict[Key, float], decl: Any, r: Reading, weight: float, person: bool) -> None:
    """Put a reading's singular case (every case for an indeclinable word, weaker) into ``out``, keeping the
    best weight per key; a place of the -o class is neuter."""
    g = r.gender
    if not person and decl.word_class(r.lemma, g) == "o":
        g = "n"
    table = decl.decline(r.lemma, r.gender, person)
    cases = CASES if len(table) == 1 else (CASE_OF_SLOT.get(r.slot[:1], ""),)
    if len(table) == 1:  # indeclinable: any case, but a listed name's reading only says much
        weight *= 0.5 if r.known else 0.1
    for c in cases:
        key = (c, "Sing", _gender_ud(g))
        out[key] = max(out.get(key, 0.0), weight)


def _add_plural_readings(out: dict[Key, float], word: str, language: str, person: bool) -> None:
    """Put the plural readings a word's ending allows into ``out``: a family or nation for a person,
    a plural place (and a Slovak neuter region in -ie, which the paradigms miss) for a place."""
    if person:
        for c, w in plural_person_cases(word, language).items():
            key = (c, "Plur", "Masc")
            out[key] = max(out.get(key, 0.0), w)
        return
    if language == "sk" and word.casefold().endswith("ie") and len(word) > 4:
        for c in ("Nom", "Acc"):  # Slovak neuter regions in -ie (Záhorie, Považie): the paradigms have only Ázie
            key = (c, "Sing", "Neut")  # (weaker: the genitive of an -ia country, Británie, is the commoner)
            out[key] = max(out.get(key, 0.0), 0.7)
    for c, w in plural_place_cases(word, language).items():
        key = (c, "Plur", "Fem")
        out[key] = max(out.get(key, 0.0), w)
    for c in known_plural_place_cases(word, language):
        out[(c, "Plur", "Fem")] = 2.5  # a listed plural place (Poděbrady → "do Poděbrad")


#: endings of masculine plural nominatives (nations, families) that a man's singular name hardly has
_PLURAL_NOMINATIVES = {"cs": ("ové", "ané"), "sk": ("ania", "ovia", "ci", "ovci")}

#: plural endings of masculine names (families, nations): ending → (case, weight)
_PLURAL_PERSON = {
    "cs": (("ové", "Nom", 1.5), ("ových", "Gen", 1.5), ("ovým", "Dat", 1.5), ("ovými", "Ins", 1.5), ("ům", "Dat", 1.0),
           ("ů", "Gen", 1.0), ("ech", "Loc", 0.8), ("ané", "Nom", 1.0), ("ci", "Nom", 0.8), ("ři", "Nom", 0.8),
           ("ši", "Nom", 0.8), ("ovi", "Nom", 0.3)),
    "sk": (("ovci", "Nom", 1.5), ("ovcov", "Gen", 1.5), ("ovcom", "Dat", 1.5), ("ovcami", "Ins", 1.5),
           ("čanov", "Gen", 1.5), ("čanom", "Dat", 1.5), ("čanmi", "Ins", 1.5),  # Iračanov, Palestínčanom
           ("ovia", "Nom", 1.5), ("ania", "Nom", 1.5), ("ci", "Nom", 1.0), ("ov", "Gen", 1.0), ("och", "Loc", 1.0),
           ("ami", "Ins", 1.0), ("mi", "Ins", 0.8), ("om", "Dat", 0.5), ("ti", "Nom", 0.8), ("ni", "Nom", 0.8),
           ("ri", "Nom", 0.8)),
    "sl": (("ovimi", "Ins", 1.5), ("ovih", "Gen", 1.5), ("ovim", "Dat", 1.5), ("ovi", "Nom", 1.5), ("ove", "Acc", 1.0),
           ("ci", "Nom", 0.8)),
}


#: nominative plural endings of nations short enough to follow two letters only (Fíni, Uhri, Češi)
_SHORT_PLURALS = ("ci", "ti", "ni", "ri", "ři", "ši")


def plural_person_cases(word: str, language: str) -> dict[str, float]:
    """Cases a masculine name's form has as a plural (Peržanov → Gen, Acc; Novákových → Gen, Loc)."""
    low = word.casefold()
    for end, case, w in _PLURAL_PERSON.get(language, ()):
        if low.endswith(end) and len(low) > len(end) + (1 if end in _SHORT_PLURALS else 2):
            cases = {case: w}
            if case == "Gen" and language != "sl":
                cases["Acc"] = w  # animate plural: accusative = genitive (Slovenian: Novakove)
            if end in ("ových", "ovih"):
                cases["Loc"] = w
            return cases
    return {}


_PLURAL_PLACE = {
    "cs": (("icích", "Loc"), ("icemi", "Ins"), ("icím", "Dat"), ("ice", "Nom"), ("ic", "Gen"),
           ("anech", "Loc"), ("anům", "Dat"), ("any", "Nom"), ("an", "Gen"), ("ách", "Loc"), ("ech", "Loc")),
    "sk": (("íc", "Gen"), ("ách", "Loc"), ("ach", "Loc"), ("ciach", "Loc"), ("ciam", "Dat"), ("cami", "Ins"),
           ("kami", "Ins"), ("kam", "Dat"), ("ky", "Nom"), ("ok", "Gen"), ("iek", "Gen"),  # do Benátok, do Hliniek
           ("ovce", "Nom"), ("oviec", "Gen"),
           ("ice", "Nom"),
           ("anoch", "Loc"), ("anom", "Dat"), ("anmi", "Ins"), ("any", "Nom")),
    "sl": (("icah", "Loc"), ("icami", "Ins"), ("icam", "Dat"), ("ice", "Nom"), ("ic", "Gen"), ("ah", "Loc")),
}


#: plural place paradigms by lemma ending: case → the ending replacing the lemma's (a listed lemma is looked up)
_PLURAL_LEMMAS = {
    "cs": (("ice", {"Nom": "ice", "Gen": "ic", "Dat": "icím", "Acc": "ice", "Loc": "icích", "Ins": "icemi"}),
           ("any", {"Nom": "any", "Gen": "an", "Dat": "anům", "Acc": "any", "Loc": "anech", "Ins": "any"}),
           ("y", {"Nom": "y", "Gen": "", "Dat": "ům", "Acc": "y", "Loc": "ech", "Ins": "y"}),
           ("y", {"Loc": "ách"})),
    "sk": (("ce", {"Nom": "ce", "Dat": "ciam", "Acc": "ce", "Loc": "ciach", "Ins": "cami"}),
           ("any", {"Nom": "any", "Gen": "an", "Dat": "anom", "Acc": "any", "Loc": "anoch", "Ins": "anmi"}),
           ("y", {"Nom": "y", "Gen": "", "Dat": "om", "Acc": "y", "Loc": "och", "Ins": "ami"})),
}


@lru_cache(maxsize=1)
def _known_places(language: str) -> frozenset[str]:
    """Listed one-word places, the nouns of listed plural town names ("Karlovy Vary" → Vary,
    "Nové Hrady" → Hrady: a singular nominative hardly ends in -y) and the dictionary's plural names (Čechy)."""
    from psan.tool.morph.namelists import pool_sets, pools
    plural_heads = {c.split()[1] for c in pools(language).cities
                    if c.count(" ") == 1 and c.endswith("y") and c.split()[0].endswith(("é", "y", "ie"))
                    and c.split()[1][:1].isupper()}  # an adjective agreeing in the plural: Karlovy Vary
    return frozenset(pool_sets(language).places) | frozenset(plural_heads) | wordlist.plural_places(language)


@lru_cache(maxsize=50_000)
def known_plural_place_cases(word: str, language: str) -> tuple[str, ...]:
    """Cases in which ``word`` is a form of a listed plural place name ("Poděbradech" → Loc of Poděbrady)."""
    known = _known_places(language)
    out = []
    for lemma_end, forms in _PLURAL_LEMMAS.get(language, ()):
        for case, end in forms.items():
            if word.endswith(end) and len(word) > len(end) + 1:  # a listed lemma: Zdice too
                lemma = word[: len(word) - len(end)] + lemma_end
                if lemma in known and case not in out:
                    out.append(case)
    return tuple(out)


#: plural place endings that singular place names have too ("do Benátok", but "Pezinok")
_WEAK_PLURAL_ENDS = ("ok", "ky", "iek")


def plural_place_cases(word: str, language: str) -> dict[str, float]:
    """Cases a place name's form has as a plural (Pardubicích → Loc), by the plural endings."""
    low = word.casefold()
    for end, case in _PLURAL_PLACE.get(language, ()):
        if low.endswith(end) and len(low) > len(end) + 2:
            # a singular town may end so too (Pezinok): such endings weigh as a guessed singular does
            cases = {case: 1.0 if end in _WEAK_PLURAL_ENDS else 2.0}
            if case == "Nom":
                cases["Acc"] = 2.0
            if case == "Nom" and end == "any":
                cases["Ins"] = 1.0
            return cases
    return {}


#: Polish endings of names Morfeusz does not know (foreign names): ending → (case, number, gender), weight 0.8
_PL_ENDINGS = (
    ("owie", ("Nom", "Plur", "Masc")), ("ów", ("Gen", "Plur", "Masc")), ("ego", ("Gen", "Sing", "Masc")),
    ("emu", ("Dat", "Sing", "Masc")), ("owi", ("Dat", "Sing", "Masc")), ("em", ("Ins", "Sing", "Masc")),
    ("im", ("Ins", "Sing", "Masc")), ("ym", ("Ins", "Sing", "Masc")), ("ie", ("Loc", "Sing", "Masc")),
    ("ę", ("Acc", "Sing", "Fem")), ("ą", ("Ins", "Sing", "Fem")), ("a", ("Gen", "Sing", "Masc")),
    ("ski", ("Nom", "Sing", "Masc")), ("cki", ("Nom", "Sing", "Masc")), ("skiy", ("Nom", "Sing", "Masc")),
    ("ey", ("Nom", "Sing", "Masc")), ("ay", ("Nom", "Sing", "Masc")), ("ły", ("Nom", "Sing", "Masc")),
    ("ny", ("Nom", "Sing", "Masc")), ("y", ("Gen", "Sing", "Fem")), ("i", ("Gen", "Sing", "Fem")),
)


def _polish_guess(word: str, person: bool) -> dict[Key, float]:
    """Readings of a name Morfeusz does not know, by its ending ("Sohraba" → Gen/Acc, "Ladenem" → Ins)."""
    low = word.casefold()
    for end, key in _PL_ENDINGS:
        if low.endswith(end) and len(low) > len(end) + 2:
            out = {key: 0.8}
            if key[0] == "Gen" and key[2] == "Masc" and person:
                out[("Acc", key[1], "Masc")] = 0.8  # a man: accusative = genitive
                if end == "a":  # … or a man's or a woman's name in -a (Zagłoba, Okrasa; a foreign woman's)
                    out[("Nom", "Sing", "Masc")] = out[("Nom", "Sing", "Fem")] = 0.5
            if end == "ie":
                out[("Voc", "Sing", "Masc")] = 0.3
            return out
    if low[-1:].isalpha() and low[-1] not in "aeiouyąę":
        return {("Nom", "Sing", "Masc"): 0.8}
    return {}


def _polish_readings(word: str, person: bool) -> dict[Key, float]:
    from psan.tool.morph.declension import inflect_pl
    if not inflect_pl.analyse(word, "last" if person else "place"):
        return _polish_guess(word.replace("'", "").replace("’", ""), person) if inflect_pl.available() else {}
    out: dict[Key, float] = {}
    for interp in inflect_pl.analyse(word, "last" if person else "place")[:12]:
        proper = interp.lemma[:1].isupper()
        weight = 2.0 if proper else 0.7
        if len(interp.forms) >= 8:
            weight = 0.4  # an indeclinable reading (women's "Krzysztof", "Nowak") says nothing about the case
        for num, case in interp.forms:
            key = (PL_CASE.get(case, ""), PL_NUMBER.get(num, ""), _gender_ud(interp.gender))
            if key[0] and key[1]:
                out[key] = max(out.get(key, 0.0), weight)
    return out


@lru_cache(maxsize=100_000)
def readings(word: str, language: str, person: bool) -> dict[Key, float]:
    """(case, number, gender) keys a name word's form supports, with a weight (2 listed name, 1 guessed)."""
    if language == "pl":
        return _polish_readings(word, person)
    return _declension_readings(word, language, person)


def _boundary(text: str, m: re.Match[str]) -> bool:
    """Whether a full stop (or ! ?) ends a sentence: not after an initial or a title ("J. Kulicha", "Ing. Novák")."""
    from psan.tool.morph.namelists import KEEP_WORDS
    word = re.search(r"(\w+)\W*$", text[max(0, m.start() - 20):m.start()])
    return word is None or (len(word.group(1)) > 1 and word.group(1).casefold() not in KEEP_WORDS)


def sentence_window(text: str, start: int, end: int) -> tuple[list[re.Match[str]], int, int]:
    """The tokens of the mention's sentence (at most 300 characters either side) and the mention's token range.

    Why the sentence: every mention of one sentence shares the window, so the sentence is tagged once.
    """
    lo = max(0, text.rfind("\n", 0, start) + 1, start - 300)
    for b in _SENTENCE_END.finditer(text, lo, start):
        if _boundary(text, b):
            lo = b.end()
    hi = min(len(text), end + 300)
    nl = text.find("\n", end, hi)
    hi = nl if nl >= 0 else hi
    for b in _SENTENCE_END.finditer(text, end, hi):
        if _boundary(text, b):
            hi = b.start() + 1
            break
    toks = [t for t in _TOKEN.finditer(text, lo, hi) if t.group() not in _MARKS]
    first = next((i for i, m in enumerate(toks) if m.end() > start), len(toks))
    last = next((i for i in range(len(toks) - 1, -1, -1) if toks[i].start() < end), first)
    return toks, first, last


Tagged = list[tuple[str, str, dict[str, str]]]  # (lemma, UPOS, feats) of every token of a sentence


@dataclass(frozen=True, slots=True)
class Sentence:
    """A mention in its sentence, as the evidence readers see it.

    ``toks`` are the sentence's tokens, ``first``/``last`` the mention's first and last token, ``index`` the
    token of its last name word; ``got`` the tagger's (lemma, UPOS, feats) of every token (``None`` without a
    tagger); ``names`` where the document's other mentions start."""

    toks: list[re.Match[str]]
    first: int
    last: int
    index: int
    kind: str
    language: str
    names: frozenset[int] = frozenset()
    got: Tagged | None = None

    @property
    def before(self) -> str:
        """The word right before the mention ("" at the start of the sentence)."""
        return self.toks[self.first - 1].group() if self.first > 0 else ""

    @property
    def person(self) -> bool:
        return self.kind == PERSON


def name_words(toks: Sequence[re.Match[str]], first: int, last: int,
               language: str) -> tuple[list[re.Match[str]], str, tuple[str, ...]]:
    """The mention's name words, and the gender and cases of a title that opens it ("paní Nováková")."""
    from psan.tool.morph.namelists import KEEP_WORDS
    span_words = [t for t in toks[first:last + 1] if _ALPHA.fullmatch(t.group())]
    title_gender, title_cases = "", ()
    words: list[re.Match[str]] = []
    for t in span_words:
        tl = context.title_of(t.group(), language)
        if tl is not None and not words:
            title_gender, title_cases = tl
            continue
        if words and t.group().islower() and context.preposition_cases(t.group(), language):
            break  # "Ústí nad Labem", "Frankfurt nad Mohanem": the head before the preposition takes the case
        if t.group().casefold() in KEEP_WORDS or len(t.group()) < 2:
            continue
        words.append(t)
    return words, title_gender, title_cases


def word_readings(words: Sequence[str], person: bool, language: str) -> list[dict[Key, float]]:
    """The paradigm readings of each name word (:func:`readings`), without those of words that do not decline
    with the last one: an undeclined first name in -o before a declined surname, a place's adjectives."""
    per_word = [readings(_title(w), language, person) for w in words]
    declined = any(k[0] != "Nom" and w >= 1.0 for k, w in per_word[-1].items())
    if person and declined:  # a first name in -o (Ivo, Oto, Hugo) is often left undeclined before a declined surname
        per_word = [{} if k < len(words) - 1 and w.endswith("o") and r
                    and all(key[0] in ("Nom", "Voc") for key in r) else r
                    for k, (w, r) in enumerate(zip(words, per_word, strict=True))]
    if not person:  # a place's adjectives ("Karlovy Vary", "Nové Hrady") are no nouns to agree with
        per_word = [{} if k < len(words) - 1 and _attributive(w, language, capital=True) else r
                    for k, (w, r) in enumerate(zip(words, per_word, strict=True))]
    return per_word


def tag_sentence(toks: Sequence[re.Match[str]], first: int, last: int, index: int, last_readings: dict[Key, float],
                 person: bool, language: str) -> tuple[Tagged | None, tuple[str, ...], str]:
    """The tagger's reading of the sentence, and the cases and number the parser's relation gives the name.

    The tagger is asked only where it can decide something: no preposition right before the name and a form
    of several cases; ``None`` without a model."""
    before_word = toks[first - 1].group() if first > 0 else ""
    if context.preposition_cases(before_word, language) or not _ambiguous(last_readings, person):
        return None, (), ""
    parsed = tagger.parse(language, tuple(t.group() for t in toks))
    if parsed is not None:  # the whole sentence, parsed: the name's relation says its case
        syntax, syntax_number = syntactic_case(parsed, [t.group() for t in toks], index, language)
        return [(lemma, upos, feats) for lemma, upos, feats, _h, _d in parsed], syntax, syntax_number
    lo, hi = max(0, first - _CONTEXT), min(len(toks), last + 2)  # the tagger looks two words around
    part = tagger.tag(language, tuple(t.group() for t in toks[lo:hi]))
    if part is None:
        return None, (), ""
    return [("", "", {})] * lo + list(part) + [("", "", {})] * (len(toks) - hi), (), ""


def read_preposition(s: Sentence, ev: Evidence) -> tuple[int, int]:
    """The preposition governing the name (over titles, initials and agreeing adjectives before it) into
    ``ev.prep``, its likelier case first; returns the preposition's token and how many adjectives were skipped."""
    from psan.tool.morph.namelists import KEEP_WORDS
    toks, got, language = s.toks, s.got, s.language
    prep: tuple[str, ...] = ()
    i = s.first - 1
    skipped = 0
    while i >= 0:  # titles, abbreviation dots, academic titles and agreeing adjectives before the name
        w = toks[i].group()
        tl = context.title_of(w, language)
        if tl is not None:
            if not ev.title_gender:
                ev.title_gender, ev.title_cases = tl
            i -= 1
            continue
        if w == "." or w.casefold() in KEEP_WORDS:
            i -= 1
            continue
        if skipped < 3 and _adjective(w, got[i][1] if got else "", language) \
                and (got is None or got[i][1] == "DET" or _attributive(w, language)):
            skipped += 1  # "v Banskej Bystrici", "na jižní a severní Moravě"
            i -= 1
            while i >= 0 and toks[i].group().casefold() in (",", "a", "i", "oraz"):
                i -= 1
            continue
        prep = context.preposition_cases(w, language)
        if s.kind == PLACE and language in _IN_LOCATIVE and w.casefold() in _IN_LOCATIVE[language]:
            prep = tuple(c for c in prep if c == "Loc") or prep  # "V Cannes", "v Kosovu": where, never whereto
        break
    last_readings = ev.readings[-1]
    if prep and language == "cs" and toks[i].group().casefold() == "se" and last_readings:
        governed = max((w for k, w in last_readings.items() if k[0] in prep), default=0.0)
        other = max((w for k, w in last_readings.items() if k[0] not in prep), default=0.0)
        if other >= governed:
            prep = ()  # "se" is also the reflexive pronoun: "Jan se Pavlovi omluvil", "se Franta zašklebil"
    if len(prep) > 1 and i > 0 and _ALPHA.fullmatch(toks[i - 1].group()):
        preferred = valency.preferred_case(tagger.valency_table(language), toks[i - 1].group(),
                                           toks[i].group())  # "zájem o" + Acc
        if preferred in prep:
            prep, ev.by_valency = (preferred, *(c for c in prep if c != preferred)), True
    ev.prep = prep
    return i, skipped


def read_left_neighbour(s: Sentence, ev: Evidence) -> None:
    """What the word before the name says when there is no preposition: a role noun it stands in apposition
    to, an agreeing adjective, a noun it is the possessor of, a verb it is the object of (by the tagger's tags,
    or without a tagger a role noun by its stem)."""
    toks, got, first, language, prep, before = s.toks, s.got, s.first, s.language, ev.prep, s.before
    if got is not None:
        if got[s.index][1] in ("PROPN", "NOUN", "ADJ", "X"):
            ev.tagged = got[s.index][2]
        upos = got[first - 1][1] if first > 0 else ""
        # a role noun by its stem (a small tagger may call "bratra" a proper noun), also as the sentence's
        # capitalized first word ("Profesor Havlena pokrčil")
        noun = before.lower() if _lower_or_initial(before, first, toks) else before
        role_noun = upos not in ("ADJ", "DET", "ADV") and s.person and person_noun(noun, language)
        if noun.islower() and not prep and role_noun:
            ev.after_noun, ev.noun_cases = True, _role_noun_cases(noun, language, got[first - 1][2].get("Case", ""))
            if not ev.title_gender:  # "manželka Laura", "předsedu Zelenku": the role noun's gender
                ev.title_gender = "f" if feminine_role(noun) else "m"
        elif before.islower() and not prep and upos in ("DET", "NUM") or upos == "ADJ" and before.islower() \
                and not prep and _attributive(before, language):
            ev.agreeing = got[first - 1][2]  # "Starém Kolíně", "bratra Kozáka": the name agrees
            if s.person and not _agrees(ev.agreeing, ev.readings[-1]):
                # "vedená Nerovským": a person's name that cannot agree is no noun of the word; after a
                # passive participle it is the agent
                ev.agent = ev.agreeing.get("Voice") == "Pass"
                ev.agreeing = None
        elif (_lower_or_initial(before, first, toks) or s.person and before[:1].isupper()) \
                and upos == "NOUN" and not prep and not before.casefold().startswith(_PRONOUNS):
            # a capitalized common noun before a person opens a title: "Cena Karla Čapka", "Orchestr Ivo Pavlíka"
            ev.after_noun = True  # "města Prahy" (possessor) or "okrese Pardubice" (apposition)
            if s.kind == PLACE and before.casefold().startswith(context.PLACE_NOUNS):
                noun_case = got[first - 1][2].get("Case", "")
                ev.noun_cases = ("Nom", noun_case) if noun_case else ("Nom",)
                ev.place_noun_case = noun_case
        elif upos in ("VERB", "AUX") and not prep:
            ev.after_verb = True
            near = range(first - 1 - valency.SUBJECT_WINDOW, first - 1)  # the words subject_before reads
            ev.subject_before = valency.subject_before(
                [(t.group(), *(_name_as_nominative(t.group(), g[1], g[2], language)
                               if k in near and t.start() in s.names else g[1:]))
                 for k, (t, g) in enumerate(zip(toks, got, strict=True))], first - 1)
            table = tagger.valency_table(language)
            verb_cases = {(n, g): valency.verb_cases(table, before, got[first - 1][2], ev.subject_before, n, g)
                          for n in _NUMBERS for g in _GENDERS} if table else None
            if verb_cases is not None and not any(verb_cases.values()):
                verb_cases = None  # a table written before the verbs were learned: the rules of before
            ev.verb_cases = verb_cases or None
    if got is None and language != "pl" and s.person and before.islower() and not prep \
            and person_noun(before, language):  # no tagger: a role noun by its name or its paradigm
        ev.noun_cases = _role_noun_cases(before, language, "")
        ev.after_noun = bool(ev.noun_cases)
        if not ev.title_gender:  # "manželka Laura", "předsedu Zelenku": the role noun's gender
            ev.title_gender = "f" if feminine_role(before) else "m"
    elif got is None and not prep and wordlist.verb_form(before, language):
        # no tagger: "chytila Eduarda", "škrtila Evropu": a genitive = accusative form after a verb (by the
        # dictionary) is rather its object; nominative or accusative stays open (no agreement to read)
        ev.object_of_verb = True


def read_polish_neighbours(s: Sentence, ev: Evidence, head: int) -> None:
    """Polish has no tagger: Morfeusz says whether the word before the name (``head``: before its adjectives) is
    a noun or a verb, and whether a verb follows a man's genitive = accusative form (its object)."""
    if s.got is not None or s.language != "pl" or ev.prep or ev.title_cases:
        return
    from psan.tool.morph.declension import inflect_pl
    toks, before, last = s.toks, s.before, s.last
    head_word = toks[head].group() if head >= 0 else ""
    if head_word[1:].islower():
        nouns = [r for r in inflect_pl.analyse(head_word) if not r.lemma[:1].isupper()]
        # a word after a preposition is a noun ("pod wodzą Krzysztofa": wodzą is also a verb form)
        ev.after_noun = bool(nouns) and (inflect_pl.only_noun(head_word) or head > 0 and bool(
            context.preposition_cases(toks[head - 1].group(), s.language)))
        ev.after_verb = not ev.after_noun and inflect_pl.is_verb(head_word)
        if ev.after_noun and s.person and head_word.casefold().startswith(context.ROLE_NOUNS):
            ev.noun_cases = tuple({PL_CASE.get(c, "") for r in nouns for _n, c in r.forms})
    if not ev.after_noun and not ev.after_verb and last + 1 < len(toks) and toks[last + 1].group().islower():
        # "Zygmunta wezwał", "Chaskielewicza znano": a man's Gen = Acc form before a verb is rather its object
        # (after a word that may be a noun it may be its possessor: "W mieszkaniu Ringów zapanował")
        # (a name after an abbreviation belongs to it: "Stocznia im. Lenina")
        ev.before_verb = inflect_pl.is_verb(toks[last + 1].group()) \
            and (not before or bool(_ALPHA.fullmatch(before))) \
            and not (before[1:].islower() and any(not i.lemma[:1].isupper() for i in inflect_pl.analyse(before)))


def read_subject(s: Sentence, ev: Evidence) -> None:
    """The gender and number of a past participle next to the name: the name's, if it is the subject
    ("pravila Drahuš", "Nemci rozhodli"; Polish by Morfeusz, cs/sk/sl by the participle's ending without a
    tagger)."""
    toks, got, last = s.toks, s.got, s.last
    if got is not None and s.kind in (PERSON, PLACE):  # a past participle next to the name agrees with its subject
        for k in (s.first - 1, last + 1, last + 2):
            if 0 <= k < len(got) and got[k][1] in ("VERB", "AUX") and got[k][2].get("VerbForm") == "Part":
                ev.subject_gender = got[k][2].get("Gender", "")
                ev.subject_number = got[k][2].get("Number", "")  # "Nemci rozhodli", "stávaly Lidice": plural
                break
    if s.person and not ev.subject_number and s.language == "pl" and last + 1 < len(toks):
        from psan.tool.morph.declension import inflect_pl  # "Fanga strzyknął", "Kasia powiedziała"
        k = last + 2 if toks[last + 1].group().casefold() in ("się", "nie", "już") and last + 2 < len(toks) \
            else last + 1
        ev.subject_gender, ev.subject_number = inflect_pl.past_subject(toks[k].group()) \
            if toks[k].group().islower() else ("", "")
    if s.person and not ev.subject_number and s.language in ("cs", "sk", "sl"):
        ending_gender, ev.subject_number = _participle_after(toks, last, got is None, s.language)
        ev.subject_gender = ev.subject_gender or ending_gender
    if s.person and not ev.subject_number and wordlist.feminine_participle(s.before, s.language):
        ev.subject_gender, ev.subject_number = "Fem", "Sing"  # an inverted subject: "pravila Drahuš"


def read_role_noun(s: Sentence, ev: Evidence) -> None:
    """A role noun before acronyms ("předsedu OIRT Zelenku": the name agrees with it), and the preposition
    before a role noun ("za pápeža Jána": the name takes a case both allow)."""
    toks, got, first, before = s.toks, s.got, s.first, s.before
    if s.person and not ev.after_noun and not ev.prep and first > 1 and before.isupper() and len(before) > 1:
        j = first - 2  # "tajemníkem ÚV KSČ Oldřichem": skip the acronyms
        while j > 0 and toks[j].group().isupper() and len(toks[j].group()) > 1:
            j -= 1
        noun = toks[j].group()
        if noun.islower() and person_noun(noun, s.language):
            ev.after_noun = True
            ev.noun_cases = _role_noun_cases(noun, s.language, got[j][2].get("Case", "") if got is not None else "")
            ev.title_gender = ev.title_gender or ("f" if feminine_role(noun) else "m")
    if ev.after_noun and ev.noun_cases and first > 1 and before.islower():
        governed = context.preposition_cases(toks[first - 2].group(), s.language)
        ev.noun_cases = tuple(c for c in _role_noun_cases(before, s.language, "") if c in governed) or ev.noun_cases


def read_address(s: Sentence, ev: Evidence) -> None:
    """An apposition to an acronym ("JZD Ráby": nominative; a person after an acronym is none: "tajemníkem ÚV
    KSČ Oldřichem"), and a person addressed at the start of a sentence ("Franto, povídám", "„Láďo?“")."""
    before = s.before
    ev.apposition = not ev.prep and s.first > 0 and before.isupper() and len(before) > 1 and not s.person
    after = s.toks[s.last + 1].group() if s.last + 1 < len(s.toks) else ""
    # "Franto, …", "„Láďo?“", "„Petře!“": set off at the start of a sentence or clause and closed by a comma,
    # an exclamation or a question mark
    ev.vocative = s.person and after in (",", "!", "?") and (s.first == 0 or before in (",", "–", "-", "„", "\""))


def learned_reading(s: Sentence) -> dict[str, dict[str, float]] | None:
    """The learned reader's probabilities of the name's case, number and gender (:mod:`.namecase`; ``None``
    where the language gives it no weight or the models folder has no model)."""
    learned = any(model_weights(s.language)[k] for k in ("learned_case", "learned_number", "learned_gender"))
    model = namecase.model_for(s.language, tagger.models_dir()) if learned else None
    return None if model is None else namecase.predict(model, [t.group() for t in s.toks], s.index)


def _evidence(text: str, m: Mention, language: str, names: frozenset[int] = frozenset()) -> Evidence | None:
    """What the mention's form and context say (``names``: where the document's other mentions start)."""
    toks, first, last = sentence_window(text, m.start, m.end)
    words, title_gender, title_cases = name_words(toks, first, last, language)
    if not words:
        return None
    person = m.kind == PERSON
    per_word = word_readings([t.group() for t in words], person, language)
    index = toks.index(words[-1])
    got, syntax, syntax_number = tag_sentence(toks, first, last, index, per_word[-1], person, language)
    s = Sentence(toks, first, last, index, m.kind, language, names, got)
    ev = Evidence(per_word, (), title_gender, title_cases, None, syntax=syntax, syntax_number=syntax_number)
    i, skipped = read_preposition(s, ev)
    read_left_neighbour(s, ev)
    read_polish_neighbours(s, ev, i if skipped and i >= 0 else first - 1)
    read_subject(s, ev)
    read_role_noun(s, ev)
    read_address(s, ev)
    ev.learned = learned_reading(s)
    return ev


def _name_as_nominative(word: str, upos: str, feats: dict[str, str], language: str) -> tuple[str, dict[str, str]]:
    """(UPOS, feats) of another mention's word before a verb: a form that is a nominative only is taken for a
    nominative name (the small tagger calls names anything: "Bush kritizoval Irán", Bush an adverb)."""
    if feats.get("Case") == "Nom" or not word[:1].isupper() or not word[1:].islower() or len(word) < 3:
        return upos, feats
    found = readings(word, language, True)
    if found and all(k[0] == "Nom" for k, w in found.items() if w >= 1.0) and max(found.values()) >= 1.0:
        return "PROPN", {**feats, "Case": "Nom"}
    return upos, feats


def _participle_after(toks: Sequence[re.Match[str]], last: int, feminine: bool, language: str) -> tuple[str, str]:
    """(gender, number) of an l-participle right after a name, or after a short auxiliary ("Uhri boli",
    "Maja je prišla"), by its ending: -li/-ly plural (any gender), with ``feminine`` (no tagger said
    more) -la a woman's singular, where the dictionary (if any) takes it for a verb's form.  ``("", "")`` where no
    such word follows."""
    k = last + 1
    if k < len(toks) and toks[k].group().islower() and len(toks[k].group()) <= 3 and k + 1 < len(toks):
        k += 1  # "je", "se", "sa", "by"
    word = toks[k].group() if k < len(toks) else ""
    if not word.islower() or len(word) < 4:
        return "", ""
    if word.endswith(("li", "ly")):
        return "", "Plur"
    if feminine and word.endswith("la") and (wordlist.feminine_participle(word, language)
                                            or not wordlist.available(language)):
        return "Fem", "Sing"  # "Valentýna seděla" (not "Albina kardinála": a noun)
    return "", ""


#: dependency relations that fix a nominal's case by themselves
_RELATION_CASES = {"nsubj": ("Nom",), "nsubj:pass": ("Nom",), "obj": ("Acc",), "iobj": ("Dat",),
                   "vocative": ("Voc",)}


def syntactic_case(parsed: tagger.Parsed, words: Sequence[str], index: int,
                   language: str) -> tuple[tuple[str, ...], str]:
    """The cases a word's dependency relation allows, and the number of the verb it is the subject of.

    Why: a form both nominative and accusative ("kritizoval Irán") or genitive and nominative
    ("vlády Billa Clintona") is told apart by syntax only.  The relation of the name's head word is
    followed through the parts of one name (``flat``) and coordination (``conj``: the first conjunct's);
    a subject, object or indirect object fixes the case, an apposition takes its head noun's tagged case,
    a nominal modifier with a preposition the preposition's cases, one without it the genitive.
    ``((), "")`` where the relation says nothing.
    """
    seen = set()
    i = index
    while 0 <= i < len(parsed) and i not in seen:
        seen.add(i)
        _lemma, _upos, _feats, head, rel = parsed[i]
        base = rel.split(":", 1)[0]
        if base in ("flat", "conj") and head > 0:
            i = head - 1
            continue
        if rel in _RELATION_CASES or base in ("nsubj", "obj", "iobj"):
            cases = _RELATION_CASES.get(rel) or _RELATION_CASES[base]
            verb = parsed[head - 1] if head > 0 else None
            number = verb[2].get("Number", "") if verb is not None and cases == ("Nom",) \
                and verb[1] in ("VERB", "AUX") else ""
            return cases, number
        if base == "appos" and head > 0:
            case = parsed[head - 1][2].get("Case", "")
            return ((case,) if case else ()), ""
        if base in ("nmod", "obl"):
            preps = [context.preposition_cases(words[k], language) or ((w[2]["Case"],) if "Case" in w[2] else ())
                     for k, w in enumerate(parsed) if w[3] == i + 1 and w[4] == "case" and k < i]
            forms = [p for p in preps if p]
            if forms:
                return forms[-1], ""
            return (("Gen",) if base == "nmod" else ()), ""
        return (), ""
    return (), ""


#: beginnings of relative and possessive pronouns a small tagger may call nouns ("na ktorom Moskovčania"):
#: a name after them is no possessor
_PRONOUNS = ("ktor", "kter", "jeho", "jej", "ich", "jejich", "koho", "komu", "čí")

#: a verb's subject stands before it: the name after the verb is rather its object (without a verb table)
_SUBJECT_BEFORE = {"Acc": 0.7, "Nom": -0.5}


def _lower_or_initial(word: str, index: int, toks: Sequence[re.Match[str]]) -> bool:
    """A common word: lower case, or capitalized only as the sentence's first word ("Zatmenie Slnka")."""
    return word.islower() or (index == 1 and word[1:].islower())


def _can_stand_in(ev: Evidence, cases: tuple[str, ...]) -> bool:
    """Whether a mention's form may stand in one of ``cases`` (unknown or weakly read forms may)."""
    last = ev.readings[-1]
    if not last or max(last.values()) < 1.0:
        return True
    return any(k[0] in cases and w >= 1.0 for k, w in last.items())


def _agrees(word: dict[str, str], readings_of: dict[Key, float]) -> bool:
    """Whether a name's form has a reading (weight ≥ 0.5) in the case and gender of an agreeing word's
    tagged features (either unknown: it may)."""
    case, gender = word.get("Case", ""), word.get("Gender", "")
    if not case or not readings_of:
        return True
    return any(w >= 0.5 and k[0] == case and (not gender or k[2] in gender.split(",")) for k, w in readings_of.items())


def _ambiguous(readings_of: dict[Key, float], person: bool = False) -> bool:
    """Whether a word's best readings leave more than one case or number (a person: or gender), or there are none."""
    if not readings_of:
        return True
    top = max(readings_of.values())
    best = [k for k, w in readings_of.items() if w >= top - 0.5]
    return len({k[0] for k in best}) > 1 or (person and len({k[2] for k in best}) > 1) or len({k[1] for k in best}) > 1


def feminine_role(noun: str) -> bool:
    """Whether a role noun names a woman ("manželka", "prezidentka", "sestra", "předsedkyně")."""
    low = noun.casefold()
    return low.endswith(("yně", "yne", "yni", "kyňa", "ková")) \
        or low.startswith(("sestr", "siostr", "dcer", "žen", "matk")) \
        or low.endswith(("ka", "ky", "ce", "ou", "ku")) and low[:-2].startswith(context.ROLE_NOUNS) and len(low) > 5 \
        and not (low.startswith(_A_ROLE_NOUNS) and "k" not in low[-3:])  # "předsedou" is a man's, "starostka" not


def person_noun(word: str, language: str) -> bool:
    """Whether a word names a person a name can stand in apposition to ("bratra Kozáka", "policistu Norberta
    Predikanta"): a listed role noun, or a common noun the language's dictionary declines as a masculine
    animate (Czech: any agent noun, "policista", "učitel", "novinář", without listing each)."""
    return word.casefold().startswith(context.ROLE_NOUNS) or wordlist.animate_noun(word, language)


#: masculine role nouns whose nominative ends in -a (předseda, starosta): their -a form is no genitive
_A_ROLE_NOUNS = ("předsed", "místopředsed", "predsed", "podpredsed", "koleg", "starost", "hrdin", "sluh")


def _role_noun_cases(noun: str, language: str, tagged: str) -> tuple[str, ...]:
    """Cases a role noun's form can stand in ("bratra" → Gen, Acc; "ženě" → Dat, Loc), by the name
    declension rules; the tagger's case among them when it is one of them."""
    from psan.tool.morph.declension import declension_for
    decl = declension_for(language)
    cases: set[str] = set()
    if decl is not None:
        g = "f" if feminine_role(noun) else "m"
        found = [r for r in decl.analyse(noun.capitalize(), language, g, True)
                 if r.gender == g and (r.lemma.casefold().startswith(context.ROLE_NOUNS)
                     or wordlist.animate_lemma(r.lemma.casefold(), language))]
        low = noun.casefold()
        oblique = not low.endswith(("a", "yně", "yne")) if g == "f" else \
            low.endswith(("a", "e", "u")) and not low.endswith(("ca", "ga", "ce")) \
            and not (low.endswith("a") and low.startswith(_A_ROLE_NOUNS))
        if any(r.lemma.casefold() != low for r in found) and oblique:
            # "bratra" is the genitive of bratr, not a nominative "Bratra" (the nouns whose nominative ends
            # so keep it: "kolega", "hovorca", "vůdce", women's "manželka", "sestra"; "předáka" is předák's;
            # "ženě" is no woman's nominative)
            found = [r for r in found if r.lemma.casefold() != noun.casefold()] or found
        for r in found:
            cases.add(CASE_OF_SLOT.get(r.slot[:1], ""))
    cases.discard("")
    if tagged and (tagged in cases or not cases):
        return (tagged,)
    return tuple(sorted(cases))


def _adjective(word: str, upos: str, language: str) -> bool:
    """Whether a word before a name is an agreeing adjective (tagger's UPOS, else Morfeusz for Polish,
    else the adjectival endings of an oblique case: "ve Starém Kolíně", "na jižní Moravě")."""
    if upos:
        return upos in ("ADJ", "DET", "NUM")
    if language == "pl" and word[1:].islower():
        from psan.tool.morph.declension import inflect_pl
        return inflect_pl.is_adjective(word)
    ends = _ADJECTIVE_ENDINGS.get(language, ())
    return bool(ends) and word[1:].islower() and len(word) > 3 and word.casefold().endswith(ends)


def _attributive(word: str, language: str, capital: bool = False) -> bool:
    """Whether an adjective can agree with a noun after it: Czech/Slovak attributive adjectives have
    long endings ("nového", "stará"); a short form ("strata" a tagger takes for a participle) cannot.
    With ``capital``: whether a word of a place name is such an adjective ("Karlovy", "Nové")."""
    ends = _LONG_ENDINGS.get(language)
    if capital:
        return ends is not None and word.casefold().endswith(ends + ("ovy", "ých", "ými"))
    return ends is None or word.casefold().endswith(ends)


#: endings of long (attributive) adjectives and of possessive adjectives
_LONG_ENDINGS = {
    "cs": ("ý", "á", "é", "í", "ou", "ém", "ým", "ím", "ých", "ích", "ými", "ími", "ho", "mu", "ův", "ova", "ovo",
           "ovu", "ovi", "ovy", "ových", "ovým", "in", "ina", "iny", "inu", "ině"),
    "sk": ("ý", "á", "é", "í", "ú", "ou", "om", "ým", "im", "ej", "ho", "mu", "ch", "mi", "ie", "ia", "iu", "ov", "ova",
           "ovo", "ovu", "ovi", "ovej", "in", "ina", "ino", "inu", "ej"),
}


#: endings of adjectives in the cases a preposition governs (nominatives left out: a name after them is
#: rather a subject)
_ADJECTIVE_ENDINGS = {
    "cs": ("ém", "ého", "ému", "ým", "ých", "ými", "ího", "ímu", "ím", "ích", "ími", "ní", "ské", "cké", "né", "ší"),
    "sk": ("om", "ej", "ého", "ému", "ým", "ých", "ými", "ieho", "iemu", "im", "ich", "imi", "skej", "ckej"),
    "sl": ("em", "ega", "emu", "ih", "im", "imi", "ski", "ški"),
}


def _title(word: str) -> str:
    return word[:1].upper() + word[1:].lower() if len(word) > 1 and word.isupper() else word


#: how much each model's reading counts against the rules (a preposition's case counts 2.0–2.5, an agreeing
#: adjective 1.5): the tagger's case, number and gender of the name itself, the parser's relation (cases it
#: allows, the number of its verb), the treebanks' share of a case after the verb before it (:mod:`.valency`),
#: and the learned reader's probabilities (:mod:`.namecase`).  Why a table: which model to trust how much is
#: chosen per language on fold A of ``ner_eval inflection`` and judged on fold B (:data:`MODEL_WEIGHTS`).
DEFAULT_MODEL_WEIGHTS: dict[str, float] = {
    "tagger_case": 0.6, "tagger_number": 0.4, "tagger_gender": 0.0, "syntax": 0.5, "syntax_number": 0.5,
    "verb": 1.0, "learned_case": 0.0, "learned_number": 0.0, "learned_gender": 0.0}
#: per language, what differs from :data:`DEFAULT_MODEL_WEIGHTS`.  Slovak: the learned reader's weight chosen on
#: fold A among 0, 0.5, 1, 2 and 20 (times 1, 1/2, 1/2 for Case, Number, Gender), judged on fold B.  Czech: fitted
#: (``ner_eval inflection-fit --fold all``) on the names of FicTree, a corpus neither fold is drawn from, with a
#: tagger trained without FicTree; judged on both folds of inflect-cs-dev (ner_eval/results/inflection.md): the
#: tagger's case of the name itself adds nothing to the rules (0), its gender does (1.0), the verb table less (0.6).
MODEL_WEIGHTS: dict[str, dict[str, float]] = {
    "sk": {"learned_case": 1.0, "learned_number": 0.5, "learned_gender": 0.5},
    "cs": {"tagger_case": 0.0, "tagger_gender": 1.0, "verb": 0.6},
}


def model_weights(language: str) -> dict[str, float]:
    """The weights of the models' readings in ``language`` (:data:`MODEL_WEIGHTS` over the defaults)."""
    return {**DEFAULT_MODEL_WEIGHTS, **MODEL_WEIGHTS.get(language, {})}


def _case_score(ev: Evidence, kind: str, c: str, language: str = "") -> float:  # noqa: C901
    """The part of a score that depends on the case only (context: prepositions, titles, neighbours)."""
    s = _PRIOR[c]
    mw = model_weights(language)
    if ev.prep:
        s += 2.5 if c == ev.prep[0] else 2.0 if c in ev.prep else -4.0
        s += 1.0 if ev.by_valency and c == ev.prep[0] else 0.0
    elif c == "Loc":
        s -= 4.0
    if ev.title_cases:
        s += 3.0 if c in ev.title_cases else -1.0
    if ev.tagged and not (ev.after_verb and (ev.verb_cases or ev.tagged.get("Case") in ("Gen", "Acc"))):
        # the tagger on the name itself: it has seen few names, a hint only; after a verb its genitive or
        # accusative of a name is a guess (a man's two forms are one), the verb's object is the better one
        s += mw["tagger_case"] if ev.tagged.get("Case") == c else 0.0
    if ev.learned:  # the learned reader (treebank nouns and names): its probability of the case
        s += mw["learned_case"] * ev.learned["Case"].get(c, 0.0)
    if ev.syntax:  # the parser's relation: subject, object, possessor, a preposition's object
        s += mw["syntax"] if c in ev.syntax else 0.0
    if ev.agreeing:  # an agreeing adjective or title noun the tagger knows well
        s += 1.5 if ev.agreeing.get("Case") == c else 0.0
    if ev.apposition and c == "Nom":
        s += 1.5
    if ev.agent and c == "Ins":
        s += 1.5
    if ev.after_noun and ev.noun_cases:
        # a role noun: the name agrees with it ("burmistrz Jan"); a place noun: the name agrees or stands
        # in the nominative ("rieku Araxes", "v okrese Pardubice")
        s += 1.0 if c in ev.noun_cases else -0.5
        # a place's form that can agree with its noun does ("prekročil rieku Araxes" Acc), else it stays Nom
        s += 0.3 if ev.place_noun_case and c == ev.place_noun_case else 0.0
    elif ev.after_noun:  # any other noun: the name is its possessor ("města Prahy", "vlády Billa Clintona")
        s += (1.0 if kind == PLACE else 0.8) if c == "Gen" else -0.5
    if ev.vocative and c == "Voc":
        s += 1.5
    if (ev.after_verb or ev.before_verb or ev.object_of_verb) and c == "Gen":
        s -= 0.3  # a form both genitive and accusative right after a verb is its object
    if ev.after_verb and c == "Acc":
        s += 0.3  # … and so is one both nominative and accusative ("kritizoval Irán")
    if ev.subject_before:  # … all the more when the verb's subject comes before it
        s += _SUBJECT_BEFORE.get(c, 0.0)
    return s


def _scores(ev: Evidence, kind: str, entity_gender: str, language: str) -> dict[Key, float]:
    """Score of every (case, number, gender) of one mention (see the module docstring)."""
    out: dict[Key, float] = {}
    last = ev.readings[-1]
    miss = (1.5 if max(last.values()) >= 1.0 else 0.5) if last else 0.0  # a form the paradigms do not have
    nominative = max((w for k, w in last.items() if k[0] == "Nom" and k[1] == "Sing"), default=0.0)
    others = [(o, -1.0 if o and max(o.values()) >= 1.0 else 0.0) for o in ev.readings[:-1]]
    t, a = ev.tagged or {}, ev.agreeing or {}
    learned = ev.learned or {}
    mw = model_weights(language)
    number = {n: (0.5 if n == "Sing" else 0.0) + (mw["tagger_number"] if t.get("Number") == n else 0.0)
              + mw["learned_number"] * learned.get("Number", {}).get(n, 0.0)
              + (0.5 if a.get("Number") == n and kind != PERSON else 0.0)
              + (mw["syntax_number"] if ev.syntax_number == n else 0.0)
              + (0.5 if ev.subject_number == n == "Plur" else 0.0) for n in _NUMBERS}
    eg = _gender_ud(ev.title_gender) or entity_gender
    gender = {}
    for g in _GENDERS:
        v = 0.7 if a.get("Gender") == g and kind == PERSON else 0.0
        v += mw["learned_gender"] * learned.get("Gender", {}).get(g, 0.0)
        v += mw["tagger_gender"] if g in t.get("Gender", "").split(",") else 0.0
        if kind == PERSON:
            # a woman's name is marked (-ová, -á, a listed or -a first name); unmarked → a man
            v += 0.6 if g == "Masc" else -5.0 if g == "Neut" else 0.0
            if eg:
                v += 2.0 if g == eg else -3.0
        gender[g] = v
    for c in CASES:
        if c == "Voc" and language in ("sk", "sl"):
            continue
        base = _case_score(ev, kind, c, language)
        for n in _NUMBERS:
            for g in _GENDERS:
                key = (c, n, g)
                w = last.get(key, 0.0)
                s = base + number[n] + gender[g] + w - (miss if w < 0.3 else 0.0)
                if ev.verb_cases:  # subject or object of the verb before: agreement and the treebanks decide
                    s += mw["verb"] * ev.verb_cases.get((n, g), {}).get(c, 0.0)
                if c == "Nom" and kind == PERSON:
                    s += _subject_agreement(ev, key, w, nominative, miss)
                for o, absent in others:  # first name and surname agree
                    v = o.get(key, 0.0)
                    s += v if v >= 0.3 else absent
                out[key] = s
    return out


def _subject_agreement(ev: Evidence, key: Key, w: float, nominative: float, miss: float) -> float:
    """What an l-participle next to the name adds to a nominative reading of a person (``w``: the reading's own
    weight, ``nominative``: the form's best singular nominative weight, ``miss``: the penalty of a form the
    paradigms lack).

    Why the gender counts apart from the paradigm: a participle agrees with its subject, so "pravila Drahuš",
    "seděla Magda" say the subject is a woman even where the paradigms know the form only as a man's (an
    unlisted -a name, an indeclinable one): the singular nominative in the participle's gender gets the form's
    best nominative weight and the bonus of an agreeing subject.  A plural -li/-ly agrees with any gender.  The
    tagger may give several values ("seděla": Fem,Neut and Sing,Plur: a woman or neuter plural): any counts."""
    _c, n, g = key
    numbers = set(ev.subject_number.split(",")) - {""}
    genders = set(ev.subject_gender.split(",")) - {""}
    if (numbers and n not in numbers) or not (genders or numbers == {"Plur"}):
        return 0.0
    if n == "Plur" or numbers == {"Plur"}:
        return 0.7 if w >= 0.5 and (g in genders or numbers == {"Plur"}) else 0.0
    if g not in genders:
        return 0.0
    lifted = max(w, nominative)
    restored = miss if w < 0.3 <= lifted else 0.0  # the form is the nominative the paradigms had for another gender
    return lifted - w + restored + (0.7 if lifted >= 0.5 else 0.0)


def _features(key: Key, kind: str, language: str) -> Features:
    c, n, g = key
    animacy = ""
    if g == "Masc":
        animacy = ("Hum" if language == "pl" else "Anim") if kind == PERSON else "Inan"
    return Features(c, g, n, animacy)


#: what may stand between two coordinated names that share their case ("v Rusku, Ukrajine a Bielorusku")
_COORDINATION = frozenset({",", "a", "i", "und", "and", "oraz", "lub", "albo", "nebo", "alebo", "či", "ani",
                           "in", "ali", ", a", ", i", "a i", "aj"})


def _groups(text: str, mentions: Sequence[Mention], language: str = "") -> list[list[int]]:
    """Runs of coordinated mentions of one kind (their case is decided together); the second's agreeing
    adjectives may stand between ("Egypt a Saudskú Arábiu")."""
    groups: list[list[int]] = []
    for k, m in enumerate(mentions):
        if groups and k > 0:
            prev = mentions[k - 1]
            words = text[prev.end:m.start].split()
            while len(words) > 1 and _ALPHA.fullmatch(words[-1]) and len(words[-1]) > 3 \
                    and language in _LONG_ENDINGS and _attributive(words[-1], language):
                words.pop()
            between = " ".join(words).replace(" ,", ",")
            kinds = {prev.kind, m.kind}
            if (len(kinds) == 1 or kinds == {PERSON, PLACE}) and m.start >= prev.end \
                    and between.casefold() in _COORDINATION:
                groups[-1].append(k)
                continue
        groups.append([k])
    return groups


def _decide(text: str, mentions: Sequence[Mention], scores: Sequence[dict[Key, float] | None],
            language: str) -> list[Key | None]:
    """The best key of every mention; coordinated mentions share the case with the best total score."""
    out: list[Key | None] = [None] * len(mentions)
    for group in _groups(text, mentions, language):
        members = [k for k in group if scores[k]]
        if not members:
            continue
        total: dict[str, float] = {}
        for k in members:
            best_by_case: dict[str, float] = {}
            for (c, _n, _g), v in scores[k].items():  # type: ignore[union-attr]
                best_by_case[c] = max(best_by_case.get(c, v), v)
            for c, v in best_by_case.items():
                total[c] = total.get(c, 0.0) + v
        case = max(total, key=lambda c: total[c])
        for k in members:
            sc = scores[k]
            assert sc is not None  # noqa: S101 - members have scores
            own = max(sc, key=lambda key: sc[key])
            joint = max((key for key in sc if key[0] == case), key=lambda key: sc[key])
            # the shared case decides close calls; a form that clearly stands in another case keeps it
            # ("z Janem Kowalskim i Kowalskiemu", "Kadlec, Kadlcovi")
            out[k] = joint if sc[joint] >= sc[own] - 1.0 else own
    return out


def analyse_document(text: str, mentions: Sequence[Mention], language: str) -> tuple[list[Features],
                                                                                      dict[str, str]]:
    """Features of every mention (``Features()`` where nothing is analysed) and each person entity's gender."""
    names = frozenset(m.start for m in mentions)
    evidence = [_evidence(text, m, language, names) if m.kind in (PERSON, PLACE, OTHER) else None for m in mentions]
    for group in _groups(text, mentions, language):  # "v Praze, Zbraslavi": the preposition governs the whole run
        lead = evidence[group[0]]
        for k in group[1:]:
            ev = evidence[k]
            if lead is not None and ev is not None and not ev.prep and lead.prep and _can_stand_in(ev, lead.prep):
                ev.prep = lead.prep
    scores = [_scores(ev, m.kind, "", language) if ev is not None else None
              for m, ev in zip(mentions, evidence, strict=True)]
    first = _decide(text, mentions, scores, language)
    votes: dict[str, Counter[str]] = {}
    for m, ev, key in zip(mentions, evidence, first, strict=True):
        if m.kind != PERSON or ev is None or key is None or not m.entity:
            continue
        vote = votes.setdefault(m.entity, Counter())
        if ev.title_gender:
            vote[_gender_ud(ev.title_gender)] += 5
        vote[key[2]] += 1
    genders = {e: v.most_common(1)[0][0] for e, v in votes.items() if v}
    final = _decide(text, mentions, [
        _scores(ev, m.kind, genders[m.entity], language) if ev is not None and m.kind == PERSON
        and genders.get(m.entity) else sc for m, ev, sc in zip(mentions, evidence, scores, strict=True)], language)
    out = [Features() if key is None else _features(key, m.kind, language) for m, key in zip(mentions, final,
                                                                                              strict=True)]
    return out, {e: g for e, g in genders.items() if g}
