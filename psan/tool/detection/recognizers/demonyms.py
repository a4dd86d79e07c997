"""Names of peoples and inhabitants in Czech, Slovak and Polish: "Slovinců", "Pražanům", "Palestínčanmi", "Austriacy".

Why: these languages capitalize the noun for a member of a nation or the inhabitant of a place ("Mexičan",
"Sparťané", "Nemci", "Holendrów"), the corpora annotate it (CNEC ``pc``, UNER and BSNLP ``PER``), and it is
a quasi-identifier of the person it describes (TAB's DEM; :mod:`psan.tool.detection.recognizers.demographic` finds
the English phrases).  The NER models miss most of them.  The evidence is the word's form, not a list:

* the inhabitant suffix ``-an`` (Czech ``Pražan``, Slovak ``Palestínčan``, Polish ``Amerykanin``) with its
  case endings: after the consonants that form inhabitant names (``-čan``, ``-ťan``, ``-žan``, ``-ňan``,
  ``-šan``, ``-jan``: "Mexičan", "Sparťané", "Pozemšťanů") anywhere, after other stems only in the plural
  and inside a sentence ("Slovania", "Evropanů"; at a sentence start "Vybrané", "Opakované" are adjectives,
  Polish "Zarejestrowanie" a verbal noun; a bare "-an" singular is too often a first name: "Milan", "Roman");
* the suffix ``-ec`` in the plural (Czech ``-ců``/``-cům``: "Němců", "Slovinců"; Slovak ``-ci``/``-cov``/
  ``-cami``: "Nemci"; Polish ``-cy``/``-ców``: "Austriacy", "Niemców", not the participles and adjectives in
  ``-ący``, ``-scy``, ``-ccy``: "Przewodniczący", "Polscy"), in Slovak and Polish only inside a sentence;
* capitalized plural genitives and datives (Czech ``-ů``/``-ům``: "Srbů", "Rusům"; Polish ``-owie``,
  ``-ów``: "Holendrów"), only inside a sentence – at its start a capital proves nothing ("Domů").

Never a listed first name or surname (the name lists of :mod:`psan.tool.detection.recognizers.gazetteer` decide),
never a closed-class word, never a word the paragraph also writes in lower case.  Category DEMOGRAPHIC
(type ``DEMONYM``), below NER and the other name evidence (priority −8), so a NER span on the same word
keeps its type ("Niemcy" as the country, "Kraków" as the city).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from psan.tool.detection.recognizers.paragraphs import LowerCaseWords
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_DEMONYM = -8
SCORE = 0.4

_UP = "A-ZÁČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽĄĆĘŁŃŚŹŻ"
_LO = "a-záäčďéěíĺľňóôŕřšťúůýžąćęłńśźż"
_STEM = rf"[{_UP}][{_LO}]{{2,}}"

#: per language: (regex of the whole word, may it start a sentence)
PATTERNS: dict[str, tuple[tuple[re.Pattern[str], bool], ...]] = {
    "cs": (
        (re.compile(rf"{_STEM}[čťžňjš]an(?:é|ů|ům|y|ech|a|ovi|em|ka|ku|kou|ce)?"), True),
        (re.compile(rf"{_STEM}(?:an(?:é|ů|ům|y|ech))"), False),
        (re.compile(rf"{_STEM}c(?:ů|ům)"), True),
        (re.compile(rf"{_STEM}(?:ů|ům)"), False),
    ),
    "sk": (
        (re.compile(rf"{_STEM}[čťžňjš]an(?:ia|ov|om|mi|och|a|ovi|ka|ku|kou|ke)?"), True),
        (re.compile(rf"{_STEM}an(?:ia|ov|om|mi|och)"), False),
        (re.compile(rf"{_STEM}c(?:i|ov|ami)"), False),
    ),
    "pl": (
        (re.compile(rf"{_STEM}(?:anie|anom|anami|anach|anin|anina|aninowi|aninem|anka|anki|ance|anką)"), False),
        (re.compile(rf"{_STEM}(?<![ąsc])(?:cy|ców|cami)"), False),
        (re.compile(rf"{_STEM}(?:owie|ów)"), False),
    ),
}
#: the words looked at: a capital and four lower-case letters or more, a whole word
_CANDIDATE_RE = re.compile(rf"(?=[{_UP}])(?<!\w)[{_UP}][{_LO}]{{4,}}(?!\w)")


class DemonymRecognizer(Recognizer):
    """Capitalized names of peoples and inhabitants (see module docstring); DEMOGRAPHIC, type ``DEMONYM``."""

    def __init__(self, language: str, listed_name: Callable[[str, str], int] | None = None) -> None:
        """``listed_name(word, language)``: non-zero for a first name or surname of the language's lists
        (:func:`psan.tool.detection.recognizers.gazetteer.person_name_kind`, passed in by the gazetteer family)."""
        self.name = "demonym"
        self.listed_name = listed_name
        self.priority = PRIORITY_DEMONYM
        self.language = language
        self.patterns = PATTERNS.get(language, ())

    def __repr__(self) -> str:
        return f"<DemonymRecognizer {self.language}>"

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.patterns:
            return []
        from psan.tool.detection.recognizers.sentence_start import at_sentence_start
        from psan.tool.words.function_words import function_words
        closed = function_words(self.language)
        lower = LowerCaseWords(text)
        spans = []
        for match in _CANDIDATE_RE.finditer(text):
            word = match.group()
            initial = None
            for regex, may_start in self.patterns:
                if not regex.fullmatch(word):
                    continue
                if not may_start:
                    initial = at_sentence_start(text, match.start()) if initial is None else initial
                    if initial:
                        continue
                break
            else:
                continue
            if word.lower() in closed or (self.listed_name is not None and self.listed_name(word, self.language)):
                continue
            if lower(word, match.start()):
                continue
            spans.append(CharSpan(match.start(), match.end(), "DEMONYM", Category.DEMOGRAPHIC, self.name, SCORE,
                                  self.priority))
        return spans


def default_recognizers(language: str, listed_name: Callable[[str, str], int] | None = None) -> list[Recognizer]:
    """The demonym recognizer for Czech, Slovak and Polish (``listed_name``: see the class), none for others."""
    return [DemonymRecognizer(language, listed_name)] if language in PATTERNS else []
