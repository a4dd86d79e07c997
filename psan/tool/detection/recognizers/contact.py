"""Contact data: e-mail, URL, IP address, phone number, @username.

Phones use a cheap regex to find digit runs and ``phonenumbers`` to decide:
``PhoneNumberMatcher`` over a whole document is ~100× slower than the regex
prefilter and finds nothing more on text that has no phone-like run.
"""
from __future__ import annotations

import ipaddress
import re
from functools import cache

import phonenumbers

from psan.tool.detection.recognizers.base import (
    PRIORITY_EMAIL_URL,
    PRIORITY_IP,
    PRIORITY_PHONE,
    PRIORITY_USERNAME,
    PatternRecognizer,
    compile_context,
    has_context,
    preceded_by,
)
from psan.tool.detection.recognizers.prescan import Searcher, ShapedSearch, literal_starts, start
from psan.tool.text.document import Category, CharSpan, Document

CONTACT = Category.CONTACT

EMAIL_RE = re.compile(r"(?<![\w.%+-])[\w%+-]+(?:\.[\w%+-]+)*@(?:[\w-]+\.)+[A-Za-z]{2,24}(?![\w-])")

_TLDS = "com|org|net|edu|gov|int|eu|cz|sk|pl|se|si|uk|de|at|info|io|biz|me|tv|app|dev|online|ai|co"
URL_RE = re.compile(
    r"(?<![\w@.-])(?:"
    r"(?:https?|ftp)://[^\s<>\"'{}|\\^`\[\]]+"
    r"|www\.[^\s<>\"'{}|\\^`\[\]]+"
    rf"|(?:[a-z0-9](?:[a-z0-9-]{{0,61}}[a-z0-9])?\.)+(?:{_TLDS})(?![\w@-]|\.\w)(?:/[^\s<>\"'{{}}|\\^`\[\]]*)?"
    r")", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)]}>'\""
#: URLs whose path names a person (profile pages, home directories, social networks): their own
#: type URL_PERSONAL, private at pre-annotation in the app (``psan.store.admin.rules.PRIVATE_BY_DEFAULT``)
PERSONAL_URL_RE = re.compile(
    r"(?:/~[\w.-]+|/(?:users?|people|persons?|profiles?|members?|staff|authors?|u|in|pub|citizen|lide|osoby)/[^/?#\s]+"
    r"|(?<![\w-])(?:facebook|fb|twitter|x|instagram|linkedin|github|gitlab|tiktok|youtube|medium|reddit|vk|mastodon\.\w+)"
    r"\.(?:com|org|social|ru)/(?!(?:home|about|search|help|login|share|intent|watch|explore|policies)\b)@?[\w.-]{2,}"
    r"|[?&](?:user(?:name)?|uid|email|id_user)=[^&#\s]+|/@[\w.-]+)", re.IGNORECASE)


def is_personal_url(url: str) -> bool:
    """Does the URL point at one person (a profile, a home directory, a user parameter)?"""
    return PERSONAL_URL_RE.search(url) is not None

IPV4_RE = re.compile(r"\d(?<![\w.]\d)\d{0,2}\.(?:\d{1,3}\.){2}\d{1,3}(?![\w]|\.\d)")
IPV6_RE = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")

USERNAME_RE = re.compile(r"@(?<![\w@.+-]@)[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?(?![\w@]|\.\w)")

#: candidate phone numbers: optional +/00 prefix, digits with common separators, 7+ digits in total
#: (a no-break or thin space groups digits too: "495 817\u00a0111" in Czech office listings)
PHONE_CANDIDATE_RE = re.compile(
    r"[+(\d](?<![\w+/.,-][+(\d])\(?[\d ()./\u00a0\u2009\u202f-]{5,20}\d(?![\w/-]|[.,]\d)")
#: the shapes its matches start with: a ``+``, ``(`` or digit after none of ``\w+/.,-``, then five characters of the
#: run (an opening bracket is one of them)
_RUN = r"[\d ()./\u00a0\u2009\u202f-]"
PHONE_STARTS = (start(r"[+(\d]", _RUN, _RUN, _RUN, _RUN, _RUN, not_before=r"[\w+/.,-]"),)
#: the spaces between digit groups, where a run of two numbers listed one after the other may be split
_GROUP_GAP_RE = re.compile(r"[ \u00a0\u2009\u202f]+")
#: digits of an international number kept on its context alone though no number plan validates it (an old
#: "00482 / 6287221", Warsaw before 2005's plan)
INTERNATIONAL_DIGITS = (11, 15)
_NON_DIGIT_RE = re.compile(r"\D")
_DATE_LIKE_RE = re.compile(r"^\d{1,4}[./ -]+\d{1,2}[./ -]+\d{1,4}$")
#: a local number without its area code ("555-0199": exchange and line, dialled within the area): no number
#: plan validates it, libphonenumber calls it possible for local dialling only
LOCAL_NUMBER_RE = re.compile(r"^[2-9]\d{2}-\d{4}$")
#: words before a "250-1000" that make it a range of counts or pages, not a local number
_RANGE_BEFORE_RE = re.compile(r"(?:between|from|pages?|pp?\.|nos?\.|§|art\.|articles?|paragraphs?|sections?)\s*$",
                              re.IGNORECASE)

#: phone regions tried per language (first that validates wins); "+"-prefixed numbers need none
PHONE_REGIONS: dict[str, tuple[str, ...]] = {
    "cs": ("CZ",), "sk": ("SK",), "pl": ("PL",), "sv": ("SE",), "sl": ("SI",), "en": ("GB", "US"),
}
#: with a context word ("tel.", "phone" …) a number valid in one of these regions is accepted too (lower score)
FALLBACK_REGIONS = ("CZ", "SK", "PL", "SE", "SI", "GB", "US", "DE", "AT", "FR", "IT", "ES", "NL", "BE", "CH", "IE",
                    "AU", "CA", "IN", "HU", "UA")
PHONE_CONTEXT = ("tel", "tel.", "telefon", "telefonu", "telefonní", "telefonu:", "telephone", "phone", "mobile",
                 "mobil", "mob.", "mob", "gsm", "fax", "call", "kontakt", "volejte", "zavolejte", "číslo",
                 "numer", "nr tel", "telefonnummer", "telefonnr", "ring", "tlf", "telefonska", "cell")


@cache
def _plan_screen(region: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """(the region's international dialling prefix, the national numbers of its country code that a valid number's
    digits end with), or ``None`` where no such screen is sound.

    Why: most digit runs of a text (application numbers such as "12345/06") are no number of the region, and
    libphonenumber costs tens of microseconds to say so.  For a run of digits and separators (no extension label)
    written without "+" and parsed for ``region``, libphonenumber keeps the region's country code unless the digits
    start with the international dialling prefix; it takes off leading digits only (the country code, the national
    prefix, a carrier code) unless the plan it parses with (the region's, or the country code's main region's after
    a leading country code) transforms a national prefix; and a valid number's national significant number matches
    the general pattern of a region of its country code.  So where neither plan transforms, a number whose digits
    start with no dialling prefix and end with no such national number is invalid.
    """
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    if metadata is None or not metadata.international_prefix:
        return None
    main = phonenumbers.PhoneMetadata.metadata_for_region(
        phonenumbers.region_code_for_country_code(metadata.country_code))
    if main is None or metadata.national_prefix_transform_rule or main.national_prefix_transform_rule:
        return None
    patterns = []
    for sibling in phonenumbers.region_codes_for_country_code(metadata.country_code):
        plan = phonenumbers.PhoneMetadata.metadata_for_region(sibling)
        if plan is None or plan.general_desc is None or not plan.general_desc.national_number_pattern:
            return None
        patterns.append(plan.general_desc.national_number_pattern)
    ending = "|".join(f"(?:{pattern})" for pattern in dict.fromkeys(patterns))
    return re.compile(metadata.international_prefix), re.compile(rf"(?:{ending})\Z")


def _valid(value: str, region: str | None) -> bool:
    """libphonenumber's answer: does ``value`` parse for ``region`` as a valid number?"""
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(value, region))
    except phonenumbers.NumberParseException:
        return False


def ruled_out_by_plan(digits: str, region: str) -> bool:
    """Is a number with these ASCII ``digits``, written without "+", certainly invalid for ``region``
    (:func:`_plan_screen`)?"""
    screen = _plan_screen(region)
    return screen is not None and screen[0].match(digits) is None and screen[1].search(digits) is None


class EmailRecognizer(PatternRecognizer):
    def __init__(self) -> None:
        super().__init__("email", "EMAIL", CONTACT, EMAIL_RE, score=0.95, context_score=0.95,
                         priority=PRIORITY_EMAIL_URL, not_after=".%+-")

    def prefilter(self, text: str) -> bool:
        return "@" in text


#: the URL trigger's two alternatives: a dot and a TLD (or the dot after "www"), and "://"
_URL_TRIGGER = (rf"\.(?:(?i:{_TLDS})(?![\w@-]|\.\w)|(?<=(?i:www)\.))", "://")
#: the IP trigger's two alternatives: an IPv4 address's dotted numbers, two colons at most four hex digits apart
_IP_TRIGGER = (r"\.(?<=\d\.)\d{1,3}\.\d{1,3}\.\d", ":[0-9A-Fa-f]{0,4}:")


class UrlRecognizer(PatternRecognizer):
    """http(s)/ftp/www URLs, and bare domains with a common TLD (lower score)."""

    #: every match has ``://``, ``www.`` or a dot + TLD (see :class:`psan.tool.text.document.Recognizer`); a short
    #: text is searched for each alternative alone (one starts with ``.``, the other with ``:``: a literal first
    #: character); a large text where a dot and a TLD's first two letters, "://" or (three on) "www." stand
    trigger = ShapedSearch(re.compile("|".join(_URL_TRIGGER)),
                           (*literal_starts([f".{tld}" for tld in _TLDS.split("|")], 3, ignore_case=True),
                            *literal_starts(["://"], 3)),
                           ((literal_starts(["www."], 4, ignore_case=True), 3),), branches=_URL_TRIGGER)

    def __init__(self) -> None:
        super().__init__("url", "URL", CONTACT, URL_RE, priority=PRIORITY_EMAIL_URL)

    def prefilter(self, text: str) -> bool:
        return "." in text

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in self.regex.finditer(text):
            start, end = match.span()
            if preceded_by(text, start, "@.-"):
                continue
            value = text[start:end]
            while value and value[-1] in _URL_TRAILING:
                # keep a closing bracket that has its opening pair inside the URL (Wikipedia links)
                if value[-1] == ")" and value.count("(") >= value.count(")"):
                    break
                value = value[:-1]
            if len(value) < 4:
                continue
            explicit = value.lower().startswith(("http://", "https://", "ftp://", "www."))
            kind = "URL_PERSONAL" if is_personal_url(value) else "URL"
            spans.append(CharSpan(start, start + len(value), kind, CONTACT, self.name,
                                  0.95 if explicit else 0.6, self.priority))
        return spans


class IpRecognizer(PatternRecognizer):
    """IPv4/IPv6 literals validated by :mod:`ipaddress` (so 999.1.1.1 and 10:30:00 are not IPs)."""

    #: every IPv4 match has four dotted numbers, every IPv6 match two colons at most four hex digits apart
    #: (searched for only where a dot, one to three digits and a dot, or two colons at most four hex digits apart
    #: stand)
    trigger = ShapedSearch(re.compile("|".join(_IP_TRIGGER)),
                           tuple(start(r"\.", *[r"\d"] * k, r"\.") for k in (1, 2, 3))
                           + tuple(start(":", *["[0-9A-Fa-f]"] * k, ":") for k in range(5)), branches=_IP_TRIGGER)

    def __init__(self) -> None:
        super().__init__("ip", "IP", CONTACT, IPV4_RE, context=("ip", "ip address", "adresa ip", "adres ip",
                                                                 "ip-adress", "server", "host"),
                         score=0.8, context_score=0.95, priority=PRIORITY_IP)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        if "." in text:
            for match in IPV4_RE.finditer(text):
                value = match.group()
                try:
                    ipaddress.IPv4Address(value)
                except ValueError:
                    continue
                ctx = has_context(text, match.start(), match.end(), self.context)
                spans.append(CharSpan(match.start(), match.end(), "IP", CONTACT, self.name,
                                      self.context_score if ctx else self.score, self.priority))
        if "::" in text or text.count(":") >= 5:
            for match in IPV6_RE.finditer(text):
                value = match.group()
                if value.count(":") < 2 or not any(ch.isalnum() for ch in value):
                    continue
                try:
                    ipaddress.IPv6Address(value)
                except ValueError:
                    continue
                spans.append(CharSpan(match.start(), match.end(), "IP", CONTACT, self.name, 0.9, self.priority))
        return spans


class UsernameRecognizer(PatternRecognizer):
    """``@handle`` not part of an e-mail address."""

    def __init__(self) -> None:
        super().__init__("username", "USERNAME", CONTACT, USERNAME_RE, score=0.85, priority=PRIORITY_USERNAME)

    def prefilter(self, text: str) -> bool:
        return "@" in text


class PhoneRecognizer(PatternRecognizer):
    """Phone numbers validated by libphonenumber for the document language's region(s).

    International numbers (``+420 …``, ``0048 …``) validate without a region.  A local number without its
    area code ("555-0199") counts where the region's plan allows local dialling (score 0.6).
    Runs that read as dates are skipped. Score 0.7 alone, 0.95 with a context
    word (``tel.``, ``phone``, ``mobil`` …) or an international prefix.
    """

    def __init__(self, regions: tuple[str, ...]) -> None:
        super().__init__("phone", "PHONE", CONTACT, PHONE_CANDIDATE_RE, context=PHONE_CONTEXT,
                         score=0.7, context_score=0.95, priority=PRIORITY_PHONE)
        self.regions = regions or ("US",)

    def warm_up(self) -> None:
        """libphonenumber's metadata of the regions (and of those sharing their country code: validating a
        "+1" number reads all 25 NANP regions), loaded module by module at first use otherwise, and the
        regexes of their number plans, compiled at first use: every such region's example number and a number
        valid in none of them (which every region tries unless the screen rules it out) are validated once, and
        the regions' screens (:func:`_plan_screen`) built."""
        super().warm_up()
        national = phonenumbers.PhoneNumberFormat.NATIONAL
        for region in self.regions:
            for sibling in phonenumbers.region_codes_for_country_code(phonenumbers.country_code_for_region(region)):
                example = phonenumbers.example_number(sibling)
                if example is not None:
                    _valid(phonenumbers.format_number(example, national), sibling)
            _plan_screen(region)
            _valid("12345/67", region)

    def _parse(self, value: str, regions: tuple[str, ...] | None = None) -> bool:
        international = value.startswith(("+", "00"))
        # an ASCII run written without "+": its digits screened per region before libphonenumber
        digits = None if international or not value.isascii() else _NON_DIGIT_RE.sub("", value)
        candidate = "+" + value[2:] if value.startswith("00") else value
        for region in (None,) if international else (regions or self.regions):
            if digits is not None and ruled_out_by_plan(digits, region):
                continue
            if _valid(candidate, region):
                return True
        return False

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        """Each candidate run that validates; a run may also hold two numbers listed one after the other
        ("495 817 111 495 817 630"): its leading groups that validate best (the highest score, then the longest)
        are a number, and the search goes on after them."""
        spans = []
        pos = 0
        runs = Searcher(self.regex, text, PHONE_STARTS)
        while (match := runs.search(pos)) is not None:
            start = match.start()
            scored = []
            for end in self._piece_ends(text, start, match.end()):
                score = self._score(text, start, end)
                if score is not None:
                    scored.append((score, end))
                    if score >= self.context_score:
                        break  # no shorter piece scores higher
            if not scored:
                pos = match.end()
                continue
            score, end = max(scored)  # valid where the language is spoken before valid elsewhere; then longest
            spans.append(CharSpan(start, end, "PHONE", CONTACT, self.name, score, self.priority))
            pos = end
        return spans

    def _local(self, value: str) -> bool:
        """A number of the document's regions that is possible for local dialling only ("555-0199" in the US)."""
        local_only = phonenumbers.ValidationResult.IS_POSSIBLE_LOCAL_ONLY
        for region in self.regions:
            try:
                number = phonenumbers.parse(value, region)
            except phonenumbers.NumberParseException:
                continue
            if phonenumbers.is_possible_number_with_reason(number) == local_only:
                return True
        return False

    @staticmethod
    def _piece_ends(text: str, start: int, end: int) -> list[int]:
        """Where a number in ``text[start:end]`` may end: the whole run, then before each gap, longest first."""
        gaps = [m.start() for m in _GROUP_GAP_RE.finditer(text, start, end)]
        return [end, *reversed(gaps)]

    def _score(self, text: str, start: int, end: int) -> float | None:
        """The score of ``text[start:end]`` as a phone number, ``None`` when it is none."""
        value = text[start:end]
        # a piece ending in ")" or a separator is no number (the whole run ends in a digit)
        if not value[-1:].isdigit() or _DATE_LIKE_RE.match(value) or value.count("(") != value.count(")"):
            return None
        n_digits = sum(ch.isdigit() for ch in value)
        if not 7 <= n_digits <= 15:
            return None
        international = value.startswith(("+", "00"))
        context = has_context(text, start, end, self.context)
        if self._parse(value):
            return self.context_score if context or international else self.score
        if context and self._parse(value, FALLBACK_REGIONS):
            return 0.6  # a foreign number introduced by "tel." / "phone"
        if LOCAL_NUMBER_RE.match(value) and self._local(value) and not _RANGE_BEFORE_RE.search(text, max(0, start - 12),
                                                                                                  start):
            return self.context_score if context else 0.6
        if context and international and INTERNATIONAL_DIGITS[0] <= n_digits <= INTERNATIONAL_DIGITS[1]:
            return 0.6  # an international number after "tel." that today's number plans no longer know
        return None

def phone_recognizer(language: str) -> PhoneRecognizer:
    regions = PHONE_REGIONS.get(language)
    if regions is None:
        regions = tuple(r for rs in PHONE_REGIONS.values() for r in rs)
    return PhoneRecognizer(regions)


__all__ = ["EmailRecognizer", "UrlRecognizer", "IpRecognizer", "UsernameRecognizer", "PhoneRecognizer",
           "phone_recognizer", "compile_context", "ruled_out_by_plan"]
