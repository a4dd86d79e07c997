"""National identifiers, bank numbers and secrets – every one validated.

Validation policy: a match whose checksum (or embedded birth date) is wrong is
dropped, never emitted as "looks like X" – in running text a wrong-checksum
11-digit number is much more often a case number than a typo'd PESEL, and a
dropped candidate can still be caught by the generic number rules later.
Formats whose checksum is weak (1 in 11 random numbers pass: IČO, REGON-9,
bare NIP) need a context word (``IČO``, ``REGON``, ``NIP`` …) or get a low
score, so that phone numbers and file numbers are not reported as IDs.
"""
from __future__ import annotations

import datetime
import re

from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.cz import dic as cz_dic
from stdnum.cz import rc as cz_rc
from stdnum.pl import nip as pl_nip
from stdnum.pl import pesel as pl_pesel
from stdnum.pl import regon as pl_regon
from stdnum.si import emso as si_emso
from stdnum.sk import dph as sk_dph

from psan.tool.detection.recognizers.base import (
    PRIORITY_SECRET,
    PRIORITY_VALIDATED_ID,
    PRIORITY_WEAK_ID,
    PatternRecognizer,
    digits,
    drop_contained,
    first_class_first,
    has_context,
    has_digit,
    preceded_by,
)
from psan.tool.detection.recognizers.prescan import ShapedSearch, candidates, finditer_in, literal_starts, start
from psan.tool.text.document import Category, CharSpan, Document

ID = Category.ID

# ---------------------------------------------------------------- validators


def valid_iban(value: str) -> bool:
    return std_iban.is_valid(value)


def valid_card(value: str) -> bool:
    """Luhn over 13–19 digits with a real issuer prefix; all-same digits are filler, not cards."""
    number = digits(value)
    if not 13 <= len(number) <= 19 or number[0] not in "123456" or len(set(number)) < 2:
        return False
    return luhn.is_valid(number)


def valid_birth_number(value: str) -> bool:
    """Czech/Slovak rodné číslo: date (+50 women, +20/+70 since 2004) and mod 11 from 1954 (stdnum.cz.rc)."""
    return cz_rc.is_valid(value.replace(" ", ""))


def valid_ico(value: str) -> bool:
    """IČO (CZ/SK company id): weights 8..2, check = (11 - sum % 11) % 10."""
    number = digits(value)
    if len(number) != 8:
        return False
    total = sum(int(d) * w for d, w in zip(number[:7], range(8, 1, -1), strict=True))
    return (11 - total % 11) % 10 == int(number[7])


def valid_cz_dic(value: str) -> bool:
    return cz_dic.is_valid(value.replace(" ", ""))


def valid_sk_dic(value: str) -> bool:
    return sk_dph.is_valid(value.replace(" ", ""))


def valid_pesel(value: str) -> bool:
    return pl_pesel.is_valid(value)


def valid_nip(value: str) -> bool:
    return pl_nip.is_valid(value.replace(" ", ""))


def valid_regon(value: str) -> bool:
    return pl_regon.is_valid(value)


def valid_emso(value: str) -> bool:
    return si_emso.is_valid(value)


def valid_personnummer(value: str) -> bool:
    """Swedish personnummer/samordningsnummer: Luhn over the 10-digit form and a real date (day+60 allowed)."""
    number = digits(value)
    if len(number) == 12:
        century, number = number[:2], number[2:]
        if century not in ("18", "19", "20"):
            return False
    elif len(number) != 10:
        return False
    if not luhn.is_valid(number):
        return False
    month, day = int(number[2:4]), int(number[4:6])
    if day > 60:
        day -= 60  # samordningsnummer
    try:
        datetime.date(2000, month, day)  # leap year, so 29 February passes
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------- recognizers

class IbanRecognizer(PatternRecognizer):
    """IBAN with or without 4-character grouping; trailing chunks are trimmed until the checksum fits."""

    #: every match has the check digits and two 4-character groups (see :class:`psan.tool.text.document.Recognizer`);
    #: ``\d\d``, not ``\d{2}``: a pattern that starts with a class (not a repeat) lets the regex engine skip to
    #: the next digit in C instead of trying the whole pattern at every character (the same matches, half the time)
    #: searched for only where two digits and a 4-character group (after a space or not) stand
    trigger = ShapedSearch(re.compile(r"\d\d(?: ?[A-Z0-9]{4}){2}"),
                           (start(r"\d", r"\d", *["[A-Z0-9]"] * 4), start(r"\d", r"\d", " ", *["[A-Z0-9]"] * 4)))

    def __init__(self) -> None:
        super().__init__(
            "iban", "IBAN", ID,
            r"[A-Z][A-Z]\d\d(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Za-z0-9])",  # a class first, as above
            context=("iban", "účet", "účtu", "konto", "konta", "rachunek", "rachunku", "account", "bankkonto",
                     "račun", "računa", "číslo účtu", "bank"),
            score=0.95, context_score=1.0, priority=PRIORITY_VALIDATED_ID)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in self.regex.finditer(text):
            start, end = match.span()
            if preceded_by(text, start):
                continue
            value = text[start:end]
            while not valid_iban(value):
                cut = value.rfind(" ")
                if cut <= 4:
                    value = ""
                    break
                value = value[:cut]
            if not value:
                continue
            end = start + len(value)
            ctx = has_context(text, start, end, self.context)
            spans.append(CharSpan(start, end, self.type, self.category, self.name,
                                  self.context_score if ctx else self.score, self.priority))
        return spans


def _digit_prefilter(text: str) -> bool:
    return has_digit(text)


class _DigitRecognizer(PatternRecognizer):
    """Pattern recognizer for number formats: skip texts without any digit."""

    def prefilter(self, text: str) -> bool:
        return _digit_prefilter(text)


#: every card number starts with four digits (after none of ``\d-``) and goes on with a digit or a separator
CARD_STARTS = (start(r"\d", r"\d", r"\d", r"\d", r"[\d -]", not_before=r"[\d-]"),)


def card_recognizer() -> PatternRecognizer:
    return _DigitRecognizer(
        "card", "CARD", ID,
        # ``\d(?<![\d-]\d)…|3(?<![\d-]3)…`` with the first digit taken out of the two alternatives: a pattern that
        # starts with one character class lets the regex engine skip to the next digit in C (the same matches)
        r"\d(?:(?<![\d-]\d)\d{3}[ -]?(?:\d{4}[ -]?){2}\d{1,7}(?![\d-])"
        r"|(?<=3)(?<![\d-]3)\d{3}[ -]?\d{6}[ -]?\d{5}(?![\d-]))",
        validator=valid_card,
        context=("card", "credit card", "karta", "karty", "kartou", "kreditní", "platební", "kort", "kortnummer",
                 "kartica", "visa", "mastercard", "amex"),
        score=0.8, context_score=0.99, priority=PRIORITY_VALIDATED_ID, starts=CARD_STARTS)


BIRTH_NUMBER_CONTEXT = ("rodné číslo", "rodného čísla", "rodným číslem", "r.č.", "r. č.", "rč", "rodné č.",
                        "narozen", "narozena", "narozený", "narozená", "nar.", "rodné", "birth number")


def birth_number_recognizers() -> list[PatternRecognizer]:
    """Rodné číslo with slash (strong) and as 10 bare digits (weaker: could be any 10-digit number)."""
    return [
        _DigitRecognizer("cz_birth_number", "CZ_BIRTH_NUMBER", ID, r"\d(?<![\d/]\d)\d{5} ?/ ?\d{3,4}(?![\d/])",
                         validator=valid_birth_number, context=BIRTH_NUMBER_CONTEXT,
                         score=0.95, context_score=1.0, priority=PRIORITY_VALIDATED_ID),
        _DigitRecognizer("cz_birth_number", "CZ_BIRTH_NUMBER", ID, r"\d(?<![\d/.,-]\d)\d{9}(?![\d/]|[.,]\d)",
                         validator=valid_birth_number, context=BIRTH_NUMBER_CONTEXT,
                         score=0.7, context_score=0.99, priority=PRIORITY_VALIDATED_ID),
    ]


def ico_recognizer() -> PatternRecognizer:
    """8-digit company id; mod 11 alone passes 1 in 10 numbers, so a context word is required."""
    return _DigitRecognizer(
        "cz_ico", "CZ_ICO", ID, r"\d(?<![\d/.,-]\d)(?:\d{7}|\d{2} \d{2} \d{3})(?![\d/]|[.,]\d)",
        validator=valid_ico, context=("ičo", "ič", "ico", "ic", "identifikační číslo", "identifikačné číslo"),
        score=0.5, context_score=0.95, priority=PRIORITY_VALIDATED_ID, require_context=True)


def dic_recognizers() -> list[PatternRecognizer]:
    ctx = ("dič", "dic", "ič dph", "vat", "daňové identifikační číslo")
    return [
        _DigitRecognizer("cz_dic", "CZ_DIC", ID, r"(?<![A-Za-z0-9])CZ ?\d{8,10}(?!\d)", validator=valid_cz_dic,
                         context=ctx, score=0.95, context_score=1.0, priority=PRIORITY_VALIDATED_ID),
        _DigitRecognizer("sk_dic", "SK_DIC", ID, r"(?<![A-Za-z0-9])SK ?\d{10}(?!\d)", validator=valid_sk_dic,
                         context=ctx, score=0.95, context_score=1.0, priority=PRIORITY_VALIDATED_ID),
    ]


def pesel_recognizer() -> PatternRecognizer:
    return _DigitRecognizer(
        "pl_pesel", "PL_PESEL", ID, r"\d(?<![\d/.,-]\d)\d{10}(?![\d/]|[.,]\d)", validator=valid_pesel,
        context=("pesel", "peselu", "numer pesel", "nr pesel"), score=0.9, context_score=1.0,
        priority=PRIORITY_VALIDATED_ID)


def nip_recognizers() -> list[PatternRecognizer]:
    ctx = ("nip", "nipu", "numer identyfikacji podatkowej", "vat")
    grouped = r"(?<![\d-])(?:PL ?)?(?:\d{3}-\d{3}-\d{2}-\d{2}|\d{3}-\d{2}-\d{2}-\d{3})(?![\d-])"
    return [
        _DigitRecognizer("pl_nip", "PL_NIP", ID, grouped, validator=valid_nip, context=ctx,
                         score=0.85, context_score=1.0, priority=PRIORITY_VALIDATED_ID),
        _DigitRecognizer("pl_nip", "PL_NIP", ID, r"(?<![\d/.,-])(?:PL ?)?\d{10}(?![\d/]|[.,]\d)",
                         validator=valid_nip, context=ctx, score=0.5, context_score=0.95,
                         priority=PRIORITY_WEAK_ID, require_context=True),
    ]


def regon_recognizer() -> PatternRecognizer:
    """REGON 9/14 digits; 9-digit REGONs look like Polish phone numbers, hence the required context."""
    return _DigitRecognizer(
        "pl_regon", "PL_REGON", ID, r"\d(?<![\d/.,-]\d)(?:\d{13}|\d{8})(?![\d/]|[.,]\d)", validator=valid_regon,
        context=("regon", "regonu", "nr regon"), score=0.5, context_score=0.95,
        priority=PRIORITY_VALIDATED_ID, require_context=True)


def emso_recognizer() -> PatternRecognizer:
    return _DigitRecognizer(
        "si_emso", "SI_EMSO", ID, r"\d(?<![\d/.,-]\d)\d{12}(?![\d/]|[.,]\d)", validator=valid_emso,
        context=("emšo", "emso", "enotna matična številka"), score=0.9, context_score=1.0,
        priority=PRIORITY_VALIDATED_ID)


def personnummer_recognizers() -> list[PatternRecognizer]:
    ctx = ("personnummer", "personnr", "pnr", "samordningsnummer", "personal identity number", "född")
    dashed = r"\d(?<![\d/.,-]\d)(?:\d{2})?\d{5}[-+]\d{4}(?![\d-])"
    bare = r"\d(?<![\d/.,-]\d)(?:\d{11}|\d{9})(?![\d/]|[.,]\d)"
    return [
        _DigitRecognizer("se_personnummer", "SE_PERSONNUMMER", ID, dashed, validator=valid_personnummer,
                         context=ctx, score=0.9, context_score=1.0, priority=PRIORITY_VALIDATED_ID),
        _DigitRecognizer("se_personnummer", "SE_PERSONNUMMER", ID, bare, validator=valid_personnummer,
                         context=ctx, score=0.6, context_score=0.95, priority=PRIORITY_WEAK_ID),
    ]


def valid_us_ssn(value: str) -> bool:
    """US SSN: area not 000/666/9xx, group not 00, serial not 0000, and not a well-known dummy."""
    number = digits(value)
    area, group, serial = number[:3], number[3:5], number[5:]
    if len(number) != 9 or area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return False
    return number not in ("123456789", "078051120", "219099999")


def us_ssn_recognizer() -> PatternRecognizer:
    """Only the dashed/spaced form: bare 9 digits are any number."""
    return _DigitRecognizer(
        "us_ssn", "US_SSN", ID, r"\d(?<![\d/.,-]\d)\d{2}([- ])\d{2}\1\d{4}(?![\d-])", validator=valid_us_ssn,
        context=("ssn", "social security", "social security number"), score=0.6, context_score=0.95,
        priority=PRIORITY_WEAK_ID, starts=(start(r"\d", r"\d", r"\d", "[- ]", not_before=r"[\d/.,-]"),))


# ---------------------------------------------------------------- secrets

SECRET_KEYWORDS = (
    "password", "passwd", "pwd", "passcode", "pass", "heslo", "hesla", "hasło", "haslo", "hasła", "lösenord",
    "losenord", "geslo", "gesla", "token", "access token", "access_token", "auth token", "api key", "api_key",
    "api-key", "apikey", "secret", "secret key", "secret_key", "client_secret", "client secret",
    "access_key", "private_key", "pin", "pin kód", "pin code",
)

_keyword_alt = "|".join(re.escape(k).replace(r"\ ", r"[ _-]?") for k in sorted(SECRET_KEYWORDS, key=len, reverse=True))
#: only password words may take a verb instead of ``:``/``=`` ("heslo je X"); "the token is valid" is prose
_PASSWORD_WORDS = "password|passwd|heslo|hasło|haslo|lösenord|losenord|geslo"  # noqa: S105 - keywords  # nosec B105
#: keyword then ``:``/``=``/``=>`` (or a password word + is/je/jest/är/to), then the value
#: first letters of every keyword: a look-ahead on them lets the engine pass other characters cheaply
_KEYWORD_FIRSTS = "".join(sorted({k[0] for k in SECRET_KEYWORDS} | {w[0] for w in _PASSWORD_WORDS.split("|")}))
#: the pattern as written: keyword (or password word + verb), separator, value
SECRET_AFTER_KEYWORD_PLAIN = (
    rf"(?=(?i:[{_KEYWORD_FIRSTS}]))(?<![\w-])(?:(?i:{_keyword_alt})\s*(?::|=>|=)\s*|(?i:{_PASSWORD_WORDS})\s+(?i:is|je|jest|to|är)\s+)"
    r"[\"'`]?(?P<value>[^\s\"'`,;]{4,128})")
SECRET_AFTER_KEYWORD = re.compile(first_class_first(
    _KEYWORD_FIRSTS, r"[\w-]",
    {first: (rf"(?i:{'|'.join(k[1:] for k in _keyword_alt.split('|') if k[0].lower() == first)})\s*(?::|=>|=)\s*"
             + (rf"|(?i:{'|'.join(w[1:] for w in _PASSWORD_WORDS.split('|') if w[0] == first)})"
                r"\s+(?i:is|je|jest|to|är)\s+" if any(w[0] == first for w in _PASSWORD_WORDS.split("|")) else ""))
     for first in _KEYWORD_FIRSTS},
    r"[\"'`]?(?P<value>[^\s\"'`,;]{4,128})"))

#: the shapes every keyword match starts with: a keyword's (or password word's) first three letters as ``(?i:…)``
#: matches them, after none of ``\w-``
SECRET_STARTS = literal_starts((*SECRET_KEYWORDS, *_PASSWORD_WORDS.split("|")), 3, not_before=r"[\w-]",
                               ignore_case=True)

#: well-known credential shapes that are secret without any keyword
KNOWN_SECRET_SHAPES = re.compile(
    r"(?:"
    r"AKIA[0-9A-Z]{16}"                                  # AWS access key id
    r"|gh[pousr]_[A-Za-z0-9]{36,255}"                    # GitHub token
    r"|github_pat_[A-Za-z0-9_]{40,255}"
    r"|xox[baprs]-[A-Za-z0-9-]{10,72}"                   # Slack
    r"|AIza[0-9A-Za-z_\-]{35}"                           # Google API key
    r"|sk-(?:proj-)?[A-Za-z0-9_\-]{20,}"                 # OpenAI-style
    r"|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"       # Stripe
    r"|glpat-[A-Za-z0-9_\-]{20}"                         # GitLab
    r"|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"  # JWT
    r"|-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]{0,8000}?-----END (?:[A-Z]+ )?PRIVATE KEY-----"
    r")(?![A-Za-z0-9])")

#: cheap substring tests (on the lower-cased text) before running the two secret regexes
KEYWORD_HINTS = ("pass", "pwd", "hesl", "hasł", "hasl", "lösen", "losen", "gesl", "token", "key", "secret", "pin")
_SHAPE_HINTS = ("AKIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AIza", "sk-", "_live_",
                "_test_", "glpat-", "eyJ", "-----BEGIN")
#: the shape hints with an underscore (tested only when the text has one) and the others
_UNDERSCORE_SHAPE_HINTS = tuple(h for h in _SHAPE_HINTS if "_" in h)
_OTHER_SHAPE_HINTS = tuple(h for h in _SHAPE_HINTS if "_" not in h)


#: the shape hints' first three characters (:mod:`psan.tool.detection.recognizers.prescan`)
SHAPE_HINT_STARTS = literal_starts(_SHAPE_HINTS, 3)


def _shape_hit(text: str) -> bool:
    """``any(hint in text for hint in _SHAPE_HINTS)``, the eight hints with "_" tested only when "_" occurs; in a
    large text at the places where the pre-scan finds one of the hints' first three characters (not by fifteen
    substring searches of the whole text)."""
    at = candidates(text, SHAPE_HINT_STARTS)
    if at is not None:
        return any(text.startswith(_SHAPE_HINTS, p) for p in at)
    return (any(h in text for h in _OTHER_SHAPE_HINTS)
            or "_" in text and any(h in text for h in _UNDERSCORE_SHAPE_HINTS))


def _hinted(text: str) -> bool:
    """Whether the lower-cased text holds a keyword hint (a text without one is not searched for keywords)."""
    return _lowered_hinted(text.lower())


def _lowered_hinted(lowered: str) -> bool:
    """:func:`_hinted` of a text already lower-cased."""
    return any(hint in lowered for hint in KEYWORD_HINTS)


#: the keywords' (and password words') first three letters, as :data:`SECRET_STARTS` has them (lower case)
SECRET_PREFIXES = tuple(dict.fromkeys(word[:3].lower() for word in (*SECRET_KEYWORDS, *_PASSWORD_WORDS.split("|"))))
#: the characters that ``(?i:x)`` matches for a letter ``x`` of :data:`SECRET_PREFIXES` whose ``lower()`` is not ``x``
#: (Unicode case folding's extras: the long s, the dotless i; the dotted capital I lowers to two characters); a text
#: with one is searched whole (the tests derive this list from every Unicode character)
FOLDED_ONLY = "ſıİ"


def keyword_starts(text: str, lowered: str) -> list[int] | None:
    """The sorted positions where the lower-cased text ``lowered`` of ``text`` starts with one of
    :data:`SECRET_PREFIXES`: every position where :data:`SECRET_AFTER_KEYWORD` matches is one; ``None`` (search the
    whole text) when ``lowered`` is not one character per character of ``text`` or ``text`` holds a character of
    :data:`FOLDED_ONLY`.

    Why: a short text (no pre-scan) with a hint ("key", "pin", "pass": most court decisions) was scanned whole by the
    keyword regex, whose first class holds eight common letters; the lowered text, made for the hints anyway, gives
    the keywords' places by substring searches.  Where the regex matches, its first three characters match a prefix
    ignoring case, and each such character outside :data:`FOLDED_ONLY` lowers to the prefix's letter.
    """
    if len(lowered) != len(text) or any(ch in text for ch in FOLDED_ONLY):
        return None
    found: list[int] = []
    for prefix in SECRET_PREFIXES:
        pos = lowered.find(prefix)
        while pos >= 0:
            found.append(pos)
            pos = lowered.find(prefix, pos + 1)
    found.sort()
    return found

_COMMON_NON_SECRETS = frozenset({"none", "null", "****", "xxxx", "required", "optional", "string", "hidden"})
#: transcript markup ("password to <unintelligible/>"): a tag, not a value
_MARKUP = re.compile(r"</?[A-Za-z][\w-]*/?>?")


class SecretRecognizer(PatternRecognizer):
    """Values after password/token/API-key keywords plus well-known key shapes."""

    def __init__(self) -> None:
        super().__init__("secret", "SECRET", ID, SECRET_AFTER_KEYWORD, group="value", score=0.9,
                         context_score=0.9, priority=PRIORITY_SECRET, starts=SECRET_STARTS)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        # as before: a text without a hint is not searched; a large text is searched where the pre-scan allows
        # first, and its hints are looked for only when that finds something (lower-casing it costs more)
        at = candidates(text, self.starts)
        if at is None:
            lowered = text.lower()
            found = finditer_in(self.regex, text, keyword_starts(text, lowered)) if _lowered_hinted(lowered) else []
        else:
            found = finditer_in(self.regex, text, at)
            if found and not _hinted(text):
                found = []
        for match in found:
            if preceded_by(text, match.start(), "-"):
                continue
            start, end = match.span("value")
            value = text[start:end].rstrip(".,)]}>")
            if len(value) < 4 or value.lower() in _COMMON_NON_SECRETS or _MARKUP.fullmatch(value):
                continue
            spans.append(CharSpan(start, start + len(value), "SECRET", ID, self.name, 0.9, self.priority))
        for match in KNOWN_SECRET_SHAPES.finditer(text) if _shape_hit(text) else ():
            if preceded_by(text, match.start()):
                continue
            spans.append(CharSpan(match.start(), match.end(), "SECRET", ID, self.name, 0.95, self.priority))
        return drop_contained(spans)
