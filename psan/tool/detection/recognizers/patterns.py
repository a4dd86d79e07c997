"""Pattern recognizers: the registry and postal codes.

``default_recognizers(language)`` returns the recognizers for one document
language ("cs", "sk", "pl", "sv", "sl", "en"; anything else gets all of
them).  Language-independent formats (e-mail, URL, IP, IBAN, card, secrets,
@usernames, numeric dates) always run; national IDs, phone regions, month
names, age phrases and postal codes follow the language, because their
formats collide with ordinary numbers in other countries' text.

Priorities (higher wins an overlap in :mod:`psan.tool.detection.merge`): validated IDs
50 > secrets 45 > e-mail/URL/IP 40 > @username 35 > phone 30 > weak IDs and file numbers 25 >
money 22 > dates 20 > ages 15 > durations 12 > addresses 11 > postal codes 10 > NER 0 >
gazetteer −10.  Addresses (a street with its house number, town and postcode as one span) and UK
postcodes are in :mod:`~psan.tool.detection.recognizers.addresses`.

English also gets phrase recognizers in English words (:mod:`~psan.tool.detection.recognizers.amounts` with spelled
counts of hearings and decisions, :mod:`~psan.tool.detection.recognizers.references`, life and death sentences in a
sentencing frame (:class:`~psan.tool.detection.recognizers.dates.PenaltyRecognizer`), quoted titles after "entitled"
(:mod:`~psan.tool.detection.recognizers.titles`, priority 5), date ranges/decades/years in context and terms of
imprisonment in :mod:`~psan.tool.detection.recognizers.dates`): the vocabulary of legal and administrative
text, where amounts, file numbers and dates of events are the quasi-identifiers NER misses.
"""
from __future__ import annotations

import re
from functools import cache

from psan.tool.detection.recognizers.addresses import UkPostcodeRecognizer, address_recognizer
from psan.tool.detection.recognizers.amounts import EventCountRecognizer, MoneyRecognizer
from psan.tool.detection.recognizers.base import (
    PRIORITY_POSTAL,
    PatternRecognizer,
    compile_context,
    has_context,
    has_digit,
)
from psan.tool.detection.recognizers.contact import (
    EmailRecognizer,
    IpRecognizer,
    UrlRecognizer,
    UsernameRecognizer,
    phone_recognizer,
)
from psan.tool.detection.recognizers.dates import (
    AgeRecognizer,
    DurationRecognizer,
    EnglishDatePhraseRecognizer,
    NumericDateRecognizer,
    PenaltyRecognizer,
    WrittenDateRecognizer,
)
from psan.tool.detection.recognizers.ids import (
    IbanRecognizer,
    SecretRecognizer,
    birth_number_recognizers,
    card_recognizer,
    dic_recognizers,
    emso_recognizer,
    ico_recognizer,
    nip_recognizers,
    personnummer_recognizers,
    pesel_recognizer,
    regon_recognizer,
    us_ssn_recognizer,
)
from psan.tool.detection.recognizers.layout import SpeakerRecognizer
from psan.tool.detection.recognizers.references import CaseNumberRecognizer
from psan.tool.detection.recognizers.titles import TitleRecognizer
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

LANGUAGES = ("cs", "sk", "pl", "sv", "sl", "en")

POSTAL_CONTEXT = ("psč", "psc", "poštovní", "adresa", "adresou", "bytem", "bydliště", "trvale", "ulice", "ul.",
                  "nám.", "náměstí", "kod pocztowy", "kod", "adres", "zamieszkały", "zamieszkała", "postnummer",
                  "adress", "box", "gatan", "vägen", "pošta", "poštna številka", "naslov", "ulica", "cesta",
                  "sídlo", "se sídlem", "address")

#: postal code shapes: regex, score alone, score when a capitalized word (the town) follows
POSTAL_FORMS: dict[str, tuple[str, float, float, bool]] = {
    # "123 45" – CZ codes start 1–7, SK 0/8/9; the space is mandatory (bare 5 digits are anything)
    "cs": (r"(?<![\w,.-])(?:CZ-\s?)?[1-7]\d{2} \d{2}(?![\w]|[.,]\d)", 0.3, 0.7, False),
    "sk": (r"(?<![\w,.-])(?:SK-\s?)?[089]\d{2} \d{2}(?![\w]|[.,]\d)", 0.3, 0.7, False),
    "sv": (r"(?<![\w,.-])(?:SE-\s?)?[1-9]\d{2} \d{2}(?![\w]|[.,]\d)", 0.3, 0.7, False),
    "pl": (r"\d(?<![\w,./-]\d)\d-\d{3}(?![\w-]|[.,]\d)", 0.5, 0.85, False),
    # 4 digits collide with years: only "SI-1000" or with a context word
    "sl": (r"(?<![\w,.-])(?:SI-\s?)?[1-9]\d{3}(?![\w]|[.,]\d)", 0.5, 0.7, True),
}
_TOWN_AFTER = re.compile(r"[ \t]+[A-ZÁČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽĄĆĘŁŃŚŹŻÅÄÖ][a-záčďéěíĺľňóôŕřšťúůýžąćęłńśźżåäö]+")


class PostalCodeRecognizer(PatternRecognizer):
    """Postal codes of one language: weak alone, stronger before a town name, strong with a context word."""

    def __init__(self, language: str) -> None:
        pattern, score, town_score, needs_context = POSTAL_FORMS[language]
        super().__init__(f"postal_code_{language}", "POSTAL_CODE", Category.LOCATION, pattern,
                         context=POSTAL_CONTEXT, score=score, context_score=0.9, priority=PRIORITY_POSTAL,
                         require_context=needs_context)
        self.town_score = town_score
        self.context = compile_context(POSTAL_CONTEXT)

    def prefilter(self, text: str) -> bool:
        return has_digit(text)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in self.regex.finditer(text):
            start, end = match.span()
            value = match.group()
            prefixed = "-" in value and value[:2].isalpha()
            if has_context(text, start, end, self.context, before=60, after=0) or prefixed:
                score = self.context_score
            elif self.require_context:
                continue
            elif _TOWN_AFTER.match(text, end):
                score = self.town_score
            else:
                score = self.score
            spans.append(CharSpan(start, end, self.type, self.category, self.name, score, self.priority))
        return spans


def _language_ids(language: str) -> list[Recognizer]:
    if language in ("cs", "sk"):
        ids: list[Recognizer] = [*birth_number_recognizers(), ico_recognizer(), *dic_recognizers()]
        return ids
    if language == "pl":
        return [pesel_recognizer(), *nip_recognizers(), regon_recognizer()]
    if language == "sl":
        return [emso_recognizer()]
    if language == "sv":
        return list(personnummer_recognizers())
    if language == "en":
        return [us_ssn_recognizer()]
    return []


def _language_phrases(language: str) -> list[Recognizer]:
    """Recognizers of phrases in one language's words (English: date phrases, terms, amounts, file numbers)."""
    if language == "en":
        return [EnglishDatePhraseRecognizer(), DurationRecognizer(), PenaltyRecognizer(), MoneyRecognizer(),
                EventCountRecognizer(),
                CaseNumberRecognizer(), TitleRecognizer()]
    return []


@cache
def _recognizers(language: str) -> tuple[Recognizer, ...]:
    langs = (language,) if language in LANGUAGES else LANGUAGES
    recognizers: list[Recognizer] = [
        EmailRecognizer(), UrlRecognizer(), IpRecognizer(), UsernameRecognizer(), IbanRecognizer(),
        card_recognizer(), SecretRecognizer(), NumericDateRecognizer(),
        WrittenDateRecognizer(language if language in LANGUAGES else ""),
        AgeRecognizer(language if language in LANGUAGES else ""),
        phone_recognizer(language if language in LANGUAGES else ""), SpeakerRecognizer(),
    ]
    for lang in langs:
        if lang in ("cs", "sk") and lang == "sk" and "cs" in langs:
            continue  # cs and sk share the same ID recognizers
        recognizers.extend(_language_ids(lang))
        recognizers.extend(_language_phrases(lang))
        if lang in POSTAL_FORMS:
            recognizers.append(PostalCodeRecognizer(lang))
        if (address := address_recognizer(lang)) is not None:
            recognizers.append(address)
        if lang == "en":
            recognizers.append(UkPostcodeRecognizer())
    return tuple(recognizers)


def default_recognizers(language: str) -> list[Recognizer]:
    """All pattern recognizers for ``language`` (instances are shared and stateless)."""
    return list(_recognizers(language))


def analyze(text: str, language: str) -> list[CharSpan]:
    """Run every pattern recognizer for ``language`` over ``text`` (convenience for tests and evaluation)."""
    doc = Document(text=text, language=language)
    return [span for recognizer in _recognizers(language) for span in recognizer.analyze(text, doc)]
