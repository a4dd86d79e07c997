"""Whole mentions: a found part of a name, place, amount or count grows to the whole mention.

Why: a mention is masked only when every character of it is covered, and the English NER stops
short of what an annotator (the Text Anonymization Benchmark) marks as one mention – the
original-language name in brackets after a court ("the Warsaw District Court (Sąd Rejonowy)", 35
of the 83 organisations still missed on tab-dev), the rest of a court's name ("the Mersin Civil
Court" of "… of First-instance"), the chamber of a court ("Ninth Chamber of the Istanbul Assize
Court"), the country after a town ("Lublin, Poland"), the thing counted ("79 packages", "seven other
persons"), the converted sum ("PLN 552.21 [approx. EUR 138]").  The part that stays in clear
("Sąd Rejonowy", "First-instance", "Poland") is often what identifies the court or the place.

A step on the candidates (after the recognizers and NER, before merging), cheap: a few anchored
regexes at the two edges of each candidate, no scan of the whole text.  Each rule needs the found
part as evidence, so a rule never creates a mention out of nothing:

* **brackets** after an organisation or place (and a candidate that ends inside an open bracket,
  "the Vienna Medical Association (Ärztekammer"): the bracket joins when it names something – it
  holds a letter, no digit, no "§", does not start with a reference word ("see", "Article",
  "cited", "no.") and is not a defined short name ("The Turkish Government (“the Government”)":
  the short name repeats a generic word); square brackets after a name are the editor's ("[GC]");
  after an amount the bracket joins when it holds another amount or a currency
  ("(TRY ‑ approximately 9,200 euros (EUR))", "[approx. EUR 138]", "(euros)");
* **possessive** "’s" after an organisation ("the Employment Tribunal's");
* **quotes** around a name (“Eastern Mediterranean University”), or the closing quote of one the
  candidate opened (the “Centre of Higher Studies”); a company's **legal form** after its name, also
  when NER took the name for a person ("Robert Bosch GmbH");
* **rest of an institution's name**: after an organisation ending in an institution noun (Court,
  Tribunal, Office, Authority …, :data:`INSTITUTION_HEADS`), "of"/"for"/"in" + capitalized words
  ("of First-instance", "of General Jurisdiction", "for Criminal Matters", "in Wodzisław Śląski");
  a month, "Article" or a title ends it;
* **division or office before an organisation**: "Ninth Chamber of", "8th Section of", "Appeal Committee
  of", "Commissioner of"; a one-word organisation with "court", "prosecutor" … after it;
* **two organisations joined by "of"** ("the Faculty of Medicine" + "of the Kayseri Erciyas
  University", "the London Borough" + "of Southwark Council"), or by "and" when the second has no
  article of its own ("the Vienna Labour" + "and Social Court", "the Office for Veterans" + "and
  Persecuted Persons") and a place after a place or
  organisation joined by a comma ("Lublin, Poland", "Famagusta, Kennedy Avenue") – not inside a
  list ("Warsaw, Kraków and Gdańsk" stay apart); the first may be a town NER typed as a nationality or a
  product ("Zbrosławice" NORP + ", Poland": the joined span is the place's), the second a street NER took for
  a person ("Makarios Avenue");
* **places**: "district/municipality/county … of" before ("county of Jämtland"), a direction
  before ("northern Cyprus", also when NER typed the place a product), a place noun after ("Idre Nya Sami
  village", "Salzburg municipal cemetery", "Beyoğlu court"), a hyphenated second part ("Turkish-Cypriot",
  "London-based");
* **nationality + state body**: "Turkish General Staff", "French Republic", "British army"; and + the noun
  of a person's nationality ("Turkish national", as :mod:`psan.tool.detection.recognizers.demographic` spans it);
* **counted things**: a number followed by a plural noun ("79 packages", "seven other persons",
  "22,000 ecstasy tablets", "ten plots of land"); units of time are durations (their own
  recognizer) and are left alone, and so are counts up to four ("two bedrooms", "three orders"):
  they are in every story;
* **"approximately"** before an amount; **"no."** before a number (and a land-registry noun before
  that: "plot no. 900 of block D", and the map sheet after it, "plot no. 77, sheet/plan 12/40"; a file or
  application number keeps its "no." outside, "no.
  18403/91", unless a land-registry noun precedes).

English only (the connecting words are English); other languages pass through unchanged.
A candidate the never-personal filter drops (:mod:`psan.tool.detection.nonpersonal`: "Council", "the Court") is
not grown, so "Council's" cannot escape it.  A grown candidate keeps type, category, source, score and
priority; two joined candidates become
one (the first one's type).  The result is still only a candidate: merging, the never-personal
filter and the annotator decide as before.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from operator import attrgetter

from psan.tool.detection.nonpersonal import before_dollar, is_never_personal
from psan.tool.detection.recognizers.demographic import NATIONALITIES, NATIONALITY_NOUNS
from psan.tool.text.document import Category, CharSpan

__all__ = ["DIVISION_WORDS", "GROWS_AT_END", "INSTITUTION_HEADS", "LANGUAGES", "NO_BEFORE", "PLACE_WORDS",
           "ends_in_no", "extend_mentions"]

LANGUAGES = frozenset({"en"})

#: the last word of an organisation after which "of/for/in + capitalized words" continue its name
INSTITUTION_HEADS = frozenset("""
court courts tribunal office authority authorities directorate council prosecutor prosecutors police university
faculty hospital prison committee board agency institute administration inspectorate department ministry fund
association union service chamber section division registry bureau commission corporation centre center
""".split())
#: capitalized words that never continue a name: months, references, titles
_STOP_CAPS = frozenset("""
January February March April May June July August September October November December
Article Articles Rule Rules Protocol Convention Section Sections Mr Mrs Ms Dr Judge President The A An
""".split())
#: numbers that count time are durations ("two years"), not counted things
_TIME_UNITS = frozenset("""
years year months month weeks week days day hours hour minutes minute seconds times percent
""".split())
#: lower-case words that are no plural nouns although they end in "s"
_NOT_PLURAL = frozenset("""
is was has his its this thus as us yes bus gas plus less unless across always sometimes perhaps whereas
ours yours hers theirs towards afterwards besides
""".split())

_NAME_CATS = (Category.ORGANIZATION, Category.LOCATION)
#: NER types a small model gives a town it does not know ("Zbrosławice" NORP, "Lebanon" PRODUCT): such a candidate
#: joins the country after it ("Zbrosławice, Poland") and takes a direction before it ("southern Lebanon")
_MISTYPED_PLACE_TYPES = frozenset({"NORP", "PRODUCT", "FAC"})
#: a street NER took for a person ("Makarios Avenue"): joins the town before it ("Larnaca, Makarios Avenue")
_STREET_END = re.compile(r"[ \t](?:Avenue|Street|Road|Boulevard|Square|Lane)$")
#: a nationality adjective or its plural noun by its ending ("Turkish", "Russians", "Chinese"); listed ones apart
_NATIONALITY_WORD = re.compile(r"(?:ish|ian|ians|ese)$")
_LOCATION_TYPES = frozenset({"GPE", "LOC", "FAC", "LOCATION", "PROVINCE", "COUNTY"})
_CAP = r"[A-Z][\w'’]*(?:-[\w'’]+)*"

# ---- brackets
_OPEN = re.compile(r"[ \t]?[(\[]")
_REFERENCE_START = re.compile(r"[\s“”\"'‘’]*(?:see|cf|cited|Art|Article|Articles|Rule|Rules|Section|no|nos|No|Nos|"
                              r"paragraph|para|§|p|pp|hereinafter|emphasis|translation|ibid|judgment|decision)\b")
_HAS_DIGIT = re.compile(r"\d")
_DEFINITION = re.compile(r"[“\"‘']\s*(?:the|The)\s[^“”\"]+[”\"’']")
_HAS_AMOUNT = re.compile(r"\d|\b(?:EUR|USD|GBP|CHF|PLN|TRY|TRL|YTL|SEK|euros?|dollars?|pounds?|liras?|francs?)\b",
                         re.IGNORECASE)
_MAX_BRACKET = 120

# ---- organisations
_POSSESSIVE = re.compile(r"['’]s\b")
_REST_OF_NAME = re.compile(rf"[ \t]+(?:of|for|in)[ \t]+(?:the[ \t]+)?"
                           rf"(?P<w>{_CAP}(?:[ \t]+(?:and[ \t]+)?{_CAP}){{0,4}})")
#: a division or office of an organisation, before "of" ("Ninth Chamber of the …", "Commissioner of the …")
DIVISION_WORDS = frozenset("""
Chamber Section Division Department Branch Committee Board Faculty Panel Bench Governor Director Mayor Commissioner
Ombudsman Parliament Assembly
""".split())
#: a place's kind before "of" ("county of Jämtland", "District of Famagusta", "Mayor of Bodrum")
PLACE_WORDS = frozenset("""
district districts borough boroughs municipality municipalities county counties province provinces region regions
village villages town towns city commune communes department départment départements canton cantons parish island
islands sub-district mayor governor governorship
""".split())
_DIVISION_BEFORE = re.compile(
    r"(?:\b(?:\d{1,2}(?:st|nd|rd|th)|First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|"
    rf"Twelfth|[A-Z][a-z]+)[ \t]+)?\b(?:{'|'.join(sorted(DIVISION_WORDS))})[ \t]+of[ \t]+(?:the[ \t]+)?$")
_JOIN_OF = re.compile(r"[ \t]+of[ \t]+(?:the[ \t]+)?")
#: "the Vienna Labour" + "and" + "Social Court": a coordination inside one name (the second part has no article)
_JOIN_AND = re.compile(r"[ \t]+and[ \t]+")
_ARTICLE = re.compile(r"(?:The|A|An)\b")
_LIST_AFTER = re.compile(r"(?:,|[ \t]+and|[ \t]+or)[ \t]+[A-Z]")
_LIST_BEFORE = re.compile(r"[A-Z][\w'’.-]*,[ \t]+$")

# ---- places
_PLACE_BEFORE = re.compile(r"\b(?:[Dd]istricts?|[Bb]oroughs?|[Mm]unicipality|[Mm]unicipalities|[Cc]ounty|[Cc]ounties|"
                           r"[Pp]rovinces?|[Rr]egions?|[Vv]illages?|[Tt]owns?|[Cc]ity|[Cc]ommunes?|[Dd][eé]partements?|"
                           r"[Cc]antons?|[Pp]arish|[Ii]slands?|[Ss]ub-district|Mayor|Governor|Governorship)"
                           r"[ \t]+of[ \t]+$")
_DIRECTIONS = ("northern", "southern", "eastern", "western", "central", "north-eastern", "north-western",
               "south-eastern", "south-western", "North", "north", "South", "south", "East", "east", "West", "west")
_DIRECTION_BEFORE = re.compile(rf"\b(?:{'|'.join(_DIRECTIONS)})[ \t]+$")
_PLACE_NOUNS = ("village|villages|town|city|district|municipality|county|province|region|prison|cemetery|hospital|"
                "university|school|court|courts|prosecutor|police|gendarmerie|river|lake|valley|mountains?|street|"
                "avenue|road|square|camp|station|airport|harbour|port|mosque|church|monastery|factory|mine|farm|"
                "quarter|neighbourhood|area")
_PLACE_NOUN_AFTER = re.compile(rf"(?:[ \t]+(?:municipal|city|state|regional|district|central|military|"
                               rf"[A-Z]-type|F-type|local|public))?[ \t]+(?:{_PLACE_NOUNS})\b")
_HYPHEN_PART = re.compile(r"[-‑](?:[A-Z][\w'’]+|based|born|registered)\b")
#: an organisation NER took for a one-word name, with the institution after it ("the Konak court")
_INSTITUTION_AFTER = re.compile(r"[ \t]+(?:court|courts|prosecutor|police|prison|hospital|gendarmerie)\b")

# ---- nationality + state body, nationality + the noun of a person's nationality ("Turkish national": the
# demographic recognizer's phrase, so the two are one span)
_NATIONALITY_NOUN_AFTER = re.compile(rf"[ \t]+{NATIONALITY_NOUNS}\b")
_STATE_BODY_AFTER = re.compile(r"[ \t]+(?:General[ \t]+Staff|Republic|Army|Navy|Air[ \t]+Force|Parliament|Embassy|"
                               r"Consulate|army|navy|air[ \t]+force|police|gendarmerie|embassy|consulate|"
                               r"intelligence[ \t]+service|secret[ \t]+service|armed[ \t]+forces)\b")

# ---- counts and amounts
#: function words are never the adjective between a number and its noun ("in 1998 the applicants")
_FUNCTION = (r"(?!(?:the|a|an|his|her|their|its|our|of|in|on|at|to|and|or|was|were|is|are|had|has|have|by|for|"
             r"with|from|that|which|who|this|these|those)\b)")
_COUNTED = re.compile(rf"[ \t]+(?:{_FUNCTION}[a-z]+-?[a-z]*[ \t]+)?"
                      r"(?P<noun>[a-z][a-z-]*[a-rt-z]s)\b(?P<of>[ \t]+of[ \t]+[a-z]+\b)?")
_APPROX_BEFORE = re.compile(r"\b(?:approximately|approx\.|about|around|some|nearly|almost|over|under|"
                            r"more[ \t]+than|less[ \t]+than)[ \t]+$", re.IGNORECASE)
NO_BEFORE = re.compile(r"(?:\b(?P<noun>plots?|parcels?|sheets?|plans?|blocks?|lots?|flats?|apartments?|houses?|"
                        r"buildings?|rooms?|cells?)[ \t]+)?\b[Nn]o\.[ \t]*$")
#: "plot no. 412 of block F", "plot no. 77, sheet/plan 12/40": the map sheet or block that locates the plot
_OF_BLOCK = re.compile(r"(?:[ \t]+of|,)[ \t]+(?:block|sheet|plan|plot|parcel)(?:/(?:sheet|plan))?[ \t]+"
                       r"(?:no\.[ \t]*)?[A-Z0-9][\w./-]*\b")
_NUMBER_TYPES = frozenset({"CARDINAL", "QUANTITY", "CASE_NUMBER"})
#: "two bedrooms", "three orders": counts this small are in every story and single nobody out
_FEW = frozenset({"one", "two", "three", "four", "1", "2", "3", "4", "both"})


def _bracket_end(text: str, start: int) -> int | None:
    """End (after the closing bracket) of the bracket opening at ``text[start]``, nested once, on one line."""
    close = {"(": ")", "[": "]"}[text[start]]
    depth = 0
    limit = min(len(text), start + _MAX_BRACKET)
    for i in range(start, limit):
        ch = text[i]
        if ch == "\n":
            return None
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                return i + 1 if ch == close else None
    return None


def _names_something(content: str) -> bool:
    """Bracket content that is a name or translation, not a reference ("see …", "Article 6", "no. 123")
    nor a defined short name ("“the Government”": the long name before it is what identifies)."""
    return (any(ch.isalpha() for ch in content) and not _HAS_DIGIT.search(content) and "§" not in content
            and _REFERENCE_START.match(content) is None and _DEFINITION.fullmatch(content) is None)


def _after_bracket(text: str, end: int, amount: bool) -> int:
    m = _OPEN.match(text, end)
    if m is None or (not amount and text[m.end() - 1] == "["):
        return end  # square brackets after a name are the editor's ("[GC]", "[name in full]")
    close = _bracket_end(text, m.end() - 1)
    if close is None:
        return end
    content = text[m.end():close - 1]
    if amount:
        ok = bool(_HAS_AMOUNT.search(content)) and "§" not in content and _REFERENCE_START.match(content) is None
    else:
        ok = _names_something(content)
    return close if ok else end


def _inside_open_bracket(text: str, start: int, end: int) -> int:
    """A candidate that ends inside a bracket it opened ("… (Ärztekammer") grows to the closing bracket."""
    value = text[start:end]
    opened = value.rfind("(")
    if opened < 0 or ")" in value[opened:]:
        return end
    close = _bracket_end(text, start + opened)
    if close is None or not _names_something(text[start + opened + 1:close - 1]):
        return end
    return close


_NAME_WORD = re.compile(r"[\w'’-]+")
_BLANKS = re.compile(r"[ \t]+")
_COMMA_GAP = re.compile(r",[ \t]+")


def _rest_of_name(text: str, start: int, end: int) -> int:
    # the match after the name first: it fails for most names, and costs less than listing the name's words
    m = _REST_OF_NAME.match(text, end)
    if m is None:
        return end
    words = _NAME_WORD.findall(text, start, end)
    if not words or words[-1].lower() not in INSTITUTION_HEADS:
        return end
    caps = _BLANKS.split(m.group("w"))
    keep = 0
    for i, w in enumerate(caps):
        if w in _STOP_CAPS:
            break
        if w != "and":
            keep = i + 1
    if keep == 0:
        return end
    # the end of the kept words inside the match
    pos = m.start("w")
    for w in caps[:keep]:
        pos = text.index(w, pos) + len(w)
    return pos


def _quotes(text: str, start: int, end: int) -> tuple[int, int]:
    """A name in quotes takes its quotes (“Eastern Mediterranean University”), and one that opens a quote
    it does not close (the “Centre of Higher Studies) grows to the closing quote on the same line."""
    value = text[start:end]
    opened = value.rfind("“")
    if opened >= 0 and "”" not in value[opened:]:
        close = text.find("”", end, min(len(text), end + 60))
        if close >= 0 and "\n" not in text[end:close]:
            return start, close + 1
        return start, end
    if start and end < len(text) and _QUOTE_PAIRS.get(text[start - 1]) == text[end]:
        return start - 1, end + 1
    return start, end


#: one match of every regex a name's end grows by (:func:`_grow_name_end`): where it fails, none of them matches
#: (a match of an alternation is a match of one of its branches), so no round grows the name.  Why: most names end
#: where no rule applies, and the six regexes were six calls from Python for each of 10^5 names of a large document.
GROWS_AT_END = re.compile("|".join(f"(?:{rule.pattern})" for rule in (
    _REST_OF_NAME, _PLACE_NOUN_AFTER, _INSTITUTION_AFTER, _HYPHEN_PART, _OPEN, _POSSESSIVE)))


def _grow_name_end(text: str, span: CharSpan, start: int, end: int) -> int:
    """End of a name grown by the rules after it, repeated (at most three rounds) because one rule's growth can
    bring the next rule's trigger into reach ("Ministry of Justice" + "'s" after a hyphenated part)."""
    if GROWS_AT_END.match(text, end) is None:  # (a rule's regex matching is the first step of every rule)
        return end
    for _ in range(3):
        before = end
        end = _rest_of_name(text, start, end) if span.category is Category.ORGANIZATION else end
        if (m := _PLACE_NOUN_AFTER.match(text, end)) and span.type in _LOCATION_TYPES:
            end = m.end()
        elif (span.category is Category.ORGANIZATION and " " not in text[start:end]
              and (m := _INSTITUTION_AFTER.match(text, end))):
            end = m.end()
        if m := _HYPHEN_PART.match(text, end):
            end = m.end()
        end = _after_bracket(text, end, amount=False)
        if span.category is Category.ORGANIZATION and (m := _POSSESSIVE.match(text, end)):
            end = m.end()
        if end == before:
            break
    return end


def _grow_name_start(text: str, span: CharSpan, start: int, window: int) -> int:
    """Start of a name grown back over a division ("Department of" + organisation) or a place word ("Region of",
    "northern" + place), looked for only in the 60 characters before it (``window``)."""
    # the look-back regexes end in "of", "the" or a direction word, then blanks: a text before the candidate
    # that does not end so (most do not) cannot match, and is not searched
    preceding = text[window:start].rstrip(" \t\n")
    if (span.category is Category.ORGANIZATION
            and (preceding.endswith("of")
                 or preceding.endswith("the") and preceding[:-3].rstrip(" \t").endswith("of"))
            and (m := _DIVISION_BEFORE.search(text, window, start))):
        start = m.start()
        preceding = text[window:start].rstrip(" \t\n")
    if span.type in _LOCATION_TYPES:
        if preceding.endswith("of") and (m := _PLACE_BEFORE.search(text, window, start)):
            start = m.start()
        elif preceding.endswith(_DIRECTIONS) and (m := _DIRECTION_BEFORE.search(text, window, start)):
            start = m.start()
    return start


def _grow_name(text: str, span: CharSpan, start: int, end: int, window: int) -> tuple[int, int]:
    """A name (not a person's) grown to its quotes, open bracket, following parts, then its preceding words; the
    end grows first because the look-back rules do not depend on it."""
    start, end = _quotes(text, start, end)
    end = _inside_open_bracket(text, start, end)
    end = _grow_name_end(text, span, start, end)
    return _grow_name_start(text, span, start, window), end


def _grow_norp_end(text: str, end: int) -> int:
    """A nationality grows to a hyphenated part and then a state body or a person noun ("Turkish" + "national"),
    which makes it a mention of one body or person rather than a common adjective."""
    if m := _HYPHEN_PART.match(text, end):
        end = m.end()
    if m := _STATE_BODY_AFTER.match(text, end):
        end = m.end()
    elif m := _NATIONALITY_NOUN_AFTER.match(text, end):
        end = m.end()
    return end


def _grow_money(text: str, start: int, end: int, window: int) -> tuple[int, int]:
    """An amount takes its bracketed conversion after it and an "approximately"-like word before it."""
    end = _after_bracket(text, end, amount=True)
    if m := _APPROX_BEFORE.search(text, window, start):
        start = m.start()
    return start, end


def ends_in_no(text: str, window: int, start: int) -> bool:
    """Does ``text[window:start]`` end in "no." + blanks (before a last line break, where "$" also matches), as every
    match of NO_BEFORE does?  A string test: the regex tried each of the 60 positions before every number."""
    return before_dollar(text[window:start]).rstrip(" \t").endswith(("no.", "No."))


def _grow_number(text: str, span: CharSpan, start: int, end: int, window: int) -> tuple[int, int]:
    """A number takes the counted noun after it (not a time unit: "3 days" stays a date-like amount) and a "No."
    before it, with the "of" block after such a numbered reference ("No. 5 of 2019")."""
    if (span.type != "CASE_NUMBER" and text[start:end].lower() not in _FEW
            and (m := _COUNTED.match(text, end))):
        if m.group("noun") not in _TIME_UNITS and m.group("noun") not in _NOT_PLURAL:
            end = m.end("of") if m.group("of") else m.end("noun")
    m = NO_BEFORE.search(text, window, start) if ends_in_no(text, window, start) else None
    if m and (m.group("noun") or (span.type != "CASE_NUMBER" and text[start:end].isdigit())):
        start = m.start()
        if m := _OF_BLOCK.match(text, end):
            end = m.end()
    return start, end


def _grow(text: str, span: CharSpan) -> tuple[int, int]:
    """New (start, end) of one candidate by the single-candidate rules, applied in a fixed order (legal form,
    name, nationality or amount, number) because later rules read the extent the earlier ones left."""
    start, end = span.start, span.end
    window = max(0, start - 60)
    if m := _LEGAL_FORM.match(text, end):
        end = m.end()  # "Robert Bosch" + "GmbH": a company, whatever NER took it for
    if span.category in _NAME_CATS and span.type not in ("PERSON",):
        start, end = _grow_name(text, span, start, end, window)
    elif span.type in _MISTYPED_PLACE_TYPES and (m := _DIRECTION_BEFORE.search(text, window, start)):
        start = m.start()
    if span.type == "NORP":
        end = _grow_norp_end(text, end)
    elif span.type == "MONEY":
        start, end = _grow_money(text, start, end, window)
    if span.type in _NUMBER_TYPES:
        start, end = _grow_number(text, span, start, end, window)
    return start, end


_QUOTE_PAIRS = {"“": "”", "\"": "\"", "‘": "’", "«": "»", "„": "“"}
#: legal forms after a company's name
_LEGAL_FORM = re.compile(r"[ \t]+(?:GmbH|AG|KG|OHG|Ltd\.?|Limited|plc|PLC|Inc\.|LLC|LLP|S\.A\.|S\.p\.A\.|S\.r\.l\.|"
                         r"A\.Ş\.|AŞ|Sp\.[ \t]z[ \t]o\.o\.|S\.A\.S\.|SARL|s\.r\.o\.|a\.s\.|B\.V\.|N\.V\.|AB|ASA|Oy)"
                         r"(?!\w)")


def _town_like(value: str) -> bool:
    """One capitalized word that is no nationality ("Zbrosławice", not "Turkish" or "Turkish national")."""
    return (value[:1].isupper() and " " not in value and value.rstrip("s") not in NATIONALITIES
            and not _NATIONALITY_WORD.search(value))


def _joinable(text: str, first: CharSpan, second: CharSpan) -> bool:
    """May two neighbouring candidates form one mention ("X of Y" organisations, "Town, Country")?"""
    gap = text[first.end:second.start]
    if len(gap) > 8 or "\n" in gap:
        return False
    if first.category is Category.ORGANIZATION and second.category is Category.ORGANIZATION:
        if _JOIN_OF.fullmatch(gap):
            return True
        if (_JOIN_AND.fullmatch(gap) and text[second.start:second.start + 1].isupper()
                and _ARTICLE.match(text, second.start) is None):
            return _LIST_BEFORE.search(text, max(0, first.start - 40), first.start) is None
    first_ok = first.category in _NAME_CATS or (first.type in _MISTYPED_PLACE_TYPES
                                                and _town_like(text[first.start:first.end]))
    if (first_ok
            and (second.type in _LOCATION_TYPES or _STREET_END.search(text, second.start, second.end))
            and _COMMA_GAP.fullmatch(gap) and text[second.start:second.start + 1].isupper()
            and text[first.start:first.start + 1].isupper()):
        if _LIST_AFTER.match(text, second.end) or _LIST_BEFORE.search(text, max(0, first.start - 40), first.start):
            return False
        return True
    return False


#: categories whose candidates keep their extent (a person only takes a company's legal form, above)
_NOT_GROWN = (Category.PERSON, Category.SENSITIVE, Category.DEMOGRAPHIC, Category.CONTACT)


def extend_mentions(text: str, candidates: Sequence[CharSpan], language: str) -> list[CharSpan]:
    """``candidates`` with parts grown to whole mentions (see module docstring); English only."""
    if language not in LANGUAGES or not candidates:
        return list(candidates)
    grown: list[CharSpan] = []
    for span in candidates:
        if span.category is Category.PERSON and _LEGAL_FORM.match(text, span.end):
            grown.append(replace(span, end=_LEGAL_FORM.match(text, span.end).end()))  # type: ignore[union-attr]
            continue
        if span.category in _NOT_GROWN or is_never_personal(text, span, language):
            grown.append(span)  # a generic "Council" must not become "Council's" and escape the filter
            continue
        start, end = _grow(text, span)
        grown.append(span if (start, end) == (span.start, span.end) else _moved(span, start, end))
    return _join(text, grown)


def _moved(span: CharSpan, start: int, end: int) -> CharSpan:
    """``dataclasses.replace(span, start=start, end=end)`` without its look-up of the fields (10^4 grown spans)."""
    return CharSpan(start, end, span.type, span.category, span.source, span.score, span.priority)


_START = attrgetter("start")
_END = attrgetter("end")


def _join(text: str, spans: list[CharSpan]) -> list[CharSpan]:
    """Join neighbouring name candidates of one source (see :func:`_joinable`)."""
    if len(spans) < 2:  # propagation grows its occurrences one at a time
        return spans
    names = sorted((s for s in spans if s.category in _NAME_CATS or s.type in _MISTYPED_PLACE_TYPES
                    or s.type == "PERSON" and _STREET_END.search(text, s.start, s.end)),
                   key=_END, reverse=True)
    names.sort(key=_START)  # by (start, longest first) in two stable sorts: no key tuple per span
    drop: set[int] = set()
    joined: list[CharSpan] = []
    i = 0
    while i < len(names) - 1:
        a, b = names[i], names[i + 1]
        # (a gap of more than 8 characters joins nothing: no call for most neighbours)
        if a.source == b.source and a.end <= b.start and b.start - a.end <= 8 and _joinable(text, a, b):
            # a mistyped town takes the place's type from the country after it
            joined.append(replace(b, start=a.start) if a.type in _MISTYPED_PLACE_TYPES else replace(a, end=b.end))
            drop.update((id(a), id(b)))
            i += 2
            continue
        i += 1
    if not joined:
        return spans
    return [s for s in spans if id(s) not in drop] + joined
