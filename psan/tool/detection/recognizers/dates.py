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
from collections.abc import Iterator

from psan.tool.detection.recognizers.base import (
    PRIORITY_AGE,
    PRIORITY_DATE,
    PRIORITY_DURATION,
    PatternRecognizer,
    after_first,
    compile_context,
    drop_contained,
    has_context,
    preceded_by,
)
from psan.tool.detection.recognizers.prescan import (
    Start,
    candidates,
    finditer_at,
    finditer_in,
    literal_starts,
    merged_positions,
    occurrences,
    reaching,
    start,
)
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

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
    """Written dates of ``language`` (and English): a day and a month, a month and a day or a year.

    Every match starts with a day digit or a month's first letter.  For English (case-sensitive capitals) the
    regex matches that character first by a class and the rest after it (:func:`written_date_plain` is the
    same pattern written plainly; tests compare the two): a pattern that starts with a look-around is tried
    at every character, one that starts with a class skips to the next candidate in C.  The other languages'
    month names match in any case, so their first letters are most lower-case letters and a look-ahead on
    them comes first instead.
    """
    month = _month_alternation(language)
    if _other_months(language):
        other = sorted({m[0] for m in _other_months(language)})
        first = r"\d|[" + "".join(sorted({m[0] for m in MONTHS["en"]})) + "]" + f"|(?i:[{''.join(other)}])"
        return re.compile(rf"(?=(?:{first}))" + written_date_plain(language))
    english = sorted(MONTHS["en"], key=len, reverse=True)
    month_rest = after_first(english) + r"(?:\.(?!\d))?"
    day_rest = r"(?:(?<=[12])\d|(?<=3)[01]|(?<=0)[1-9]|(?<=[1-9]))"
    firsts = "".join(sorted({m[0] for m in english}))
    after_day, _, _ = _written_date_forms(month)
    return re.compile(
        rf"[\d{firsts}](?<![\w.][\s\S])(?:(?<=\d){day_rest}{after_day}"
        rf"|{month_rest}\s+{_DAY}(?:st|nd|rd|th)?(?:,?\s+{_YEAR})?|{month_rest}\s+{_YEAR})(?![\w])")


_DAY = r"(?:[12]\d|3[01]|0?[1-9])"


def _other_months(language: str) -> list[str]:
    """The month names of ``language`` (of every language for an unknown one) that are not English."""
    langs = [language] if language in MONTHS else list(MONTHS)
    return sorted({m for lang in langs if lang != "en" for m in MONTHS[lang]})


def _written_date_forms(month: str) -> tuple[str, str, str]:
    """The three written forms: what follows the day of "12 March 2020", "March 12, 2020", "March 2020"."""
    ordinal = r"(?:\s?\.|st|nd|rd|th|:e|:a)?"  # "14 . prosince" in tokenized corpora
    return (
        # 12 March 2020 / 12. března 2020 / the 12th of March, 2020 / 3 stycznia
        rf"{ordinal}\s*(?:of\s+)?{month}(?:,?\s*{_YEAR}(?:\s*(?:r\.|roku|år|leta|l\.))?)?",
        # March 12, 2020 / March 12th 2020 / March 12
        rf"{month}\s+{_DAY}(?:st|nd|rd|th)?(?:,?\s+{_YEAR})?",
        # March 2020 / březen 2020 / w marcu 2020
        rf"{month}\s+{_YEAR}",
    )


def written_date_plain(language: str) -> str:
    """The pattern of :func:`written_date_regex`, written plainly (a leading look-behind, then the three forms)."""
    after_day, month_day, month_year = _written_date_forms(_month_alternation(language))
    return rf"(?<![\w.])(?:{_DAY}{after_day}|{month_day}|{month_year})(?![\w])"


#: the numeric date forms, plainly written (``NUMERIC_DATE_RE`` is the same with its first digit first; tests compare)
NUMERIC_DATE_PLAIN = (
    r"(?<![\w.,/-])(?:"
    r"(?P<d1>\d{1,2})\.\s?(?P<m1>\d{1,2})\.\s?(?P<y1>\d{4})"           # 1. 2. 2020, 01.02.2020
    r"|(?P<a2>\d{1,2})(?P<sep>[/-])(?P<b2>\d{1,2})(?P=sep)(?P<y2>\d{4})"  # 01/02/2020, 1-2-2020
    r"|(?P<y3>\d{4})(?P<sep3>[-./])(?P<m3>\d{1,2})(?P=sep3)(?P<d3>\d{1,2})"  # 2020-02-01
    r")(?![\w]|[.,/-]\d)")
#: ``NUMERIC_DATE_PLAIN`` with the first digit matched first (a pattern that starts with a character class lets
#: the regex engine skip to the next digit in C; a leading look-around is tried at every character) and the
#: look-behind one character longer; the first group of each form (``d1``, ``a2``, ``y3``) lacks that digit
#: (:func:`first_group`)
NUMERIC_DATE_RE = re.compile(
    r"\d(?<![\w.,/-]\d)(?:"
    r"(?P<d1>\d?)\.\s?(?P<m1>\d{1,2})\.\s?(?P<y1>\d{4})"
    r"|(?P<a2>\d?)(?P<sep>[/-])(?P<b2>\d{1,2})(?P=sep)(?P<y2>\d{4})"
    r"|(?P<y3>\d{3})(?P<sep3>[-./])(?P<m3>\d{1,2})(?P=sep3)(?P<d3>\d{1,2})"
    r")(?![\w]|[.,/-]\d)")


#: the shapes every ``NUMERIC_DATE_RE`` match starts with (:mod:`psan.tool.detection.recognizers.prescan`): a digit
# after
#: none of ``\w.,/-``, its separator after one or two digits (day or month first) or after four (year first)
NUMERIC_DATE_STARTS = (start(r"\d", "[./-]", not_before=r"[\w.,/-]"),
                       start(r"\d", r"\d", "[./-]", not_before=r"[\w.,/-]"),
                       start(r"\d", r"\d", r"\d", r"\d", "[./-]", not_before=r"[\w.,/-]"))


def first_group(match: re.Match[str], name: str) -> str:
    """A first group of ``NUMERIC_DATE_RE`` with the match's first digit (as ``NUMERIC_DATE_PLAIN`` captures it)."""
    return match.string[match.start():match.end(name)]


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
        super().__init__("date", "DATE", DATE, NUMERIC_DATE_RE, score=0.9, priority=PRIORITY_DATE,
                         starts=NUMERIC_DATE_STARTS)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in self.matches(text):
            if preceded_by(text, match.start(), ".,/-"):
                continue
            g = match.groupdict()
            if g["d1"] is not None:
                ok = _valid_date(g["y1"], g["m1"], first_group(match, "d1"))
            elif g["a2"] is not None:
                a2 = first_group(match, "a2")
                ok = _valid_date(g["y2"], g["b2"], a2) or _valid_date(g["y2"], a2, g["b2"])
            else:
                ok = _valid_date(first_group(match, "y3"), g["m3"], g["d3"])
            if ok:
                spans.append(CharSpan(match.start(), match.end(), "DATE", DATE, self.name, self.score, self.priority))
        return spans


#: what joins English dates into one period or list: "1 March and 31 December 1998", "30 March 1983 to
#: 30 September 1987", "30 September/1 October 2002", "10 May, on 7 July and on 26 September 1994"
_EN_DATE_JOIN = re.compile(r"[ \t]*(?:,[ \t]*(?:and[ \t]+|or[ \t]+)?|and|or|to|until|till|/|-|–|—)[ \t]*(?:on[ \t]+)?")
_BETWEEN_BEFORE = re.compile(r"\b[Bb]etween[ \t]+$")


def join_date_ranges(text: str, spans: list[CharSpan]) -> list[CharSpan]:
    """English dates next to each other joined into one span per period or list ("between 5 May 2006 and
    24 October 2008"); the parts are dropped.

    Why: an annotator masks the period as one mention, and the day-month part alone ("1 March" of "1 March
    and 31 December 1998") left the connecting words in clear, so the mention was never wholly masked.
    The words between must be only a connector ("and", "to", "/", a comma, "on"); "between" before the
    first date belongs to the period.
    """
    if len(spans) < 2:
        return spans
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    out: list[CharSpan] = []
    group = [ordered[0]]
    for span in ordered[1:]:
        last = group[-1]
        m = _EN_DATE_JOIN.fullmatch(text, last.end, span.start) if span.start > last.end else None
        if m is not None and m.group().strip():
            group.append(span)
            continue
        out.append(_joined(text, group))
        group = [span]
    out.append(_joined(text, group))
    return out


def _joined(text: str, group: list[CharSpan]) -> CharSpan:
    if len(group) == 1:
        return group[0]
    first = group[0]
    start = first.start
    if m := _BETWEEN_BEFORE.search(text, max(0, start - 10), start):
        start = m.start()
    return CharSpan(start, group[-1].end, first.type, first.category, first.source, first.score, first.priority)


#: the shapes the English written dates start with (:mod:`psan.tool.detection.recognizers.prescan`), after none of
#: ``\w.``: a day's first digit, then its second digit, an ordinal's first character, a space, "of" or a month's
#: capital; or an English month's first three letters (two sets: each is found in a few NumPy calls)
WRITTEN_DAY_STARTS = (start(r"\d", r"[\d\s.:nrstoADFJMNOS]", not_before=r"[\w.]"),)
WRITTEN_MONTH_STARTS = literal_starts(MONTHS["en"], 3, not_before=r"[\w.]")


class WrittenDateRecognizer(PatternRecognizer):
    def __init__(self, language: str) -> None:
        super().__init__("date", "DATE", DATE, written_date_regex(language), score=0.9, priority=PRIORITY_DATE,
                         not_after=".")
        self.language = language
        #: the English regex (no other language's months) starts where one of the two sets of shapes holds
        self.english = not _other_months(language)

    def matches(self, text: str) -> list[re.Match[str]]:
        """``list(self.regex.finditer(text))``, the English regex tried only where its shapes hold."""
        days = candidates(text, WRITTEN_DAY_STARTS) if self.english else None
        months = candidates(text, WRITTEN_MONTH_STARTS) if days is not None else None
        return finditer_in(self.regex, text, merged_positions(days, months))

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = super().analyze(text, doc)
        if self.language != "en":
            return spans
        return join_date_ranges(text, spans + listed_years(text, spans))


#: a bare year listed after a date ("born in 1943 and 1939 respectively", "in 1994, 1995 or 1996")
_LISTED_YEAR = re.compile(r"(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or)[ \t]+)"
                          r"((?:1[89]|20)\d\d)(?![\w/.-])")


def listed_years(text: str, spans: list[CharSpan]) -> list[CharSpan]:
    """Bare years that continue a list after a date span: a year alone is no date, but one in a list of dates
    is, and the list is one mention (:func:`join_date_ranges` joins them)."""
    out: list[CharSpan] = []
    for span in sorted(spans, key=lambda s: s.start):
        end = max([span.end] + [y.end for y in out if y.start >= span.start])
        while m := _LISTED_YEAR.match(text, end):
            year = CharSpan(m.start(1), m.end(1), span.type, span.category, span.source, span.score, span.priority)
            out.append(year)
            end = m.end()
    return out


# ---------------------------------------------------------------- ages

#: ``\d\d{0,2}`` is ``\d{1,3}`` (the same matches, in the same order), but a pattern that starts with it (after its
#: ``\b``, checked in Python) starts with a character class: the regex engine skips to the next digit in C
_N = r"(?P<n>\d\d{0,2})"
#: (pattern, needs a context word) per language; the span is the whole phrase ("42 years old", "42letý")
AGE_PATTERNS: dict[str, list[tuple[str, bool]]] = {
    "en": [(rf"\b(?:aged|age[d]?:?)\s+{_N}(?:\s+years(?:\s+old)?)?\b", False),  # "aged 31 years": the phrase
           (rf"\bage\s+of\s+{_N}\b", False),
           (rf"\b{_N}\s+years\s+of\s+age\b", False),
           (rf"\bage\s+of\s+{_N}\b", False),
           (rf"\b{_N}\s+years\s+of\s+age\b", False),
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
#: substrings one of which every match of a pattern contains: where none occurs, the pattern is not run
AGE_HINTS: dict[str, tuple[str, ...]] = {
    rf"\b{_N}[- ](?:years?|yrs?)[- ]old\b": (" old", "-old"),
    rf"\b{_N}[- ]year[- ]old\b": (" old", "-old"),
}
#: the shapes the English patterns' matches start with (their leading ``\b`` is checked in Python): "age" after
#: no word character, or the number's first digit and what follows it (a digit, a space or a dash)
_AGE_WORD = (start("a", "g", "e", not_before=r"\w"),)
_AGE_NUMBER = (start(r"\d", r"[\d\s-]", not_before=r"\w"),)
AGE_STARTS: dict[str, tuple[Start, ...]] = {pattern: _AGE_WORD if pattern.startswith(r"\b(?:aged") or
                                            pattern.startswith(r"\bage") else _AGE_NUMBER
                                            for pattern, _ in AGE_PATTERNS["en"]}
#: where the English patterns that start with the number can match (:func:`prescan.reaching`): the first character
#: after the number's first digit that is none of the digits and spaces (and the dash) between it and "years" or
#: "yrs" is that word's "y"; most numbers of a text are no age and are never tried
AGE_REACH: dict[str, tuple[tuple[Start, ...], str, str]] = {
    pattern: (_AGE_NUMBER, r"[^\d\s]" if r"\s+years" in pattern else r"[^\d \-]", "y")
    for pattern, _ in AGE_PATTERNS["en"] if AGE_STARTS[pattern] is _AGE_NUMBER}
AGE_CONTEXT = ("age", "aged", "old", "věk", "věku", "je mu", "je jí", "starý", "stará", "vek", "veku", "má",
               "wiek", "wieku", "ma", "miał", "miała", "ålder", "gammal", "starost", "star", "stara", "years old",
               "zemřel", "zemřela", "zmarł", "zmarła")


def _finditer_at_word_start(regex: re.Pattern[str], text: str, word_start: bool,
                            at: list[int] | None = None) -> Iterator[re.Match[str]]:
    """``regex.finditer(text)``, but with ``word_start`` only matches not preceded by a word character.

    The same matches as the pattern with a leading ``\\b`` (the pattern starts with a word
    character): a match inside a word is skipped and the search resumes one character later.
    ``at``: sorted positions that hold every such match's start (:mod:`psan.tool.detection.recognizers.prescan`); the
    regex is then tried only there, leftmost first, as the search below would find them.
    """
    if at is not None:
        end = 0
        for pos in at:
            if pos < end or word_start and preceded_by(text, pos):
                continue
            match = regex.match(text, pos)
            if match is not None:
                yield match
                end = match.end() if match.end() > pos else pos + 1
        return
    if not word_start:
        yield from regex.finditer(text)
        return
    pos = 0
    while (match := regex.search(text, pos)) is not None:
        if preceded_by(text, match.start()):
            pos = match.start() + 1
            continue
        yield match
        pos = match.end() if match.end() > match.start() else match.start() + 1


class AgeRecognizer(PatternRecognizer):
    """Age phrases; the plain "N let/lat/år" form is ambiguous with durations and needs a context word."""

    def __init__(self, language: str) -> None:
        super().__init__("age", "AGE", DATE, r"(?!)", context=AGE_CONTEXT, score=0.8, context_score=0.9,
                         priority=PRIORITY_AGE)
        langs = [language] if language in AGE_PATTERNS else list(AGE_PATTERNS)
        # A leading \b is checked in Python instead: it stops the regex engine from jumping to the
        # first digit or letter of the pattern and made these scans several times slower.
        # (a pattern listed twice is compiled once: drop_contained would drop its second spans anyway)
        self.patterns = [(re.compile(p[2:] if p.startswith("\\b") else p), need, p.startswith("\\b"),
                          AGE_HINTS.get(p, ()), AGE_STARTS.get(p), AGE_REACH.get(p))
                         for p, need in dict.fromkeys(e for lang in langs for e in AGE_PATTERNS[lang])]
        self.context = compile_context(AGE_CONTEXT)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for regex, needs_context, word_start, hints, shapes, reach in self.patterns:
            if hints and not any(hint in text for hint in hints):
                continue
            at = reaching(text, *reach) if reach is not None else candidates(text, shapes)
            for match in _finditer_at_word_start(regex, text, word_start, at):
                number = next((g for g in match.groups() if g), None)
                if number is None or not 0 < int(number) < 125:
                    continue
                ctx = has_context(text, match.start(), match.end(), self.context, before=25, after=10)
                if needs_context and not ctx:
                    continue
                spans.append(CharSpan(match.start(), match.end(), "AGE", DATE, self.name,
                                      self.context_score if ctx else self.score, self.priority))
        return drop_contained(spans)


# ---------------------------------------------------------------- English date phrases and durations

_EN_MONTH = "(?:" + "|".join(sorted(MONTHS["en"], key=len, reverse=True)) + r")(?:\.(?!\d))?"
_EN_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_RANGE_SEP = r"\s*(?:-|–|—|\band\b|\bto\b|\bor\b|&)\s*"
#: words after which a bare four-digit year is a date ("in 1998", "born in 1955", "the end of 2003")
_YEAR_CONTEXT = ("in", "since", "until", "till", "from", "by", "during", "before", "after", "between", "throughout",
                 "of", "early", "late", "mid", "year", "circa", "around", "spring", "summer", "autumn", "fall",
                 "winter")
#: the phrase forms, each a named group (its name says the score, see ``EnglishDatePhraseRecognizer``);
#: every form starts with a digit or a capital month letter (``EN_DATE_PHRASE_RE`` is this pattern with that
#: character matched first; tests compare the two)
EN_DATE_PHRASE_PLAIN = (
    r"(?<![\w.,/])(?:"
    # 1 and 3 May 2001 / 1-3 May / between 12th and 14th of March, 2004
    rf"(?P<dayrange>{_EN_DAY}{_RANGE_SEP}{_EN_DAY}\s+(?:of\s+)?{_EN_MONTH}(?:,?\s+{_YEAR})?)"
    # May to July 2001 / May-June 2001 / between March and May 2004
    rf"|(?P<monthrange>{_EN_MONTH}{_RANGE_SEP}{_EN_MONTH},?\s+{_YEAR})"
    # the 1990s / the 1980's ("early", "mid-", "late" before it are added in Python)
    r"|(?P<decade>(?:1[89]|20)\d0['’]?s)"
    # 1998-99 / 2001–2003 (years only with a dash; "1998/99" looks like a file number)
    rf"|(?P<yearrange>{_YEAR}\s*[-–]\s*(?:{_YEAR}|\d\d))"
    # in 1998 / born in 1955 / spring 2005 / the end of 2003: the word before is checked in Python
    rf"|(?P<year>{_YEAR})"
    r")(?![\w%]|[.,/-]\d)")
#: what follows the first digit of a day, of a year, the first letter of a month (``after_first``)
_EN_DAY_REST = r"(?:(?<=[12])\d|(?<=3)[01]|(?<=0)[1-9]|(?<=[1-9]))(?:st|nd|rd|th)?"
_YEAR_REST = r"(?:(?<=1)[89]\d\d|(?<=2)0\d\d)"
_EN_MONTH_REST = after_first(sorted(MONTHS["en"], key=len, reverse=True)) + r"(?:\.(?!\d))?"
#: ``EN_DATE_PHRASE_PLAIN`` with the first character matched by a class (a pattern that starts with a look-around
#: makes the regex engine try it at every character; one that starts with a class skips to the next candidate in
#: C), the look-behind one character longer; each named group lacks that first character, the match does not
EN_DATE_PHRASE_RE = re.compile(
    r"[\dADFJMNOS](?<![\w.,/][\s\S])(?:(?<=\d)(?:"
    rf"(?P<dayrange>{_EN_DAY_REST}{_RANGE_SEP}{_EN_DAY}\s+(?:of\s+)?{_EN_MONTH}(?:,?\s+{_YEAR})?)"
    r"|(?P<decade>(?:(?<=1)[89]|(?<=2)0)\d0['’]?s)"
    rf"|(?P<yearrange>{_YEAR_REST}\s*[-–]\s*(?:{_YEAR}|\d\d))"
    rf"|(?P<year>{_YEAR_REST})"
    rf")|(?P<monthrange>{_EN_MONTH_REST}{_RANGE_SEP}{_EN_MONTH},?\s+{_YEAR})"
    r")(?![\w%]|[.,/-]\d)")
YEAR_CONTEXT_BEFORE = re.compile(r"(?i:\b(" + "|".join(_YEAR_CONTEXT) + r"))[\s-]+(?:of\s+)?$")
_DECADE_PREFIX = re.compile(r"(?i:\b(?:early|mid|late))[\s-]*$")
#: ``YEAR_CONTEXT_BEFORE`` read backwards from where the year starts (on the reversed text, anchored there): where
#: it does not match, no context word ends before the year and the search is not made (most years follow a month or
#: a number: "12 March 1998"); "of" is a context word itself, so "WORD of" needs no branch of its own
YEAR_CONTEXT_BEFORE_REVERSED = re.compile(
    r"[\s-]+(?i:" + "|".join(w[::-1] for w in _YEAR_CONTEXT) + r")(?!\w)")


def context_before(text: str, backwards: str, start: int) -> bool:
    """Whether ``YEAR_CONTEXT_BEFORE`` matches in the 25 characters before ``start`` (``backwards``: ``text[::-1]``)."""
    if YEAR_CONTEXT_BEFORE_REVERSED.match(backwards, len(text) - start) is None:
        return False
    return YEAR_CONTEXT_BEFORE.search(text, max(0, start - 25), start) is not None
_HAS_DIGIT = re.compile(r"\d")
_PHRASE_SCORES = {"dayrange": 0.9, "monthrange": 0.85, "decade": 0.7, "yearrange": 0.75, "year": 0.7}


class EnglishDatePhraseRecognizer(PatternRecognizer):
    """English date expressions the written-date patterns do not cover: ranges, decades, years in date context.

    Why: legal and administrative English dates events as "between 1 and 3 May 2001", "in the
    late 1990s" or "in 1998"; each of these narrows down who a text is about as much as a full
    date does.  A bare four-digit number stays unreported (too often a count or an amount): a year
    needs a preceding word that makes it a point in time (``in``, ``since``, ``born in``, ``the
    end of``, a season …).  Year ranges need a dash and an increasing second year; "1998/99" is
    left to the file-number recognizer.
    """

    def __init__(self) -> None:
        super().__init__("date", "DATE", DATE, EN_DATE_PHRASE_RE, score=0.7, priority=PRIORITY_DATE)

    def prefilter(self, text: str) -> bool:
        return _HAS_DIGIT.search(text) is not None

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.prefilter(text):
            return []
        spans = []
        backwards = text[::-1]
        for match in self.matches(text):
            kind = match.lastgroup or ""
            start, end = match.span()
            after_dash = start > 0 and text[start - 1] == "-"
            if kind == "year" or after_dash:
                # "in 1998", "mid-2004": only after a word that makes the number a point in time
                if kind not in ("year", "decade") or not context_before(text, backwards, start):
                    continue
            elif kind == "decade":
                prefix = _DECADE_PREFIX.search(text, max(0, start - 10), start)
                if prefix:
                    start = prefix.start()
            elif kind == "yearrange" and not _increasing_years(match.group()):
                continue
            spans.append(CharSpan(start, end, "DATE", DATE, self.name, _PHRASE_SCORES[kind], self.priority))
        return join_date_ranges(text, spans + listed_years(text, spans)) if spans else spans


_YEAR_DASH = re.compile(r"\s*[-–]\s*")


def _increasing_years(value: str) -> bool:
    """'1998-99' and '2001–2003' are ranges; '2003-01' (a month) and '1999-1990' are not."""
    first, second = _YEAR_DASH.split(value)
    end = int(second) if len(second) == 4 else int(first[:2] + second)
    return int(first) < end <= int(first) + 50


_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                 "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
                 "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "a", "an")
_QTY = rf"(?:\d{{1,3}}(?:[.,]5)?|(?i:(?:{'|'.join(_NUMBER_WORDS[:-2])})(?:[\s-]+(?:one|two|three|four|five|six|seven|eight|nine))?|an?|half\s+an?))"  # noqa: E501
_UNIT = r"(?i:years?|months?|weeks?|days?|hours?)"
#: what follows a duration's first quantity (more quantities and units may follow it)
_DURATION_TAIL = rf"[\s-]+{_UNIT}(?:['’]s?)?(?:,?\s+(?:and\s+)?{_QTY}[\s-]+{_UNIT}(?:['’]s?)?)*)(?!\w)"
#: the duration phrase, plainly written (``DURATION_RE`` is the same with its first character first; tests compare)
DURATION_PLAIN = rf"(?<![\w.,])(?:{_QTY}{_DURATION_TAIL}"
#: what follows the first character of a quantity of ``_QTY`` (a digit, a number word, "a", "an", "half")
_QTY_REST = (r"(?:(?<=\d)\d{0,2}(?:[.,]5)?|(?i:" + after_first(_NUMBER_WORDS[:-2])
             + r"(?:[\s-]+(?:one|two|three|four|five|six|seven|eight|nine))?|(?<=a)n?|(?<=h)alf\s+an?))")
#: ``DURATION_PLAIN`` with the quantity's first character matched first by a class (as ``(?i:…)`` matches it) and the
#: look-behind one character longer: the regex engine skips in C to the next such character of the window it searches
#: around each unit word (a leading look-behind is tried at every character)
DURATION_RE = re.compile(
    "(?i:[\\d" + "".join(sorted({w[0] for w in _NUMBER_WORDS[:-2]} | {"a", "h"})) + "])"
    + rf"(?<![\w.,][\s\S])(?:{_QTY_REST}{_DURATION_TAIL}")
#: ``(?=[YyMmWwDdHh])(?i:years?|months?|weeks?|days?|hours?)(?!\w)`` with the first letter as a class first: the
#: regex engine then skips to the next such letter in C (a leading look-ahead is tried at every character); the
#: second letter of every unit is e, o or a (no other character folds onto them), tested before the five units
UNIT_RE = re.compile(r"[YyMmWwDdHh](?=[eEoOaA])(?:(?<=[Yy])(?i:ears?)|(?<=[Mm])(?i:onths?)|(?<=[Ww])(?i:eeks?)"
                     r"|(?<=[Dd])(?i:ays?)|(?<=[Hh])(?i:ours?))(?!\w)")
#: the shapes ``UNIT_RE`` matches start with: a unit's first letter as the class takes it, then two more as
#: ``(?i:…)`` takes them
UNIT_STARTS = tuple(start(f"[{w[0]}{w[0].upper()}]", f"(?i:{w[1]})", f"(?i:{w[2]})")
                    for w in ("years", "months", "weeks", "days", "hours"))
_SPACE_RE = re.compile(r"\s")
#: how far before and after a unit word a duration phrase may reach (characters)
_PHRASE_REACH = 100
#: words that make a duration a sentence, detention or ban term (identifying in case law), not an ordinary period
DURATION_CONTEXT = ("sentenced", "sentence", "sentences", "imprisonment", "prison", "detention", "detained",
                    "custody", "remand", "term", "suspended", "probation", "probationary", "ban", "banned",
                    "disqualification", "disqualified", "served", "serve", "serving", "arrest", "deprivation",
                    "correctional", "community service", "penal", "penalty", "jail", "confinement", "parole")


class DurationRecognizer(PatternRecognizer):
    """Terms of imprisonment, detention and bans: "two years and six months", "18 months' imprisonment".

    Why only with a context word: "within two weeks" or "for several days" is ordinary prose, but
    the length of a sentence or of a detention is a quasi-identifier of a court case.  The span
    is the duration alone (the context word is not part of it).
    """

    def __init__(self) -> None:
        super().__init__("duration", "DURATION", DATE, DURATION_RE, context=DURATION_CONTEXT, score=0.5,
                         context_score=0.6, priority=PRIORITY_DURATION, require_context=True)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        # Anchored on the unit words: a scan for "years/months/…" is fast, while the phrase regex
        # (which may start with any number word) would be tried at nearly every character.  Around
        # each unit the phrase regex runs on a window that starts after whitespace well before it.
        spans = []
        done = 0
        for unit in finditer_at(UNIT_RE, text, UNIT_STARTS):
            if unit.start() < done:
                continue
            lo = max(0, unit.start() - _PHRASE_REACH)
            if lo:
                space = _SPACE_RE.search(text, lo, unit.start())
                lo = space.end() if space else unit.start()
            match = next((m for m in self.regex.finditer(text, lo, min(len(text), unit.end() + _PHRASE_REACH))
                          if m.start() <= unit.start() < m.end()), None)
            if match is None:
                continue
            start, end = match.span()
            done = end
            if not has_context(text, start, end, self.context, before=50, after=30):
                continue
            spans.append(CharSpan(start, end, "DURATION", DATE, self.name, self.context_score, self.priority))
        return spans


#: penalties without a length: "sentenced him to life imprisonment", "sought the death penalty"
PENALTY_RE = re.compile(r"(?<![\w-])(?:life[ \t]+imprisonment|life[ \t]+sentence|death[ \t]+(?:penalty|sentence))\b",
                        re.IGNORECASE)
#: the words every penalty starts with (:func:`prescan.occurrences`)
PENALTY_WORDS = ("life", "death", "Life", "Death")
#: the frame that makes the penalty a person's: a sentence passed, sought or commuted (not the law's "abolition of
#: the death penalty")
_PENALTY_FRAME = re.compile(r"\b(?:sentenced|sentencing|sought|seeking|demanded|requested|commuted|faced|facing|"
                            r"imposed|serving|passed)\b[^.;:\n]{0,40}$", re.IGNORECASE)


class PenaltyRecognizer(Recognizer):
    """A life or death sentence passed on or sought for a person: "sentenced him to life imprisonment".

    Why: like the length of a prison term (:class:`DurationRecognizer`), the penalty a person received is a
    quasi-identifier of their case, and a life or death sentence has no number for the duration pattern.
    Only in a frame of sentencing, so the law's "death penalty" (its abolition, a Protocol) stays in clear.
    """

    name = "penalty"
    priority = PRIORITY_DURATION

    def __repr__(self) -> str:
        return "<PenaltyRecognizer en>"

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        # anchored by ``str.find`` or the pre-scan (:func:`prescan.occurrences`): a regex scan costs 4× more
        for _word, pos in occurrences(text, PENALTY_WORDS):
            m = PENALTY_RE.match(text, pos)
            if m is not None and _PENALTY_FRAME.search(text, max(0, pos - 60), pos):
                spans.append(CharSpan(pos, m.end(), "PENALTY", Category.OTHER, self.name, 0.6, self.priority))
        return sorted(spans, key=lambda span: span.start)
