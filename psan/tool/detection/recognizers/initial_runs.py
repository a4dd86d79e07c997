"""Two or more capitalized words at the start of a Swedish sentence as name evidence.

Why: Swedish writes common nouns, adjectives and verbs inside a sentence in lower case, and its word order
puts the verb second, so a sentence whose first two words are capitalized nearly always starts with a name:
"Thord Erasmie, lektor i pedagogik, påpekar …", "Röda Korset har …".  The NER models and the name lists miss
such names when the first name is not listed (the gazetteer already takes a *listed* first name followed by
a capitalized word), and at a sentence start the capital of the first word alone proves nothing, so
:mod:`psan.tool.detection.recognizers.capitalized` (cs/sk) leaves the first word out and is not used for Swedish at all
(titles of works capitalize common words inside a sentence).

A run of capitalized words (single spaces or hyphens between them) that starts a clause
(:func:`psan.tool.detection.recognizers.capitalized.starts_clause`) and has at least two words is one span of category
OTHER, type ``PROPER_NOUN``, source ``capitalized`` (weak: name completion and propagation grow and type over
it).  Not taken: a first word that is a closed-class word ("I Sverige", "Men Kajsa": the name after it is
left to the other recognizers), a run followed by a colon (a form label, "Telefon Arbete:"), a run with a
word the same paragraph also writes in lower case, a run in capitals.  One regular-expression pass over the
text; only runs of two capitalized words are checked further.

A **single** capitalized word at a sentence start is a name when a dictionary says it is no word
(:class:`InitialUnknownWordRecognizer`, with the optional dictionaries of :mod:`psan.tool.words.lexicon`): "Rabin sade
…", but not "Kvinnorna sade …" nor a compound of known words ("Stockholmspojkar"); the English dictionary is
asked too, for the English words quoted in Swedish texts.  Without the dictionaries it adds nothing.
"""
from __future__ import annotations

import re

from psan.tool.detection.recognizers.capitalized import PRIORITY_CAPITALIZED, SCORE, starts_clause
from psan.tool.detection.recognizers.paragraphs import LowerCaseWords
from psan.tool.text.document import Category, CharSpan, Document, Recognizer
from psan.tool.words.lexicon import available, is_word

#: languages whose default pipeline takes sentence-initial runs of capitalized words as names (measured on sv)
INITIAL_RUN_LANGUAGES = frozenset({"sv"})

_UP = "A-ZÀ-ÖØ-Þ"
_LO = "a-zß-öø-ÿ"
_WORD = rf"[{_UP}][{_LO}]+(?:-[{_UP}]?[{_LO}]+)*"
#: at least two capitalized words separated by one space or a hyphen
RUN_RE = re.compile(rf"(?<![\w\-.@/])({_WORD}(?:[ ‑-]{_WORD})+)(?![\w@])")
#: one capitalized word of letters only, not followed by another capitalized word (that is a run)
SINGLE_RE = re.compile(rf"(?<![\w\-.@/])[{_UP}][{_LO}]{{2,}}(?![\w@\-‑])(?![ ‑-][{_UP}])")
#: the dictionaries asked about a sentence's first word: the language's own and English (quotations)
LEXICON_LANGUAGES: dict[str, tuple[str, ...]] = {"sv": ("sv", "en")}


class _SentenceInitialRecognizer(Recognizer):
    """Capitalized words that start a clause, each match of :attr:`pattern` judged by :meth:`keep`.

    Why one loop: both recognizers skip a closed-class first word, a match that does not start a clause or
    is followed by a colon (a form label), and build the paragraph's lower-case words only when needed.
    """

    pattern: re.Pattern[str]

    def __init__(self, language: str) -> None:
        self.name = "capitalized"
        self.priority = PRIORITY_CAPITALIZED
        self.language = language

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.language}>"

    def keep(self, words: list[str], start: int, lower: LowerCaseWords) -> bool:
        raise NotImplementedError

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        from psan.tool.words.function_words import function_words
        closed = function_words(self.language)
        lower: LowerCaseWords | None = None
        spans = []
        for match in self.pattern.finditer(text):
            start, end = match.span()
            words = re.split(r"[ ‑-]", match.group())
            if words[0].lower() in closed or not starts_clause(text, start) or text.startswith(":", end):
                continue
            if lower is None:
                lower = LowerCaseWords(text)
            if self.keep(words, start, lower):
                spans.append(CharSpan(start, end, "PROPER_NOUN", Category.OTHER, self.name, SCORE, self.priority))
        return spans


class InitialRunRecognizer(_SentenceInitialRecognizer):
    """Runs of two or more capitalized words that start a sentence (see module docstring)."""

    pattern = RUN_RE

    def keep(self, words: list[str], start: int, lower: LowerCaseWords) -> bool:
        return not any(lower(w, start) for w in words)


class InitialUnknownWordRecognizer(_SentenceInitialRecognizer):
    """A single capitalized word starting a sentence that no dictionary knows (see module docstring)."""

    pattern = SINGLE_RE

    def __init__(self, language: str) -> None:
        super().__init__(language)
        self.lexicons = LEXICON_LANGUAGES.get(language, (language,))

    def keep(self, words: list[str], start: int, lower: LowerCaseWords) -> bool:
        word = words[0]
        return not lower(word, start) and is_word(word, self.lexicons) is False


def default_recognizers(language: str) -> list[Recognizer]:
    """The recognizers for the languages of :data:`INITIAL_RUN_LANGUAGES`, none for others; the single unknown
    word only where a dictionary is installed (:func:`psan.tool.words.lexicon.available`)."""
    if language not in INITIAL_RUN_LANGUAGES:
        return []
    found: list[Recognizer] = [InitialRunRecognizer(language)]
    if available():
        found.append(InitialUnknownWordRecognizer(language))
    return found
