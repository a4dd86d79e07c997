"""Capitalized words inside a sentence as name evidence in Czech and Slovak.

Why: Czech and Slovak write common nouns and adjectives in lower case, also adjectives made from names
("pražský", "americký"), so a capitalized word that does not start a sentence is nearly always part of a
proper name: on the CNEC 2.0 *training* split 13,395 of 14,378 such words lie in a gold span (0.93); on
UNER Slovak dev 617 of 761 (0.81; most of the rest are names UNER left unannotated: "Iraku", "Moskve").
The NER models still miss many of them, rare surnames above all ("posily Binič a Tatarčuk",
"sbírku B. Sluckého", "Mexičan Chavez"), and those are the leaks an annotator must then find by hand.

A run of such words (single spaces or hyphens between them: "Lake Placid", "Korea Telecom") is one span
of category OTHER (type ``PROPER_NOUN``): the form says "a name", not which kind.  Not taken:

* a word at the start of a sentence, a line, quoted speech or a list item, after a number, an e-mail
  address or a dateline (:func:`starts_clause`), where capitals prove nothing;
* a word followed by a colon ("Telefon:", "Adresa:" – a form label), a closed-class word ("Ani", "Podle"),
  a word in capitals (:mod:`psan.tool.detection.recognizers.acronyms` decides those), a word the same paragraph also
  writes
  in lower case;
* a one-letter word or an initial ("B.": name completion grows person spans over initials).

Lowest priority of the name evidence (−12, below the gazetteers): any other candidate on the same words
wins and keeps its type; this one only covers what nothing else found.  Not used for Polish (its NER
models already find 0.96 of the names, and BSNLP's first-mention annotation makes each extra span cost
precision there) nor Swedish and English (titles and headings capitalize common words).
"""
from __future__ import annotations

import re

from psan.tool.detection.recognizers.paragraphs import LowerCaseWords
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_CAPITALIZED = -12
SCORE = 0.3
#: languages whose default pipeline takes capitalized words as name evidence (measured on cs and sk)
CAPITALIZED_LANGUAGES = frozenset({"cs", "sk"})

_UP = "A-ZÁČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽÄÖÜ"
_LO = "a-záäčďéěíĺľňóôŕřšťúůýžöüß"
_WORD = rf"[{_UP}][{_LO}]+(?:-[{_UP}]?[{_LO}]+)*"
#: runs of capitalized words separated by one space or a hyphen; the look-ahead lets the engine skip fast
RUN_RE = re.compile(rf"(?=[{_UP}])(?<![\w\-.@/])({_WORD}(?:[ ‑-]{_WORD})*)(?![\w@])")
_SKIP = frozenset(" \t\"'„“”‚‘’«»()[]-–—•*")
_OPENING = frozenset("\"'„“”‚‘’«»•*")
_DASHES = frozenset("-–—")
_ENDS = frozenset(".!?…:;\n")


#: abbreviations before a name whose dot ends no sentence (lower-cased, without the dot)
TITLE_ABBREVIATIONS = frozenset({"sv", "dr", "ing", "mgr", "judr", "mudr", "phdr", "rndr", "bc", "doc", "prof",
                                 "gen", "pplk", "plk", "mjr", "kpt", "npor", "por", "p", "st"})


def _abbreviation(text: str, dot: int) -> bool:
    """True when the dot at ``dot`` ends an initial ("B.") or a title abbreviation ("sv.", "dr .")."""
    j = dot - 1
    while j >= 0 and text[j] == " ":
        j -= 1
    k = j
    while k >= 0 and text[k].isalpha():
        k -= 1
    word = text[k + 1:j + 1]
    if k >= 0 and not (text[k].isspace() or text[k] in "(\"„"):
        return False
    return (len(word) == 1 and word.isupper()) or word.lower() in TITLE_ABBREVIATIONS


def starts_clause(text: str, pos: int) -> bool:
    """True when a capital at ``pos`` proves nothing: it starts a sentence, a line, quoted speech, a list item.

    A dot after an initial or a title abbreviation ("B. Sluckého", "sv. František") ends no sentence.
    Stricter than :func:`psan.tool.detection.recognizers.sentence_start.at_sentence_start`: also after a colon or
    semicolon, after an opening quote or a bullet, after a number ("30 Avšak", "1 ) Studijní"), after an
    e-mail address, and after a dash that follows a word in capitals or a bracket (a dateline: "PRAHA ( ČTK ) -
    Předseda"); a dash between two names ("Spalato – Split") and a bracket ("Viminacium (Kostolac)") do not.
    """
    i = pos - 1
    skipped: set[str] = set()
    while i >= 0 and text[i] in _SKIP:
        skipped.add(text[i])
        i -= 1
    before = text[max(0, i - 60):i + 1].split()
    last = before[-1] if before else ""
    if i >= 0 and text[i] == "." and not skipped & _OPENING and _abbreviation(text, i):
        return False  # "B. Sluckého", "B . Sluckého", "sv. František": an initial or a title, not a sentence end
    if i < 0 or skipped & _OPENING or text[i] in _ENDS or text[i].isdigit():
        return True
    if "@" in last:
        return True
    if skipped & _DASHES:
        word = last.strip("()[]")
        return bool(skipped & {")", "]"}) or (len(word) >= 2 and word.isupper())
    return False


class CapitalizedWordRecognizer(Recognizer):
    """Runs of capitalized words inside a sentence (see module docstring); OTHER, type ``PROPER_NOUN``."""

    def __init__(self, language: str) -> None:
        self.name = "capitalized"
        self.priority = PRIORITY_CAPITALIZED
        self.language = language

    def __repr__(self) -> str:
        return f"<CapitalizedWordRecognizer {self.language}>"

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        from psan.tool.words.function_words import function_words
        closed = function_words(self.language)
        lower = LowerCaseWords(text)
        spans = []
        for match in RUN_RE.finditer(text):
            start, end = match.span()
            words = match.group().replace("-", " ").split()
            # a sentence-initial first word is dropped, the rest of the run is still inside the sentence
            while words and (starts_clause(text, start) or words[0].lower() in closed):
                start += len(words[0]) + 1
                words = words[1:]
                while start < end and not text[start].isalpha():
                    start += 1
            if not words or start >= end:
                continue
            if text.startswith(":", end):
                continue
            if any(lower(w, start) for w in words):
                continue
            spans.append(CharSpan(start, end, "PROPER_NOUN", Category.OTHER, self.name, SCORE, self.priority))
        return spans


def default_recognizers(language: str) -> list[Recognizer]:
    """The recognizer for the languages of :data:`CAPITALIZED_LANGUAGES`, none for others."""
    return [CapitalizedWordRecognizer(language)] if language in CAPITALIZED_LANGUAGES else []
