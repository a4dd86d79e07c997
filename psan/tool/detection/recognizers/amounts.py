"""Monetary amounts: "EUR 5,000", "5,000 euros", "£300", "54,000,000 Turkish liras (TRL)".

Why: in judgments and administrative decisions the sums awarded, claimed, fined or paid
(compensation, a fine, the price of a flat) single out a case and its parties as well as a date
does.  An amount needs a currency next to it – an ISO 4217 code, a currency sign or a currency
word – so bare numbers (counts, article and page numbers) are never reported.

Currency codes are matched upper-case only ("EUR", never "eur" or a word), currency words in
any case and optionally after one or two capitalized adjectives ("Turkish liras", "New Turkish liras").  A
trailing code in brackets ("(TRL)") and multipliers ("million", "bn") belong to the span.  After a code or
sign any grouping of digits is the amount, even a mistyped one ("TRL 12.345.6789"), which the phone pattern
would otherwise take alone and leave the code in clear.
"""
from __future__ import annotations

import re

from psan.tool.detection.recognizers.base import (
    PRIORITY_AMOUNT,
    PatternRecognizer,
    after_first,
    case_insensitive_class,
    first_class_first,
)
from psan.tool.detection.recognizers.prescan import candidates, finditer_in, merged_positions, reaching, start
from psan.tool.text.document import Category, CharSpan, Document

#: ISO 4217 codes (current and pre-euro European ones) common in European case law
CURRENCY_CODES = ("EUR", "USD", "GBP", "CHF", "CZK", "SKK", "PLN", "HUF", "RON", "ROL", "BGN", "HRK", "RSD", "RUB",
                  "RUR", "UAH", "TRL", "TRY", "SEK", "NOK", "DKK", "ISK", "MDL", "GEL", "AMD", "AZN", "BAM", "MKD",
                  "DEM", "FRF", "ITL", "ESP", "GRD", "ATS", "BEF", "NLG", "PTE", "FIM", "IEP", "LTL", "LVL", "EEK",
                  "SIT", "CYP", "MTL", "LUF", "JPY", "CNY", "CAD", "AUD", "INR", "BYR", "BYN", "KZT", "ECU", "XEU")
#: currency words (singular and plural forms), matched case-insensitively
CURRENCY_WORDS = (
    "euros?", "eurocents?", "cents?", "dollars?", r"pounds?(?!\s+of\b)(?:\s+sterling)?", "sterling", "pence",
    "francs?", "liras?", "lire", "kurus", "korun[ay]?", "korunas", "crowns?", "zlot(?:y|ys|ies)", "złot(?:y|ych|e)",
    "groszy", "roubles?", "rubles?", "kopecks?", "hryvni?as?", "kunas?", "forints?", "lei", "leu", "levs?", "leva",
    "dinars?", "denars?", "kronor", "kroner", "kronur", "krona", "krone", "deutschmarks?",
    r"deutsche?\s+marks?", r"german\s+marks?", r"finnish\s+marks?", "drachmas?", "escudos?", "pesetas?",
    "schillings?", "shillings?",
    "yen", "yuan", "rupees?", "manats?", "laris?", "drams?", "tenge", "tolars?", "litas", "lats")
_SIGN = "[€£$¥₺₽₴]"
_CODE = "(?:" + "|".join(CURRENCY_CODES) + r")(?![A-Za-z])"
#: ``(?i:euros?|eurocents?|…)`` written with a class of the first letters first (the same matches): after every
#: number the words were tried one by one, a case-insensitive alternation has no quick test of its first letter
_FIRSTS = "".join(dict.fromkeys(w[0] for w in CURRENCY_WORDS))
_WORD = r"(?:[A-Z][a-z]+\s+){0,2}" + first_class_first(
    _FIRSTS, "", {f: "(?i:" + "|".join(w[1:] for w in CURRENCY_WORDS if w[0] == f) + ")" for f in _FIRSTS}) + r"(?!\w)"
#: 5,000 / 1,579,135,521 / 12,355.61 / 300 / 2.5 / 5 000 (thin or no-break spaces too) / 11.590.000 (dots, as
#: Turkish and German texts write thousands) / 2,847.312.000 (both, in long sums)
_AMOUNT = (r"\d{1,3}(?:[,\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?"
           r"|\d{1,3}(?:[,.]\d{3}){2,}|\d+(?:[.,]\d{1,2})?")
#: after a currency code or sign any run of digit groups is the amount, even one mistyped ("TRL 12.345.6789")
_ANY_GROUPING = r"\d+(?:[.,]\d+)+"
_MULTIPLIER = r"(?:\s*(?i:million|billion|thousand|mln|bn|m)(?!\w))?"
#: the money pattern with the currency words as one case-insensitive alternation (``MONEY_RE`` is the same
#: pattern with the words' first letters first; tests compare the two)
MONEY_PLAIN = (
    r"(?=[\d€£$¥₺₽₴A-Z])"
    rf"(?:(?:{_SIGN}|(?<![\w-]){_CODE})\s?(?:{_AMOUNT}|{_ANY_GROUPING}){_MULTIPLIER}(?![\w,.]\d|\d)"
    rf"|(?<![\w.,-])(?:{_AMOUNT}){_MULTIPLIER}\s?(?:{_CODE}|(?:[A-Z][a-z]+\s+){{0,2}}(?i:{'|'.join(CURRENCY_WORDS)})(?!\w))"
    rf"(?:\s*\({_CODE}\))?)")
#: ``_AMOUNT`` after its first digit (``\d{1,3}`` is that digit and ``\d{0,2}``, ``\d+`` that digit and ``\d*``)
_AMOUNT_REST = (r"\d{0,2}(?:[,\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d{0,2}(?:\.\d{3})+(?:,\d{1,2})?"
                r"|\d{0,2}(?:[,.]\d{3}){2,}|\d*(?:[.,]\d{1,2})?")
#: the money pattern with its first character (a digit, a currency sign or a code's capital) matched first by a
#: class and the rest of each form after it (a pattern that starts with a look-around is tried at every
#: character, one that starts with a class lets the regex engine skip to the next candidate in C); the same
#: matches as ``MONEY_PLAIN``.  A capital goes on only when two more capitals and no letter follow it (every
#: code is three capitals): a capitalized word fails there, before the codes are tried one by one
MONEY_RE = re.compile(
    r"[\d€£$¥₺₽₴A-Z]"
    rf"(?:(?:(?<={_SIGN})|(?<![\w-][\s\S])(?=[A-Z]{{2}}(?![A-Za-z])){after_first(CURRENCY_CODES)}(?![A-Za-z]))"
    rf"\s?(?:{_AMOUNT}|{_ANY_GROUPING})"
    rf"{_MULTIPLIER}(?![\w,.]\d|\d)"
    rf"|(?<=\d)(?<![\w.,-][\s\S])(?:{_AMOUNT_REST}){_MULTIPLIER}\s?(?:{_CODE}|{_WORD})(?:\s*\({_CODE}\))?)")

#: the shapes ``MONEY_RE`` matches start with: a currency sign; a code's three capitals after none of ``\w-``; an
#: amount's first digit after none of ``\w.,-``
MONEY_STARTS = (start(_SIGN), start("[A-Z]", "[A-Z]", "[A-Z]", not_before=r"[\w-]"),
                start(r"\d", not_before=r"[\w.,-]"))
#: where ``MONEY_RE`` can match, narrower: a sign, a code's capitals, or an amount's first digit whose digits,
#: separators and spaces run on to a capital (a code, a word before the currency's) or to a letter a currency word
#: or a multiplier starts with (:func:`prescan.reaching`); most numbers are followed by other words ("6 of")
MONEY_OTHER_STARTS = MONEY_STARTS[:2]
MONEY_REACH = (MONEY_STARTS[2:], r"[^\d\s,.]", "[A-Z" + case_insensitive_class(_FIRSTS + "mbt")[1:-1] + "]")


class MoneyRecognizer(PatternRecognizer):
    """Amounts of money with a currency code, sign or word (see module docstring)."""

    def __init__(self) -> None:
        super().__init__("money", "MONEY", Category.OTHER, MONEY_RE, score=0.8, priority=PRIORITY_AMOUNT,
                         starts=MONEY_STARTS)

    def matches(self, text: str) -> list[re.Match[str]]:
        """``list(self.regex.finditer(text))``, tried only where :data:`MONEY_OTHER_STARTS` or :data:`MONEY_REACH`
        allow."""
        at, reached = candidates(text, MONEY_OTHER_STARTS), reaching(text, *MONEY_REACH)
        return finditer_in(self.regex, text, merged_positions(at, reached))

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in self.matches(text):
            start, end = match.span()
            while end > start and text[end - 1] in " \u00a0\u202f":
                end -= 1
            spans.append(CharSpan(start, end, self.type, self.category, self.name, self.score, self.priority))
        return spans


def money_recognizer() -> MoneyRecognizer:
    """The shared money recognizer (stateless)."""
    return MoneyRecognizer()


#: spelled-out numbers from five up ("seventy-one", "twenty three", "fifteen", "a hundred"); smaller counts of
#: events ("two decisions", "four hearings") are in every story and single nobody out
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
_SPELLED = (rf"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\u2011\u2010 ](?:{_UNITS}))?"
            r"|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|ten|five|six|seven|eight|"
            r"nine|(?:a|one|two|three|several)[ \u00a0]hundred)")
#: the steps of proceedings a case is counted in ("seventy-one hearings", "thirty decisions to extend …",
#: "on twelve occasions"): how many of them a case took is a fact of that case a reader can search for
COUNTED_EVENTS = ("hearings", "sessions", "adjournments", "decisions", "occasions", "extensions", "postponements",
                  "interrogations", "transfers", "summonses")
#: how far before its noun a count phrase may start ("twenty-seven consecutive " is 25 characters)
_COUNT_REACH = 40
COUNT_RE = re.compile(rf"(?i:\b{_SPELLED})(?:[ \u00a0]+(?:further|more|other|separate|consecutive))?[ \u00a0]+"
                      rf"(?:{'|'.join(COUNTED_EVENTS)})\b")


class EventCountRecognizer(PatternRecognizer):
    """Spelled-out counts of procedural events, "seventy-one hearings" (see :data:`COUNTED_EVENTS`).

    Why: NER reads a spelled number as part of a date next to it ("4 June 2007 seventy-one") or not at all,
    and a digit count is grown to its noun by :mod:`psan.tool.detection.extension`; the number of hearings or
    decisions of a case is a quasi-identifier the Text Anonymization Benchmark masks.
    """

    def __init__(self) -> None:
        super().__init__("event_count", "QUANTITY", Category.OTHER, COUNT_RE, score=0.6, priority=PRIORITY_AMOUNT)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        # anchored on the counted nouns (``str.find``), the phrase regex run on a short window before each: the
        # regex alone, which may start with any number word, is tried at every word of the text (5× slower)
        found: set[tuple[int, int]] = set()
        for noun in COUNTED_EVENTS:  # lower case: a count's noun is never capitalized
            pos = text.find(noun)
            while pos >= 0:
                end = pos + len(noun)
                for m in self.regex.finditer(text, max(0, pos - _COUNT_REACH), min(len(text), end + 1)):
                    if m.end() == end:
                        found.add(m.span())
                pos = text.find(noun, end)
        return [CharSpan(a, b, self.type, self.category, self.name, self.score, self.priority)
                for a, b in sorted(found)]
