"""Names after a personal title: "Mr Tuğrul Akyazıcı", "Dr. Heidemarie Abrahamian", "paní Nováková".

Why: a title followed by capitalized words is a person whatever the words are, and NER models
trained on news miss rare names ("Mr Oğuz Atakan Köseoğlu", "Ms Oya Ataman") or cut them
("Mr Ahmet Kenan Er" found as "Kenan Er", "Mr January Jagiełło" as "Jagiełło") – on court
judgments these are the applicants, the most direct identifiers of the text.

* titles per language (:data:`TITLES`): "Mr", "Mrs", "Ms", "Dr", "Prof" …; Czech/Slovak "pan",
  "paní", "Ing.", "JUDr." …; Polish "pan", "pani"; Swedish "herr", "fru";
* the name is one to five words after the title: capitalized words (hyphens and apostrophes
  inside, "Jean-Claude", "O'Neil"), initials ("C.", "Cz.", "M.N."), and name particles between
  them ("van", "de", "bin"); it must end in a capitalized word of two letters or more;
* English spans include the title, as the Text Anonymization Benchmark masks "Mr Akyazıcı"
  (the title gives the gender); other languages give the name alone (CNEC's convention);
* words that make the phrase a form of address, not a name ("Mr President", "Madam Chair") end it.

Priority below NER (a NER span on the same name is nested inside and both stay), moderate score.

:class:`FeminineSurnameRecognizer` (Czech, Slovak) uses the other piece of evidence these languages
give: feminine surnames end in "-ová" and inflect to "-ové", "-ovou" (Czech), "-ovej", "-ovú" (Slovak),
also for foreign names NER has never seen ("Bushovej", "Kimovou").  Only capitalized words that do not
start a sentence (sentence-initial adjectives "Celkové", "Takové" end the same way), never "Nová"/"Nové".
"""
from __future__ import annotations

import re
from functools import cache

from psan.tool.detection.recognizers.base import first_class_first
from psan.tool.detection.recognizers.prescan import Searcher, Start, literal_starts, start
from psan.tool.detection.recognizers.sentence_start import at_sentence_start
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_TITLED = -5
SCORE = 0.75

#: titles per language (case-sensitive alternatives); the dot after an abbreviation is optional
TITLES: dict[str, tuple[str, ...]] = {
    "en": ("Mr", "Mrs", "Ms", "Miss", "Mx", "Dr", "Prof", "Sir", "Dame", "Mme", "Mlle", "Messrs"),
    "cs": ("pan", "pana", "panu", "panem", "paní", "Pan", "Paní", "Ing", "Mgr", "JUDr", "MUDr", "PhDr", "RNDr",
           "Bc", "doc", "prof", "Doc", "Prof"),
    "sk": ("pán", "pána", "pánovi", "pánom", "pani", "Pán", "Pani", "Ing", "Mgr", "JUDr", "MUDr", "PhDr", "RNDr",
           "Bc", "doc", "prof", "Doc", "Prof"),
    "pl": ("pan", "pana", "panu", "panem", "pani", "panią", "Pan", "Pani", "dr", "Dr", "prof", "Prof", "mgr",
           "inż"),
    "sv": ("herr", "fru", "Herr", "Fru", "dr", "Dr", "professor"),
    "sl": ("gospod", "gospoda", "gospa", "gospe", "dr", "Dr", "prof", "Prof"),
}
#: languages whose span includes the title (TAB's convention)
WITH_TITLE = frozenset({"en"})
#: capitalized words after a title that address an office, not a person
NOT_NAMES = frozenset({"President", "Chairman", "Chairwoman", "Chair", "Speaker", "Registrar", "Justice", "Judge",
                       "Minister", "Prime", "Secretary", "Ambassador", "Mayor", "Governor", "Director", "Agent",
                       "Rapporteur", "Deputy", "Vice", "Předseda", "Předsedo", "Prezident", "Prezes", "Talman",
                       "Doctor", "Professor", "The", "An"})
PARTICLES = ("van", "von", "der", "den", "de", "da", "di", "del", "della", "du", "la", "le", "bin", "ibn", "al",
             "el", "ten", "ter", "zu", "y")

_CAP_WORD = r"[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*"
_INITIAL = r"[^\W\d_](?:[a-z]{0,2})\.(?:-?[^\W\d_]\.)*"
_PART = rf"(?:{_INITIAL}|{_CAP_WORD}|(?:{'|'.join(PARTICLES)}))"


def titled_name_plain(language: str) -> str:
    """The titled-name pattern as written: not after a word character or a dot, a title, the name's words.

    The recognizer's regex is the same pattern with the titles' first letters first (tests compare the two).
    """
    titles = "|".join(sorted(TITLES.get(language, TITLES["en"]), key=len, reverse=True))
    return rf"(?<![\w.])(?P<title>(?:{titles})\.?)[ \t]+(?P<name>{_PART}(?:[ \t]+{_PART}){{0,5}})"


@cache
def _regex(language: str) -> re.Pattern[str]:
    listed = sorted(TITLES.get(language, TITLES["en"]), key=len, reverse=True)
    # ``(?<![\w.])(?P<title>(?:Messrs|Miss|…)\.?)`` with the titles' first letters as a class first (base.
    # first_class_first): the pattern then starts with a character class and the regex engine skips to the next
    # such letter in C (a leading look-ahead or look-behind is tried at every character); the same matches
    first = "".join(sorted({t[0] for t in listed}))
    titles = first_class_first(first, r"[\w.]", {f: "|".join(t[1:] for t in listed if t[0] == f) for f in first},
                               ignore_case=False)
    return re.compile(rf"(?P<title>{titles}\.?)[ \t]+(?P<name>{_PART}(?:[ \t]+{_PART}){{0,5}})")


@cache
def title_starts(language: str) -> tuple[Start, ...]:
    r"""The shapes every match of the language's titled-name regex starts with (:mod:`psan.tool.detection.recognizers.
    prescan`): a title's first three letters, or a title of two letters and the dot, space or tab after it, after
    none of ``\w.``."""
    listed = TITLES.get(language, TITLES["en"])
    shapes = literal_starts([t for t in listed if len(t) >= 3], 3, not_before=r"[\w.]")
    short = tuple(start(*map(re.escape, t), r"[. \t]", not_before=r"[\w.]") for t in listed if len(t) < 3)
    return tuple(dict.fromkeys(shapes + short))


#: two or more initials written together: "Z.M.", "F.L.", "M.Ş."
_JOINED_INITIALS = re.compile(r"(?:[^\W\d_]\.-?){2,}")


def _name_end(words: list[tuple[int, int, str]]) -> int:
    """How many leading words form the name (0 = none): capitalized words, initials, inner particles."""
    count = 0
    last_good = 0
    for i, (_, _, w) in enumerate(words):
        if w in PARTICLES:
            if i == 0:
                return 0
            count = i + 1
            continue
        initials = _JOINED_INITIALS.fullmatch(w) is not None
        if not w[:1].isupper() or w in NOT_NAMES or (w.isupper() and len(w) > 3 and not initials):
            break
        count = i + 1
        # a word of two letters or more, or two joined initials at least ("Mr F.L.", "Mr Z.M. Necatigil": the
        # judgments' anonymised parties and agents); "Mr J." alone and an abbreviation ("Mgr.") are no name
        if initials or (not w.endswith(".") and sum(ch.isalpha() for ch in w) >= 2):
            last_good = count
        if i >= 4:
            break
    return min(count, last_good)


class TitledNameRecognizer(Recognizer):
    """A personal title followed by a name (see module docstring)."""

    def __init__(self, language: str = "en") -> None:
        self.language = language if language in TITLES else "en"
        self.name = "titled_name"
        self.type = "TITLED_NAME"
        self.priority = PRIORITY_TITLED
        self.regex = _regex(self.language)

    def __repr__(self) -> str:
        return f"<TitledNameRecognizer {self.language}>"

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        pos = 0
        titles = Searcher(self.regex, text, title_starts(self.language))
        while (match := titles.search(pos)) is not None:
            pos = match.end("title")  # the words after a rejected name may hold the next title
            start = match.start("name")
            words = [(start + m.start(), start + m.end(), m.group()) for m in re.finditer(r"\S+", match.group("name"))]
            words = [(a, b - (1 if w.endswith((",", ";", ":")) else 0), w.rstrip(",;:")) for a, b, w in words]
            n = _name_end(words)
            if not n:
                continue
            pos = words[n - 1][1]
            first = match.start("title") if self.language in WITH_TITLE else words[0][0]
            spans.append(CharSpan(first, words[n - 1][1], self.type, Category.PERSON, self.name, SCORE,
                                  self.priority))
        return spans


#: feminine surname endings per language
FEMININE_ENDINGS: dict[str, str] = {"cs": "ová|ové|ovou", "sk": "ová|ovej|ovú|ovou"}
_UPPER = "A-ZÁČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ"
_LOWER = "a-záäčďéěíĺľňóôŕřšťúůýž"


class FeminineSurnameRecognizer(Recognizer):
    """Czech and Slovak feminine surnames by their ending (see module docstring)."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.name = "feminine_surname"
        self.priority = PRIORITY_TITLED
        endings = FEMININE_ENDINGS.get(language, FEMININE_ENDINGS["cs"])
        self.regex = re.compile(rf"(?<![\w-])[{_UPPER}][{_LOWER}]+?(?:{endings})(?![\w-])")

    def __repr__(self) -> str:
        return f"<FeminineSurnameRecognizer {self.language}>"

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = []
        for match in self.regex.finditer(text):
            word = match.group()
            if word.lower().startswith("nov") and len(word) <= 5 or at_sentence_start(text, match.start()):
                continue
            spans.append(CharSpan(match.start(), match.end(), "SURNAME", Category.PERSON, self.name, 0.5,
                                  self.priority))
        return spans
