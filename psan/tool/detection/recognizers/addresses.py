"""Postal addresses as one span (street, house number, town, postcode) and UK postcodes.

Why: the street of a home address identifies a person as surely as a name, and NER models tag
its pieces apart ("22" a number, "Baker Street, London" a place, the postcode nothing), so that a
suggestion or a rule could publish one piece while the rest is masked.  An address is one
``ADDRESS`` span here, so the whole of it is replaced and no piece of it is ever suggested public
(:mod:`psan.tool.decisions.sensitivity`).

An address starts at a street with its house number, found in shapes that ordinary text rarely takes
(the per-language :data:`ADDRESS_FORMS`, one table of street words and number positions per language):

* English: a house number before a street word: ``22 Baker Street``, ``10 Downing St.``; a foreign street
  without one (``Søndergade 52``) only when a flat or a postcode follows it;
* Czech/Slovak: a street noun (``náměstí Míru 15``, ``Karlovo nám. 13``, ``ul. Dlouhá 5``), a prepositional
  name (``Na Příkopě 12``, ``U Kříže 8``; not "V"/"Ve": "V Praze 5" is a city district), or an adjectival or
  possessive name (``Roblínská``, ``Husova``, ``Palackého``, ``Korunní``) with a number ``1284/17`` or with
  any number when an address word (``bytem``, ``sídlo``, ``ul.`` …) stands before it or a postal code or a
  town follows;
* Polish: ``ul.``/``al.``/``pl.``/``os.`` and a name: ``ul. Marszałkowska 10/12 m. 5``;
* Swedish: a compound with a street word: ``Drottninggatan 5``, ``Sveavägen 44 B``;
* Slovenian: a street word before or after the name: ``Slovenska cesta 12``, ``Trg republike 3``.

The address then grows over what follows it: a flat (``Apt. 5``, ``m. 5``), a postcode, a town with a
district number (``, Praha 2``), a postcode after the town (``London OQ6 8PA``).  A town after a comma
counts only with a postcode or a district number next to it, when it is a listed town or region of the
language (:mod:`psan.tool.detection.recognizers.gazetteer`) or when the clause ends with it: "Dlouhá 5, Jana
Nováková řekla" keeps Jana out.

A number followed by a unit (``let``, ``Kč``, ``%``, ``km`` …) is not a house number, and a
``/`` part of four digits is a year ("Nařízení 2016/679", "zákon 89/2012"), never an address.

UK postcodes alone follow the Royal Mail format (outward code, space, inward code ``SW1A 1AA``) with
its letter restrictions; without the space they count only after an address word.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from psan.tool.detection.recognizers.base import (
    PRIORITY_POSTAL,
    PatternRecognizer,
    compile_context,
    has_context,
    has_digit,
)
from psan.tool.detection.recognizers.prescan import ShapedSearch, Start, finditer_in, reaching, start
from psan.tool.text.document import Category, CharSpan, Document

#: above NER (0) and gazetteers (−10), and above a postal code alone: an address swallows its pieces
PRIORITY_ADDRESS = PRIORITY_POSTAL + 1

_UPPER = "A-ZÁÄÅÆČĆĎÉĚÍĹĽŁŇŃÓÔÖØŔŘŠŚŤÚŮÜÝŽŹŻĄĘ"
_LOWER = "a-záäåæčćďéěíĺľłňńóôöøŕřšśťúůüýžźżąęß"
_CAP = rf"[{_UPPER}][{_LOWER}]+"
#: a word of a street's name: capitalized, hyphenated ("Jean-Paul"), or an initial/abbreviation ("Kpt.", "J.")
_NAME_WORD = rf"(?:{_CAP}(?:-{_CAP})*\.?|[{_UPPER}]\.)"
_STREET_NOUNS = r"náměstí|nám\.|nábřeží|nábř\.|třída|tř\.|ulice|ul\.|sady|námestie|nábrežie|trieda|ulica"
_PREPOSITIONS = r"Na|U|K|Ke|Pod|Nad|Před|Za|Mezi|Při|Pri|Pred"
_NUMBER = r"(?P<number>\d{1,4}[a-zA-Z]?(?:[ \t]?/[ \t]?\d{1,4}[a-zA-Z]?)?)"
_UNITS = (r"let|roků|roky|rok|roka|rokov|dní|dnů|dny|den|dňa|hodin\w*|hod|minut\w*|měsíc\w*|mesiac\w*|týd\w*|"
          r"Kč|Sk|EUR|eur|€|%|km|m(?!\.[ \t]*\d)|cm|mm|kg|g|t|ks|kus\w*|osob\w*|osôb|krát|x|tis|mil|mld|h|min|"
          r"Sb|odst|písm|"
          r"years?|months?|days?|hours?|per|lat|år|let|dollars?|pounds?|euros?|zł|kr|SEK")
_NOT_UNIT = rf"(?![\w/]|[.,]\d|\s*(?:{_UNITS})\b)"
STREET_RE = re.compile(
    rf"(?<![\w.])(?P<name>"
    rf"(?:{_STREET_NOUNS})[ \t]+(?:{_CAP}[ \t]+){{0,2}}{_CAP}"        # náměstí Míru, třída Tomáše Bati
    rf"|(?:{_CAP}[ \t]+){{0,2}}{_CAP}[ \t]+(?:{_STREET_NOUNS})"           # Karlovo náměstí
    rf"|(?:{_PREPOSITIONS})[ \t]+(?:{_CAP}[ \t]+){{0,2}}{_CAP}"           # Na Příkopě, U Staré školy
    rf"|(?:{_CAP}[ \t]+){{0,2}}{_CAP})"                                   # Roblínská, Tomáše Bati, Husova
    rf"[ \t]+{_NUMBER}{_NOT_UNIT}")
_STREET_NOUN_RE = re.compile(rf"(?:^|\s)(?:{_STREET_NOUNS})(?:\s|$)")
_PREPOSITION_RE = re.compile(rf"^(?:{_PREPOSITIONS})\s")
#: adjectival and possessive street names: Roblínská, Dlouhá, Národní, Husova, Palackého
_ADJECTIVE_RE = re.compile(r"(?:á|ní|ova|ovo|ina|ino|ého)$")
#: nouns of legal and administrative text that end like adjectives but never name a street
NOT_STREETS = frozenset("""
usnesení nařízení ustanovení opatření sdělení oznámení řízení jednání podání vyjádření ujednání zasedání
přiznání prohlášení zjištění odvolání dovolání vyrozumění zmocnění pojištění rozhodnutí nálezu stanovení
příloha strana kapitola tabulka článek čl bod část oddíl hlava díl verze číslo položka zpráva sbírka
praha brno ostrava plzeň olomouc liberec bratislava košice
""".split())
ADDRESS_CONTEXT = ("bytem", "bydliště", "bydlištěm", "bydlisko", "trvale", "adresa", "adrese", "adresou",
                   "sídlo", "sídlem", "ulice", "ulici", "ul.", "doručovací", "pobyt", "pobytu", "bytom",
                   "místo podnikání", "provozovna", "provozovnou", "se sídlem", "kontaktní", "address")


@dataclass(frozen=True)
class AddressForm:
    """How one language writes the street part of an address (the rest is :func:`_grow`'s).

    ``street``: a regex of a street with its house number (group ``number``), or ``None`` where the
    Czech/Slovak rules of :data:`STREET_RE` apply; ``postcode``: the language's postal code;
    ``town_words``: the lower-case words a town's name may hold between its capitalized words
    ("Mníšek pod Brdy", "Stratford-upon-Avon"); ``flat``: a flat or suite after the number; ``loose``: a
    street without a street word ("Søndergade 52" in an English letter), an address only when a flat or
    a postcode follows it; ``loose_reach``: where the loose form can match, as :func:`prescan.reaching` takes it
    (shapes, the class that ends the run after the first character, the class of that end), ``None``: anywhere.
    """

    street: str | None
    postcode: str
    town_words: str
    flat: str
    loose: str | None = None
    loose_reach: tuple[tuple[Start, ...], str, str] | None = None


_EN_STREET_WORDS = (r"Street|St|Road|Rd|Avenue|Ave|Av|Lane|Ln|Drive|Dr|Boulevard|Blvd|Place|Pl|Court|Ct|Close|"
                    r"Crescent|Cres|Square|Sq|Terrace|Ter|Way|Gardens|Gdns|Grove|Row|Parkway|Pkwy|Highway|Hwy|"
                    r"Walk|Mews|Circle|Cir|Alley|Hill|Rise|Parade|Broadway|Green|Wharf|Quay")
_UK_POSTCODE = (r"(?:GIR ?0AA|(?:[A-PR-UWYZ][0-9][0-9]?|[A-PR-UWYZ][A-HK-Y][0-9][0-9]?|[A-PR-UWYZ][0-9][A-HJKPSTUW]"
                r"|[A-PR-UWYZ][A-HK-Y][0-9][ABEHMNPRVWXY]) [0-9][ABD-HJLNP-UW-Z]{2})")
_SV_STREET_WORDS = (r"gatan|vägen|gata|väg|gränd|torget|torg|stigen|backen|allén|allé|plan|leden|platsen|kajen|"
                    r"promenaden|esplanaden|stråket|slingan|bron|tået|vägen")
_PL_STREET_NOUNS = (r"ul\.|ulica|ulicy|ulicę|al\.|Al\.|aleja|alei|aleję|pl\.|plac|placu|os\.|osiedle|osiedlu|"
                    r"rondo|skwer|bulwar|wybrzeże")
_SL_STREET_WORDS = r"ulica|cesta|trg|pot|nabrežje|ulici|cesti|trgu|poti|nabrežju|sprehajališče|breg|drevored"

#: the English street (a number first) and loose street (capitalized words, then the number) as written plainly,
#: with a leading look-behind; ``ADDRESS_FORMS["en"]`` matches the same at the same places, faster
EN_STREET_PLAIN = (rf"(?<![\w.,/-])(?P<number>\d{{1,5}}[A-Za-z]?(?:-\d{{1,5}})?)[ \t]+(?:{_NAME_WORD}[ \t]+){{0,3}}"
                   rf"{_NAME_WORD}[ \t]+(?:{_EN_STREET_WORDS})\b\.?")
EN_LOOSE_PLAIN = rf"(?<![\w.])(?:{_NAME_WORD}[ \t]+){{0,2}}{_NAME_WORD}[ \t]+{_NUMBER}{_NOT_UNIT}"

#: the English loose street form starts with a capital after none of ``\w.``, and its words run on to the house
#: number through letters, dots, hyphens, spaces and tabs only: the first character after the capital that is none
#: of those is the number's digit (:func:`prescan.reaching`)
EN_LOOSE_REACH = ((start(f"[{_UPPER}]", not_before=r"[\w.]"),), rf"[^{_UPPER}{_LOWER}. \t\-]", r"\d")

#: the street part of an address, per language (Czech and Slovak: :data:`STREET_RE` and its rules)
ADDRESS_FORMS: dict[str, AddressForm] = {
    # the English street and loose forms start with their first character's class, the look-behind after it
    # (EN_STREET_PLAIN and EN_LOOSE_PLAIN are the same regexes as written plainly; see their tests)
    "en": AddressForm(
        rf"(?P<number>\d(?<![\w.,/-]\d)\d{{0,4}}[A-Za-z]?(?:-\d{{1,5}})?)[ \t]+(?:{_NAME_WORD}[ \t]+){{0,3}}"
        rf"{_NAME_WORD}[ \t]+(?:{_EN_STREET_WORDS})\b\.?",
        rf"{_UK_POSTCODE}|(?:[A-Z]{{2}}[ \t]+)?\d{{5}}(?:-\d{{4}})?",
        r"upon|on|in|le|by|the|of", r"(?:Apt|Apartment|Flat|Suite|Unit|Ste)\.?[ \t]*\d{1,5}[A-Za-z]?",
        rf"[{_UPPER}](?<![\w.][{_UPPER}])(?:[{_LOWER}]+(?:-{_CAP})*\.?|\.)[ \t]+(?:{_NAME_WORD}[ \t]+){{0,2}}"
        rf"{_NUMBER}{_NOT_UNIT}", EN_LOOSE_REACH),
    "cs": AddressForm(None, r"(?:CZ-?)?\d{3}[ \t]?\d{2}", r"pod|nad|na|u|v|ve|při|-", r"(?:byt|č\. ?b\.)[ \t]*\d{1,4}"),
    "sk": AddressForm(None, r"(?:SK-?)?\d{3}[ \t]?\d{2}", r"pod|nad|na|pri|v|vo|-", r"(?:byt|č\. ?b\.)[ \t]*\d{1,4}"),
    "pl": AddressForm(
        rf"(?<![\w.])(?:{_PL_STREET_NOUNS})[ \t]*(?:(?:\d{{1,2}}[ \t]+)?(?:{_NAME_WORD}|[IVX]+|[a-ząćęłńóśźż]{{1,3}})"
        rf"[ \t]+){{0,3}}{_NAME_WORD}(?:[ \t]+[IVX]+)?[ \t]+{_NUMBER}{_NOT_UNIT}",
        r"\d{2}-\d{3}", r"nad|pod|w|na|-", r"(?:m|lok|mieszk)\.[ \t]*\d{1,4}[a-z]?"),
    "sv": AddressForm(
        rf"(?<![\w.])(?:{_NAME_WORD}[ \t]+){{0,2}}[{_UPPER}][{_LOWER}]*(?:{_SV_STREET_WORDS})[ \t]+{_NUMBER}"
        rf"(?:[ \t]?[A-H]\b)?{_NOT_UNIT}",
        r"(?:SE-?)?\d{3}[ \t]?\d{2}", r"i|på|vid|-", r"(?:lgh|lägenhet)\.?[ \t]*\d{1,5}|\d[ \t]?tr\.?"),
    "sl": AddressForm(
        rf"(?<![\w.])(?:(?:{_NAME_WORD}[ \t]+){{0,2}}(?:{_NAME_WORD}|[a-zčšž]+)[ \t]+(?:{_SL_STREET_WORDS})"
        rf"|(?:Ulica|Cesta|Trg|Pot|Nabrežje)[ \t]+(?:[{_UPPER}{_LOWER}][{_LOWER}]*\.?[ \t]+){{0,3}}"
        rf"[{_UPPER}{_LOWER}][{_LOWER}]+)[ \t]+{_NUMBER}[a-z]?{_NOT_UNIT}",
        r"(?:SI-?)?\d{4}", r"pri|ob|na|v|nad|pod|-", r"(?:stanovanje)[ \t]*\d{1,4}"),
}
#: the shapes the street form's matches start with, per language (:mod:`psan.tool.detection.recognizers.prescan`):
# English,
#: the house number's first digit after none of ``\w.,/-``, then a digit, a letter, a dash or a space
STREET_STARTS: dict[str, tuple[Start, ...]] = {
    "en": (start(r"\d", r"[\dA-Za-z \t-]", not_before=r"[\w.,/-]"),),
}
ADDRESS_CONTEXT_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "en": ("address", "lives at", "living at", "lived at", "resides at", "residing at", "moved to", "home at",
           "located at", "sent to", "deliver to", "postcode", "zip"),
    "pl": ("adres", "zamieszkały", "zamieszkała", "zamieszkania", "siedziba", "siedzibą", "zameldowany"),
    "sv": ("adress", "bor på", "bostad", "folkbokförd", "besöksadress", "postadress"),
    "sl": ("naslov", "naslovu", "stanuje", "bivališče", "prebivališče", "sedež"),
}
#: the separator between two parts of an address: a comma, spaces, one line break
_SEP = r"[ \t]*(?:,[ \t]*\n?|\n)?[ \t]*"
#: a house number, district or flat number must not run on into a decimal or another number
_END_NUMBER = r"(?![\w/]|[.,]\d)"
#: a word of a town's name: capitalized or in capitals ("KOKKOLA" on an envelope's last line)
_TOWN_WORD = rf"(?:{_CAP}|[{_UPPER}]{{2,}}(?![{_LOWER}]))"
#: what may follow a town at the end of a clause
_CLAUSE_END = re.compile(r"[ \t]*(?:[.;:)\]\n!?]|$|,[ \t]*(?:[a-z]|\n|$))")


class _Grower:
    """The compiled tail patterns of one language's addresses (flat, postcode, town, district)."""

    def __init__(self, form: AddressForm) -> None:
        self.flat = re.compile(rf"{_SEP}(?:{form.flat}){_END_NUMBER}") if form.flat else None
        self.postcode = re.compile(rf"{_SEP}(?:{form.postcode}){_END_NUMBER}")
        town = rf"{_TOWN_WORD}(?:(?:[ \t]*[-–][ \t]*|[ \t]+(?:(?:{form.town_words})[ \t]+)?){_TOWN_WORD}){{0,2}}"
        self.town = re.compile(rf"{_SEP}(?P<town>{town})")
        self.district = re.compile(rf"[ \t]+\d{{1,2}}{_END_NUMBER}(?:[ \t]*[-–][ \t]*{_CAP}(?:[ \t]+{_CAP})?)?")
        #: the plain-space joints of a town's words ("Karlovy Vary" is listed, "Brno Telefon" is not)
        self.joint = re.compile(rf"[ \t]+(?={_TOWN_WORD})")
        #: what a flat, a postcode or a town starts with after the separator (a capital, a digit or the flat's
        #: form): where it fails none of them can match, one test instead of three (most numbers after
        #: capitalized words are no address: "Article 6 of the Convention")
        self.lead = re.compile(rf"{_SEP}(?:[{_UPPER}\d]" + (rf"|{form.flat})" if form.flat else ")"))


def _town_ends(text: str, match: re.Match[str], grower: _Grower, language: str) -> list[int]:
    """Where the town of ``match`` may end, longest first: all its words, then up to its first plain-space joint
    (a hyphen or a connector joins surely: "Mníšek pod Brdy"; a space may join a town to the next word:
    "Brno Telefon"), unless the whole is a listed place ("Karlovy Vary")."""
    start, end = match.span("town")
    for joint in grower.joint.finditer(text, start, end):
        before = text[start:joint.start()].split()
        if before and before[-1].islower():
            continue
        return [end] if is_place_name(text[start:end], language) else [end, joint.start()]
    return [end]


def _grow(text: str, end: int, grower: _Grower, language: str) -> tuple[int, bool, bool]:
    """The end of the address whose street ends at ``end``, whether a town or postcode followed, and whether
    a flat or a postcode did (what only an address has)."""
    grown = strong = False
    if not grower.lead.match(text, end):
        return end, grown, strong
    if grower.flat and (m := grower.flat.match(text, end)):
        end, strong = m.end(), True
    postcode_before = grower.postcode.match(text, end)
    if postcode_before:
        end, grown, strong = postcode_before.end(), True, True
    for second in (False, True):  # a town, then its region or country after a comma ("Washington, DC 20500")
        town = grower.town.match(text, end)
        if town is None or second and not any(ch in ",\n" for ch in text[end:town.start("town")]):
            break
        ends = _town_ends(text, town, grower, language)
        if postcode_before:
            ends.reverse()  # the postcode vouches for a town: its shortest reading ("Brno", not "Brno Telefon")
        for town_end in ends:
            district = grower.district.match(text, town_end)
            after = district.end() if district else town_end
            postcode_after = grower.postcode.match(text, after)
            if (postcode_before or postcode_after or district or _CLAUSE_END.match(text, after)
                    or is_place_name(text[town.start("town"):town_end], language)):
                break
        else:
            break
        end, grown = (postcode_after.end() if postcode_after else after), True
        strong = strong or postcode_after is not None
        postcode_before = None  # a region or country after the town needs support of its own
    return end, grown, strong


def is_place_name(name: str, language: str) -> bool:
    """A town, region or country the language's gazetteer lists (in any listed case form)."""
    from psan.tool.detection.recognizers.gazetteer import place_word  # the lists load at first use only
    return place_word(name.strip(" \t,."), language)


class AddressRecognizer(PatternRecognizer):
    """A postal address of one language as one ``ADDRESS`` span (see the module docstring)."""

    def __init__(self, language: str) -> None:
        form = ADDRESS_FORMS[language]
        context = ADDRESS_CONTEXT + ADDRESS_CONTEXT_BY_LANGUAGE.get(language, ())
        super().__init__(f"address_{language}", "ADDRESS", Category.LOCATION, form.street or STREET_RE,
                         context=context, score=0.8, context_score=0.95, priority=PRIORITY_ADDRESS,
                         starts=STREET_STARTS.get(language))
        self.language = language
        self.czech = form.street is None
        self.grower = _Grower(form)
        self.loose = re.compile(form.loose) if form.loose else None
        self.loose_reach = form.loose_reach

    def warm_up(self) -> None:
        """The language's gazetteer lists, which tell a town after a comma from any capitalized word."""
        super().warm_up()
        is_place_name("Praha", self.language)

    def prefilter(self, text: str) -> bool:
        return has_digit(text)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.prefilter(text):
            return []
        spans = []
        for match in self.matches(text):
            found = self._czech(text, match) if self.czech else (match.start(), match.end(), self.score)
            if found is None:
                continue
            start, end, score = found
            end, grown, _ = _grow(text, end, self.grower, self.language)
            if grown or has_context(text, start, end, self.context, before=60, after=0):
                score = max(score, self.context_score)
            spans.append(CharSpan(start, end, self.type, self.category, self.name, score, self.priority))
        if self.loose is not None:
            taken = [(s.start, s.end) for s in spans]
            at = reaching(text, *self.loose_reach) if self.loose_reach else None
            lead = self.grower.lead.match  # where it fails, ``_grow`` finds no flat and no postcode (most matches)
            for match in finditer_in(self.loose, text, at):
                if lead(text, match.end()) is None:
                    continue
                start = match.start()
                if any(a <= start < b for a, b in taken):
                    continue
                end, _, strong = _grow(text, match.end(), self.grower, self.language)
                if strong:  # "Søndergade 52, Apt. 656" or "…, 8200 Fauske": a flat or a postcode says address
                    spans.append(CharSpan(start, end, self.type, self.category, self.name, self.context_score,
                                          self.priority))
        return spans

    def _czech(self, text: str, match: re.Match[str]) -> tuple[int, int, float] | None:
        """A Czech or Slovak street with its number: where it starts and ends and its score, ``None``: no street."""
        name, number = match.group("name"), match.group("number").replace(" ", "").replace("\t", "")
        head = name.split()[-1]
        if "/" in number and len(number.split("/")[1].rstrip("abcdefghABCDEFGH")) == 4:
            return None  # 89/2012, 2016/679: a law or a file number with its year
        if "/" in number and len(number.split("/")[0]) == 4 and number[:2] in ("19", "20"):
            return None
        if head.casefold() in NOT_STREETS or name.split()[0].casefold() in NOT_STREETS:
            return None
        start, end = match.start("name"), match.end("number")
        context = has_context(text, start, end, self.context, before=60, after=0)
        place_after = bool(_FOLLOWED_BY_PLACE.match(text, end))
        if _STREET_NOUN_RE.search(f" {name} ") or _PREPOSITION_RE.match(name):
            score = 0.9 if context or place_after else 0.8
        elif _ADJECTIVE_RE.search(head) and len(head) > 3:
            if not ("/" in number or context or place_after):
                return None
            start = match.end("name") - len(head)  # "Provozovna Husova 240/5": the street is the adjective
            score = 0.9 if context else 0.75
        else:
            if not (context or _FOLLOWED_BY_POSTCODE.match(text, end)):
                return None  # "Tomáše Bati 5" needs an address word or a postcode: capitals + number is anything
            score = 0.7
        # a preposition at a sentence start ("Na 3 místech") cannot reach here: the name needs a capital word
        return start, end, score


#: after a Czech number: ", 252 10" (postal code) or ", Praha" / ", Mníšek pod Brdy" (a town)
_FOLLOWED_BY_PLACE = re.compile(rf"[ \t]*,?[ \t]+(?:\d{{3}} ?\d{{2}}\b|[{_UPPER}][{_LOWER}]+)")


_FOLLOWED_BY_POSTCODE = re.compile(r"[ \t]*,?[ \t]+\d{3} ?\d{2}(?!\d)")


def address_recognizer(language: str) -> AddressRecognizer | None:
    """The address recognizer of ``language``, ``None`` for a language without an address form."""
    return AddressRecognizer(language) if language in ADDRESS_FORMS else None

#: Royal Mail postcode: outward code (area + district) and inward code (sector + unit)
UK_POSTCODE_RE = re.compile(
    r"(?<![\w-])(?P<code>GIR ?0AA|(?:[A-PR-UWYZ][0-9][0-9]?|[A-PR-UWYZ][A-HK-Y][0-9][0-9]?"
    r"|[A-PR-UWYZ][0-9][A-HJKPSTUW]|[A-PR-UWYZ][A-HK-Y][0-9][ABEHMNPRVWXY])(?P<space> ?)[0-9][ABD-HJLNP-UW-Z]{2})"
    r"(?![\w-])")
UK_CONTEXT = ("postcode", "post code", "address", "addressed", "lives at", "living at", "resides", "residing",
              "street", "road", "lane", "avenue", "london", "flat", "house")


#: the shapes its matches start with: an area letter after none of ``\w-``, then a digit or a letter ("GIR" too)
UK_POSTCODE_STARTS = (start("[A-PR-UWYZ]", "[0-9A-IK-Y]", not_before=r"[\w-]"),)


class UkPostcodeRecognizer(PatternRecognizer):
    """UK postcodes (``SW1A 1AA``, ``M1 1AE``); the rare unspaced form only after an address word."""

    #: every match ends in the inward code: a digit and two letters (see :class:`psan.tool.text.document.Recognizer`),
    #: searched for only where a digit and two such capitals stand
    trigger = ShapedSearch(re.compile(r"\d[ABD-HJLNP-UW-Z]{2}(?![\w-])"),
                           (start(r"\d", "[ABD-HJLNP-UW-Z]", "[ABD-HJLNP-UW-Z]"),))

    def __init__(self) -> None:
        super().__init__("postcode_uk", "POSTAL_CODE", Category.LOCATION, UK_POSTCODE_RE,
                         context=UK_CONTEXT, score=0.85, context_score=0.95, priority=PRIORITY_POSTAL,
                         starts=UK_POSTCODE_STARTS)
        self.wide_context = compile_context(UK_CONTEXT)

    def prefilter(self, text: str) -> bool:
        return has_digit(text)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.prefilter(text):
            return []
        spans = []
        for match in self.matches(text):
            start, end = match.span("code")
            context = has_context(text, start, end, self.wide_context, before=80, after=0)
            if not match.group("space") and not context:
                continue
            spans.append(CharSpan(start, end, self.type, self.category, self.name,
                                  self.context_score if context else self.score, self.priority))
        return spans
