"""Street addresses with house numbers (Czech, Slovak) and UK postcodes.

Why: the street of a home address identifies a person as surely as a name, and NER models tag
the street name without its house number ("Roblínská" of "Roblínská 1284/17") or not at all
("Na Příkopě 12").  A street with its number is one span here, so the whole address is replaced.

Czech/Slovak streets are recognized only in shapes that ordinary text rarely takes:

* a street noun: ``náměstí Míru 15``, ``Karlovo nám. 13``, ``třída Tomáše Bati 5``;
* a prepositional name: ``Na Příkopě 12``, ``U Kříže 8``, ``Pod Vinohradem 3`` (not "V"/"Ve":
  "V Praze 5" is a city district);
* an adjectival or possessive name (``Roblínská``, ``Dlouhá``, ``Husova``, ``Palackého``,
  ``Národní``) with a number ``1284/17`` (descriptive/orientation number), or with any number
  when an address word (``bytem``, ``sídlo``, ``ul.`` …) stands before it or a postal code or a
  town follows.

A number followed by a unit (``let``, ``Kč``, ``%``, ``km`` …) is not a house number, and a
``/`` part of four digits is a year ("Nařízení 2016/679", "zákon 89/2012"), never an address.

UK postcodes follow the Royal Mail format (outward code, space, inward code ``SW1A 1AA``) with
its letter restrictions; without the space they count only after an address word.
"""
from __future__ import annotations

import re

from psan.tool.document import Category, CharSpan, Document
from psan.tool.recognizers.base import PRIORITY_POSTAL, PatternRecognizer, compile_context, has_context, has_digit

#: above NER (0) and gazetteers (−10): a street with its number beats the bare street name
PRIORITY_ADDRESS = PRIORITY_POSTAL + 1

_UPPER = "A-ZÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ"
_LOWER = "a-záäčďéěíĺľňóôŕřšťúůýž"
_CAP = rf"[{_UPPER}][{_LOWER}]+"
_STREET_NOUNS = r"náměstí|nám\.|nábřeží|nábř\.|třída|tř\.|ulice|ul\.|sady|námestie|nábrežie|trieda|ulica"
_PREPOSITIONS = r"Na|U|K|Ke|Pod|Nad|Před|Za|Mezi|Při|Pri|Pred"
_NUMBER = r"(?P<number>\d{1,4}[a-zA-Z]?(?:/\d{1,4}[a-zA-Z]?)?)"
_UNITS = (r"let|roků|roky|rok|roka|rokov|dní|dnů|dny|den|dňa|hodin\w*|hod|minut\w*|měsíc\w*|mesiac\w*|týd\w*|"
          r"Kč|Sk|EUR|eur|€|%|km|m|cm|mm|kg|g|t|ks|kus\w*|osob\w*|osôb|krát|x|tis|mil|mld|h|min|Sb|odst|písm")
STREET_RE = re.compile(
    rf"(?<![\w.])(?P<name>"
    rf"(?:{_STREET_NOUNS})[ \t]+(?:{_CAP}[ \t]+){{0,2}}{_CAP}"        # náměstí Míru, třída Tomáše Bati
    rf"|(?:{_CAP}[ \t]+){{0,2}}{_CAP}[ \t]+(?:{_STREET_NOUNS})"           # Karlovo náměstí
    rf"|(?:{_PREPOSITIONS})[ \t]+(?:{_CAP}[ \t]+){{0,2}}{_CAP}"           # Na Příkopě, U Staré školy
    rf"|(?:{_CAP}[ \t]+){{0,2}}{_CAP})"                                   # Roblínská, Tomáše Bati, Husova
    rf"[ \t]+{_NUMBER}(?![\w/]|[.,]\d|\s*(?:{_UNITS})\b)")
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
#: after the number: ", 252 10" (postal code) or ", Praha" / ", Mníšek pod Brdy" (a town)
_FOLLOWED_BY_PLACE = re.compile(rf",?[ \t]+(?:\d{{3}} ?\d{{2}}\b|[{_UPPER}][{_LOWER}]+)")


class CzechStreetRecognizer(PatternRecognizer):
    """A Czech or Slovak street with its house number as one ``STREET`` span (see the module docstring)."""

    def __init__(self, language: str = "cs") -> None:
        super().__init__(f"street_{language}", "STREET", Category.LOCATION, STREET_RE,
                         context=ADDRESS_CONTEXT, score=0.7, context_score=0.9, priority=PRIORITY_ADDRESS)

    def prefilter(self, text: str) -> bool:
        return has_digit(text)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.prefilter(text):
            return []
        spans = []
        for match in self.regex.finditer(text):
            span = self._judge(text, match)
            if span is not None:
                spans.append(span)
        return spans

    def _judge(self, text: str, match: re.Match[str]) -> CharSpan | None:
        name, number = match.group("name"), match.group("number")
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
            if not context:
                return None  # "Tomáše Bati 5" needs an address word: two capitalized words + number is anything
            score = 0.7
        # a preposition at a sentence start ("Na 3 místech") cannot reach here: the name needs a capital word
        return CharSpan(start, end, self.type, self.category, self.name, score, self.priority)


#: Royal Mail postcode: outward code (area + district) and inward code (sector + unit)
UK_POSTCODE_RE = re.compile(
    r"(?<![\w-])(?P<code>GIR ?0AA|(?:[A-PR-UWYZ][0-9][0-9]?|[A-PR-UWYZ][A-HK-Y][0-9][0-9]?"
    r"|[A-PR-UWYZ][0-9][A-HJKPSTUW]|[A-PR-UWYZ][A-HK-Y][0-9][ABEHMNPRVWXY])(?P<space> ?)[0-9][ABD-HJLNP-UW-Z]{2})"
    r"(?![\w-])")
UK_CONTEXT = ("postcode", "post code", "address", "addressed", "lives at", "living at", "resides", "residing",
              "street", "road", "lane", "avenue", "london", "flat", "house")


class UkPostcodeRecognizer(PatternRecognizer):
    """UK postcodes (``SW1A 1AA``, ``M1 1AE``); the rare unspaced form only after an address word."""

    #: every match ends in the inward code: a digit and two letters (see :class:`psan.tool.document.Recognizer`)
    trigger = re.compile(r"\d[ABD-HJLNP-UW-Z]{2}(?![\w-])")

    def __init__(self) -> None:
        super().__init__("postcode_uk", "POSTAL_CODE", Category.LOCATION, UK_POSTCODE_RE,
                         context=UK_CONTEXT, score=0.85, context_score=0.95, priority=PRIORITY_POSTAL)
        self.wide_context = compile_context(UK_CONTEXT)

    def prefilter(self, text: str) -> bool:
        return has_digit(text)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.prefilter(text):
            return []
        spans = []
        for match in self.regex.finditer(text):
            start, end = match.span("code")
            context = has_context(text, start, end, self.wide_context, before=80, after=0)
            if not match.group("space") and not context:
                continue
            spans.append(CharSpan(start, end, self.type, self.category, self.name,
                                  self.context_score if context else self.score, self.priority))
        return spans
