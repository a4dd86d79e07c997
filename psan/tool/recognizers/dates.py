"""Dates (numeric and written, with inflected month names) and ages.

Numeric dates are validated as real calendar dates (years 1800–2099); for
``a/b/yyyy`` either day-first or month-first may be valid.  Written dates
need a day or a year next to the month name, so a bare "May" or "maj" is
never a date.  English month names must be capitalized; Slavic and Swedish
month names are lowercase in running text and match in any case.  A bare
year is not reported (too common and seldom identifying on its own).
"""
from __future__ import annotations

import datetime
import re

from psan.tool.model import Category, CharSpan, Document
from psan.tool.recognizers.base import (
    PRIORITY_AGE,
    PRIORITY_DATE,
    PatternRecognizer,
    compile_context,
    drop_contained,
    has_context,
    preceded_by,
)

DATE = Category.DATE

#: month name forms per language (nominative + the inflected forms used in dates)
MONTHS: dict[str, tuple[str, ...]] = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov",
           "Dec"),
    "cs": ("leden", "ledna", "lednu", "lednem", "únor", "února", "únoru", "únorem", "březen", "března", "březnu",
           "březnem", "duben", "dubna", "dubnu", "dubnem", "květen", "května", "květnu", "květnem", "červen",
           "června", "červnu", "červnem", "červenec", "července", "červenci", "červencem", "srpen", "srpna",
           "srpnu", "srpnem", "září", "zářím", "říjen", "října", "říjnu", "říjnem", "listopad", "listopadu",
           "listopadem", "prosinec", "prosince", "prosinci", "prosincem"),
    "sk": ("január", "januára", "januári", "februára", "február", "februári", "marec", "marca", "marci", "apríl",
           "apríla", "apríli", "máj", "mája", "máji", "jún", "júna", "júni", "júl", "júla", "júli", "august",
           "augusta", "auguste", "september", "septembra", "septembri", "október", "októbra", "októbri",
           "november", "novembra", "novembri", "december", "decembra", "decembri"),
    "pl": ("styczeń", "stycznia", "styczniu", "luty", "lutego", "lutym", "marzec", "marca", "marcu", "kwiecień",
           "kwietnia", "kwietniu", "maj", "maja", "maju", "czerwiec", "czerwca", "czerwcu", "lipiec", "lipca",
           "lipcu", "sierpień", "sierpnia", "sierpniu", "wrzesień", "września", "wrześniu", "październik",
           "października", "październiku", "listopad", "listopada", "listopadzie", "grudzień", "grudnia",
           "grudniu"),
    "sv": ("januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober",
           "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "okt", "nov",
           "dec"),
    "sl": ("januar", "januarja", "januarju", "februar", "februarja", "februarju", "marec", "marca", "marcu",
           "april", "aprila", "aprilu", "maj", "maja", "maju", "junij", "junija", "juniju", "julij", "julija",
           "juliju", "avgust", "avgusta", "avgustu", "september", "septembra", "septembru", "oktober", "oktobra",
           "oktobru", "november", "novembra", "novembru", "december", "decembra", "decembru"),
}

_YEAR = r"(?:1[89]\d\d|20\d\d)"


def _month_alternation(language: str) -> str:
    """English months case-sensitive, the rest case-insensitive; English is always included."""
    langs = [language] if language in MONTHS else list(MONTHS)
    english = sorted(MONTHS["en"], key=len, reverse=True)
    other = sorted({m for lang in langs if lang != "en" for m in MONTHS[lang]}, key=len, reverse=True)
    parts = ["(?:" + "|".join(english) + r")(?:\.(?!\d))?"]
    if other:
        parts.append("(?i:" + "|".join(re.escape(m) for m in other) + r")(?:\.(?!\d))?")
    return "(?:" + "|".join(parts) + ")"


def written_date_regex(language: str) -> re.Pattern[str]:
    month = _month_alternation(language)
    day = r"(?:[12]\d|3[01]|0?[1-9])"
    ordinal = r"(?:\s?\.|st|nd|rd|th|:e|:a)?"  # "14 . prosince" in tokenized corpora
    patterns = [
        # 12 March 2020 / 12. března 2020 / the 12th of March, 2020 / 3 stycznia
        rf"{day}{ordinal}\s*(?:of\s+)?{month}(?:,?\s*{_YEAR}(?:\s*(?:r\.|roku|år|leta|l\.))?)?",
        # March 12, 2020 / March 12th 2020 / March 12
        rf"{month}\s+{day}(?:st|nd|rd|th)?(?:,?\s+{_YEAR})?",
        # March 2020 / březen 2020 / w marcu 2020
        rf"{month}\s+{_YEAR}",
    ]
    return re.compile(r"(?<![\w.])(?:" + "|".join(patterns) + r")(?![\w])")


NUMERIC_DATE_RE = re.compile(
    r"(?=\d)(?<![\w.,/-])(?:"  # look-ahead first: lets the engine skip non-digits fast
    r"(?P<d1>\d{1,2})\.\s?(?P<m1>\d{1,2})\.\s?(?P<y1>\d{4})"           # 1. 2. 2020, 01.02.2020
    r"|(?P<a2>\d{1,2})(?P<sep>[/-])(?P<b2>\d{1,2})(?P=sep)(?P<y2>\d{4})"  # 01/02/2020, 1-2-2020
    r"|(?P<y3>\d{4})(?P<sep3>[-./])(?P<m3>\d{1,2})(?P=sep3)(?P<d3>\d{1,2})"  # 2020-02-01
    r")(?![\w]|[.,/-]\d)")


def _valid_date(year: str, month: str, day: str) -> bool:
    y, m, d = int(year), int(month), int(day)
    if not 1800 <= y <= 2099:
        return False
    try:
        datetime.date(y, m, d)
    except ValueError:
        return False
    return True


class NumericDateRecognizer(PatternRecognizer):
    def __init__(self) -> None:
        super().__init__("date", "DATE", DATE, NUMERIC_DATE_RE, score=0.9, priority=PRIORITY_DATE)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in self.regex.finditer(text):
            if preceded_by(text, match.start(), ".,/-"):
                continue
            g = match.groupdict()
            if g["d1"] is not None:
                ok = _valid_date(g["y1"], g["m1"], g["d1"])
            elif g["a2"] is not None:
                ok = _valid_date(g["y2"], g["b2"], g["a2"]) or _valid_date(g["y2"], g["a2"], g["b2"])
            else:
                ok = _valid_date(g["y3"], g["m3"], g["d3"])
            if ok:
                spans.append(CharSpan(match.start(), match.end(), "DATE", DATE, self.name, self.score, self.priority))
        return spans


class WrittenDateRecognizer(PatternRecognizer):
    def __init__(self, language: str) -> None:
        super().__init__("date", "DATE", DATE, written_date_regex(language), score=0.9, priority=PRIORITY_DATE,
                         not_after=".")


# ---------------------------------------------------------------- ages

_N = r"(?P<n>\d{1,3})"
#: (pattern, needs a context word) per language; the span is the whole phrase ("42 years old", "42letý")
AGE_PATTERNS: dict[str, list[tuple[str, bool]]] = {
    "en": [(rf"\b(?:aged|age[d]?:?)\s+{_N}\b", False),
           (rf"\b{_N}[- ](?:years?|yrs?)[- ]old\b", False),
           (rf"\b{_N}[- ]year[- ]old\b", False)],
    "cs": [(rf"\b{_N}\s?-?\s?(?:letý|letá|leté|letého|letému|letou|letým|letými|letých)\b", False),
           (rf"(?i:ve\s+věku|věk:?|stáří)\s+{_N}(?:\s+(?:let|roků|roky|rok))?\b", False),
           (rf"\b{_N}\s+(?:let|roků|roky)\b", True)],
    "sk": [(rf"\b{_N}\s?-?\s?(?:ročný|ročná|ročné|ročného|ročnému|ročnú|ročným|ročnej)\b", False),
           (rf"(?i:vo\s+veku|vek:?)\s+{_N}(?:\s+(?:rokov|roky|rok))?\b", False),
           (rf"\b{_N}\s+(?:rokov|roky)\b", True)],
    "pl": [(rf"\b{_N}\s?-?\s?(?:letni|letnia|letnie|letniego|letniej|letnią|letnim|letnich)\b", False),
           (rf"(?i:w\s+wieku|wiek:?)\s+{_N}(?:\s+(?:lat|lata))?\b", False),
           (rf"\b{_N}\s+(?:lat|lata)\b", True)],
    "sv": [(rf"\b{_N}\s?-?\s?(?:årig|åriga|årige)\b", False),
           (rf"\b{_N}\s+år\s+(?:gammal|gamla)\b", False),
           (rf"(?i:ålder:?)\s+{_N}(?:\s+år)?\b", False),
           (rf"\b{_N}\s+år\b", True)],
    "sl": [(rf"\b{_N}\s?-?\s?(?:letni|letna|letno|letnega|letne|letnemu|letnim|letnico)\b", False),
           (rf"(?i:star|stara|staro|starost:?)\s+{_N}\s+(?:let|leta|leti)\b", False),
           (rf"\b{_N}\s+(?:let|leta|leti)\b", True)],
}
AGE_CONTEXT = ("age", "aged", "old", "věk", "věku", "je mu", "je jí", "starý", "stará", "vek", "veku", "má",
               "wiek", "wieku", "ma", "miał", "miała", "ålder", "gammal", "starost", "star", "stara", "years old",
               "zemřel", "zemřela", "zmarł", "zmarła")


class AgeRecognizer(PatternRecognizer):
    """Age phrases; the plain "N let/lat/år" form is ambiguous with durations and needs a context word."""

    def __init__(self, language: str) -> None:
        super().__init__("age", "AGE", DATE, r"(?!)", context=AGE_CONTEXT, score=0.8, context_score=0.9,
                         priority=PRIORITY_AGE)
        langs = [language] if language in AGE_PATTERNS else list(AGE_PATTERNS)
        self.patterns = [(re.compile(p), need) for lang in langs for p, need in AGE_PATTERNS[lang]]
        self.context = compile_context(AGE_CONTEXT)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for regex, needs_context in self.patterns:
            for match in regex.finditer(text):
                number = next((g for g in match.groups() if g), None)
                if number is None or not 0 < int(number) < 125:
                    continue
                ctx = has_context(text, match.start(), match.end(), self.context, before=25, after=10)
                if needs_context and not ctx:
                    continue
                spans.append(CharSpan(match.start(), match.end(), "AGE", DATE, self.name,
                                      self.context_score if ctx else self.score, self.priority))
        return drop_contained(spans)
