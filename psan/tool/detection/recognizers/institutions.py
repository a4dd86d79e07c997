"""Prisons and detention centres, English counties and Turkish provinces (English text).

Why: where a person is detained or lives is a quasi-identifier, and the small English NER models
miss these names in court judgments: "HMP Northumberland", "HM Prison Manchester", "Sztum
Prison", "Nottinghamshire", "Edirne".  The evidence is the shape of the name, not a list of the
dev set's strings:

* prisons: "HMP"/"HMYOI"/"HM Prison"/"HM Young Offender Institution" + capitalized words, or
  capitalized words + "Prison", "Remand Prison", "Remand Centre", "Detention Centre",
  "Penitentiary" (ORGANIZATION, type ``PRISON``);
* counties: a capitalized word ending in "shire" ("Nottinghamshire", "Lancashire") and "County X"
  (LOCATION, type ``COUNTY``);
* hyphenated acronyms ("DHKP-C": ORGANIZATION, type ``ORG_ACRONYM``; letters only);
* Turkish provinces (:data:`TURKISH_PROVINCES`, a closed list of 81 names, spelled with and without
  Turkish letters): the European Court's largest case group, and their names are no English words
  (the few that are – "Van", "Batman", "Ordu" – are left out).

Swedish authorities are one compound word whose last part says what they are: "Naturvårdsverket",
"Socialstyrelsen", "Försäkringskassan", "Migrationsverket" (``InstitutionRecognizer("sv")``,
ORGANIZATION, type ``AUTHORITY``; the definite suffix "-et"/"-en"/"-n" is required, so a common noun
such as "verk" or "styrelse" is never matched).

Name evidence below NER (priority −5): a NER span on the same words stays and keeps its type.
"""
from __future__ import annotations

import re

from psan.tool.detection.recognizers.base import first_class_first
from psan.tool.detection.recognizers.prescan import Start, finditer_at, literal_starts, start
from psan.tool.detection.recognizers.prescan import warm_up as prescan_warm_up
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_INSTITUTION = -5
SCORE = 0.6

_CAP = r"[A-Z][\w'’\-]*"
#: the regexes as written plainly: a look-ahead on the first letter, then ``\b`` (tests compare them with the
#: class-first forms below)
PRISON_PLAIN = (
    rf"(?=[A-Z])\b(?:(?:HMP|HMYOI|HM\s+Prison|HM\s+Young\s+Offender\s+Institution|HM\s+Remand\s+Centre)\s+{_CAP}"
    rf"(?:\s+{_CAP}){{0,2}}"
    rf"|(?:{_CAP}\s+){{1,3}}(?:Prison|Remand\s+Prison|Remand\s+Centre|Detention\s+Centre|Penitentiary|Gaol))\b")
COUNTY_PLAIN = (r"(?=[A-Z])\b(?:[A-Z][a-z]+shire|County\s+(?:Durham|Antrim|Armagh|Down|Fermanagh|"
                r"Londonderry|Tyrone|[A-Z][a-z]+(?=\s+(?:Council|Court)))|[A-Z][a-z]+\s+County(?=\s+Council))\b")
#: each regex starts with the class of its first letter and checks the character before it by a look-behind one
#: character longer (a leading look-ahead or ``\b`` makes the engine try the pattern at every character; a class
#: lets it skip to the next capital in C); the rest of each alternative follows without its first letter.  The
#: same matches at the same places as ``PRISON_PLAIN`` and ``COUNTY_PLAIN``
PRISON_RE = re.compile(
    rf"[A-Z](?<!\w[A-Z])(?:(?<=H)(?:MP|MYOI|M\s+Prison|M\s+Young\s+Offender\s+Institution|M\s+Remand\s+Centre)"
    rf"\s+{_CAP}(?:\s+{_CAP}){{0,2}}"
    rf"|[\w'’\-]*\s+(?:{_CAP}\s+){{0,2}}(?:Prison|Remand\s+Prison|Remand\s+Centre|Detention\s+Centre|Penitentiary"
    rf"|Gaol))\b")
COUNTY_RE = re.compile(r"[A-Z](?<!\w[A-Z])(?:[a-z]+shire|(?<=C)ounty\s+(?:Durham|Antrim|Armagh|Down|Fermanagh|"
                       r"Londonderry|Tyrone|[A-Z][a-z]+(?=\s+(?:Council|Court)))|[a-z]+\s+County(?=\s+Council))\b")
#: the 81 provinces of Turkey (also without Turkish letters), except names that are English words
TURKISH_PROVINCES = tuple("""
Adana Adıyaman Afyonkarahisar Afyon Ağrı Amasya Ankara Antalya Artvin Aydın Balıkesir Bilecik Bingöl Bitlis Bolu
Burdur Bursa Çanakkale Çankırı Çorum Denizli Diyarbakır Edirne Elazığ Erzincan Erzurum Eskişehir Gaziantep Giresun
Gümüşhane Hakkari Hatay Isparta Mersin İçel İstanbul İzmir Kars Kastamonu Kayseri Kırklareli Kırşehir Kocaeli Konya
Kütahya Malatya Manisa Kahramanmaraş Mardin Muğla Muş Nevşehir Niğde Rize Sakarya Samsun Siirt Sinop Sivas Tekirdağ
Tokat Trabzon Tunceli Şanlıurfa Urfa Uşak Yozgat Zonguldak Aksaray Bayburt Karaman Kırıkkale Şırnak Bartın Ardahan
Iğdır Yalova Karabük Kilis Osmaniye Düzce
""".split())
_ASCII = str.maketrans("ıİğĞüÜşŞöÖçÇâ", "iIgGuUsSoOcCa")
_PROVINCES = sorted({p for name in TURKISH_PROVINCES for p in (name, name.translate(_ASCII))}, key=len, reverse=True)
#: the provinces as written (``PROVINCE_RE`` is the same regex starting with the first letters' class)
PROVINCE_PLAIN = rf"(?=[{''.join(sorted({p[0] for p in _PROVINCES}))}])\b(?:{'|'.join(_PROVINCES)})(?![\w'’-])"
_PROVINCE_FIRSTS = "".join(sorted({p[0] for p in _PROVINCES}))
PROVINCE_RE = re.compile(first_class_first(
    _PROVINCE_FIRSTS, r"\w", {f: "|".join(p[1:] for p in _PROVINCES if p[0] == f) for f in _PROVINCE_FIRSTS},
    r"(?![\w'’-])", ignore_case=False))


#: final parts of Swedish authority names (definite forms) – "Natur|vårds|verket"
SWEDISH_AUTHORITY_RE = re.compile(
    r"(?=[A-ZÅÄÖ])\b[A-ZÅÄÖ][a-zåäöé]{2,}(?:verket|styrelsen|myndigheten|inspektionen|nämnden|kommissionen|rådet|domstolen|"
    r"kassan|ombudsmannen|institutet|förbundet|kollegiet|akademien|byrån|centralen|departementet)s?\b")

#: hyphenated acronyms of organisations ("DHKP-C", "PKK-KADEK"): letters only, so "COVID-19" or "L5-S1" never match
HYPHEN_ACRONYM_RE = re.compile(r"[A-Z](?<![\w-][A-Z])[A-Z]{1,5}-[A-Z]{1,5}(?![\w-])")

#: words every match of a regex contains: where none occurs, the regex is not run (cheap substring tests); and
#: every match, with what its look-arounds read, lies in one run of :data:`RUN` characters, so the regex scans only
#: the runs that hold one of the words (:func:`finditer_in_runs`)
NEEDS: dict[re.Pattern[str], tuple[str, ...]] = {
    PRISON_RE: ("HM", "Prison", "Remand", "Detention", "Penitentiary", "Gaol"),
    COUNTY_RE: ("shire", "County"),
}
#: the characters a prison's or a county's name is made of (words, apostrophes, hyphens, spaces)
RUN = re.compile(r"[\w'’\-\s]*")


def finditer_in_runs(regex: re.Pattern[str], text: str, words: tuple[str, ...]) -> list[re.Match[str]]:
    """``list(regex.finditer(text))`` for a regex of :data:`NEEDS`: scanned only over the maximal runs of
    :data:`RUN` characters that hold one of ``words``.

    Why: the regexes start with a capital and are tried at every capital of the text (a judgment has thousands);
    their words are rare, and a match cannot reach past the punctuation that ends a run.  Exact because every
    match lies inside one run (its look-behind may read the character before the run, which the scan of the run
    from its start sees as the whole text's scan does) and a scan of the whole text enters each run with its last
    match ended before it.
    """
    runs: set[tuple[int, int]] = set()
    backwards = ""
    n = len(text)
    for word in words:
        at = text.find(word)
        while at >= 0:
            if not backwards:
                backwards = text[::-1]
            end = _run_end(text, at)
            runs.add((n - _run_end(backwards, n - at), end))
            at = text.find(word, end)
    return [m for run_start, run_end in sorted(runs) for m in regex.finditer(text, run_start, run_end)]


def _run_end(text: str, at: int) -> int:
    """Where the run of :data:`RUN` characters from ``at`` ends."""
    run = RUN.match(text, at)
    return run.end() if run is not None else at


#: the shapes a regex's matches start with (:mod:`psan.tool.detection.recognizers.prescan`): a hyphenated acronym's two
#: capitals after none of ``\w-``, then a capital or its hyphen; a province's first three letters
SHAPES: dict[re.Pattern[str], tuple[Start, ...]] = {
    HYPHEN_ACRONYM_RE: (start("[A-Z]", "[A-Z]", "[A-Z-]", not_before=r"[\w-]"),),
    # a province's first three letters after no word character (every name has three at least)
    PROVINCE_RE: literal_starts(_PROVINCES, 3, not_before=r"\w"),
}

#: per language: (regex, type, category) of the names it finds
PATTERNS: dict[str, tuple[tuple[re.Pattern[str], str, Category], ...]] = {
    "en": ((PRISON_RE, "PRISON", Category.ORGANIZATION), (COUNTY_RE, "COUNTY", Category.LOCATION),
           (PROVINCE_RE, "PROVINCE", Category.LOCATION), (HYPHEN_ACRONYM_RE, "ORG_ACRONYM", Category.ORGANIZATION)),
    "sv": ((SWEDISH_AUTHORITY_RE, "AUTHORITY", Category.ORGANIZATION),),
}


class InstitutionRecognizer(Recognizer):
    """Prisons, counties and Turkish provinces (English), Swedish authorities (see module docstring)."""

    def __init__(self, language: str = "en") -> None:
        self.name = "institutions"
        self.priority = PRIORITY_INSTITUTION
        self.language = language
        self.patterns = PATTERNS.get(language, ())
        #: each pattern with its words (:data:`NEEDS`) and shapes (:data:`SHAPES`), looked up once: a compiled regex
        #: hashes its whole program (the provinces': ≈ 7 µs), a fixed cost per text and pattern
        self._scans = [(regex, type_, category, NEEDS.get(regex), SHAPES.get(regex))
                       for regex, type_, category in self.patterns]

    def __repr__(self) -> str:
        return f"<InstitutionRecognizer {self.language}>"

    def warm_up(self) -> None:
        """The character classes of the declared start shapes (:func:`prescan.warm_up`)."""
        prescan_warm_up()

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for regex, type_, category, needs, shapes in self._scans:
            # (a text without the ``needs`` words has no run to scan)
            found = finditer_at(regex, text, shapes) if needs is None else finditer_in_runs(regex, text, needs)
            for match in found:
                start, end = match.span()
                if text.startswith(("The ", "A ", "In ", "At ", "On "), start):
                    start = text.index(" ", start) + 1  # a sentence-initial article is not part of the name
                    if not PRISON_RE.fullmatch(text, start, end) and regex is PRISON_RE:
                        continue
                spans.append(CharSpan(start, end, type_, category, self.name, SCORE, self.priority))
        return spans
