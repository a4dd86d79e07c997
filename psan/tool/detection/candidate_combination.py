"""Combining a language's own NER model with the models of related languages it borrows.

Why: sk/sl/pl/sv pipelines run the Czech CNEC model beside their own (``cross_lingual``, for recall
on names the native model misses, see :data:`psan.tool.detection.defaults.CROSS_LINGUAL`).  The Czech model nests
(``P`` ⊃ ``pf``, ``ps``) and reads many capitalized words of another language as first names and
surnames, so inside a name the native model has already found it adds pieces that are wrong readings:
"Komisja|Europejska" as first name + surname inside the Polish organisation "Komisja Europejska",
"Trybunału|Konstytucyjnego", "Röda|Korset".  On pl-dev 141 of the 469 false spans were
such pieces (a span nested in another).
The native span covers every character of them, so dropping them masks nothing less; it removes a
judgment the person would have to make about a reading no one meant.

Kept: pieces that are not inside a native span (the recall the borrowed model is there for), pieces
inside a native *person* (first name and surname of "Georga W. Busha": propagation then finds "Bush"
alone), and person pieces with a word the language's name lists know ("Fundacja [Jana Kowalskiego]":
the native organisation hides a person the annotator should see as such).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from psan.tool.text.document import Category, CharSpan

_WORD = re.compile(r"[^\W\d_]+")


#: languages whose dictionary (:func:`psan.tool.words.lexicon.is_common_word`, Wiktionary lists) tells a
# sentence-initial
#: common word from a name (measured on sk-dev; Polish has Morfeusz2)
LEXICON_INITIAL_LANGUAGES = frozenset({"sk"})


def _common_word(surface: str, language: str) -> bool:
    if language == "pl":
        from psan.tool.detection.recognizers.gazetteer import polish_common_word
        return polish_common_word(surface)
    from psan.tool.words.lexicon import is_common_word
    return bool(is_common_word(surface, (language,)))


def _capitalized_inside_sentence(text: str, word: str) -> bool:
    """Does ``word``, capitalized as written, stand somewhere in ``text`` after a sentence's first word?"""
    from psan.tool.detection.recognizers.sentence_start import at_sentence_start
    pattern = re.compile(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])")
    return any(not at_sentence_start(text, m.start()) for m in pattern.finditer(text))


def drop_common_initial_words(text: str, spans: Sequence[CharSpan], language: str) -> list[CharSpan]:
    """NER ``spans`` without one-word spans at a sentence start that the language's dictionary knows only as a
    common word (Polish with Morfeusz2: "Dziś", "Jeżeli", "Decyzję", "Wewnętrzna"; Slovak with the Wiktionary
    lists: "Bitka", "Pracovníci", "Nakoniec"); other languages unchanged.  The word lists are rougher than
    Morfeusz2, so there a word the text also capitalizes inside a sentence is kept (the capital is evidence of a
    name: "Mesiac", "Malta"), and so is a single letter, an initial rather than a word ("Georga H. W. Busha": the
    dot of "H." reads as a sentence end).  Polish keeps Morfeusz2's answer alone (the same evidence there keeps
    four gold names on pl-dev's fold 0 but loses four whole mentions).

    Why: at a sentence start the capital is no evidence, and on pl-dev and sk-dev the native and the borrowed
    models both tagged such words (adverbs as places, nouns and participles as first names and persons); a
    learned person or place type then masks them unseen.
    """
    if language != "pl" and language not in LEXICON_INITIAL_LANGUAGES:
        return list(spans)
    from psan.tool.detection.recognizers.sentence_start import at_sentence_start
    kept = []
    for span in spans:
        surface = text[span.start:span.end]
        if (_WORD.fullmatch(surface) and at_sentence_start(text, span.start) and _common_word(surface, language)
                and (language == "pl" or len(surface) > 1 and not _capitalized_inside_sentence(text, surface))):
            continue
        kept.append(span)
    return kept


_LEADING_WORD = re.compile(r"([^\W\d_]+)\s+(?=[^\W\d_])")


def trim_initial_common_words(text: str, spans: Sequence[CharSpan], language: str) -> list[CharSpan]:
    """Person spans of the language's own NER model (the pipeline passes its spans only) without a first word that
    opens the sentence, is followed by a capitalized word, and that the language's dictionary knows only as a
    common word ("Viceprezident Richard Cheney" → "Richard Cheney", "Arcibiskup Stanisław Dziwisz", "Wicepremier
    Morawiecki"); Polish and Slovak (the languages of :func:`drop_common_initial_words`), other languages
    unchanged.  Kept whole: a first word in capitals (a heading "BAŠA JAVŮRKOVÁ") and a first name of the
    language's name lists ("Viera Nováková").

    Why: the sentence's capital glues a title or a common noun to the name that follows it; the person then decides
    the whole span private (most of it is the name) and the title is masked with it.  Organisations are left
    alone: their names begin with common words ("Komisja Europejska", "Národná rada"); so are the borrowed Czech
    model's persons, whose first name and surname pieces nest in them ("Komisja Europejska" read as a person
    would leave "Europejska" and a loose "Komisja": pl-dev's fold 0).
    """
    if language != "pl" and language not in LEXICON_INITIAL_LANGUAGES:
        return list(spans)
    from psan.tool.detection.recognizers.sentence_start import at_sentence_start
    out = []
    for span in spans:
        m = _LEADING_WORD.match(text, span.start, span.end)
        if m and span.category == Category.PERSON and at_sentence_start(text, span.start):
            first, rest = m.group(1), text[m.end():span.end]
            if (first[:1].isupper() and first[1:].islower() and rest[:1].isupper()
                    and _common_word(first, language) and not _listed_person_word(first, language)):
                span = CharSpan(m.end(), span.end, span.type, span.category, span.source, span.score, span.priority)
        out.append(span)
    return out


#: categories of names: a span of these without a capital letter is no name in a language that capitalizes names
_NAME_CATEGORIES = frozenset({Category.PERSON, Category.LOCATION, Category.ORGANIZATION, Category.OTHER})
#: languages whose NER names are cleaned by :func:`names_with_capitals` (measured on pl)
CAPITAL_NAME_LANGUAGES = frozenset({"pl"})
_TRAILING = " \t?!,;:—–-"


def names_with_capitals(text: str, spans: Sequence[CharSpan], language: str) -> list[CharSpan]:
    """NER ``spans`` of names without trailing punctuation ("Prezydent ?" → "Prezydent", "K.E. —" → "K.E."),
    and without name spans that hold no capital letter at all ("24 godziny", "2007", "dostęp do Internetu",
    "prawa"); Polish only, other languages unchanged.

    Why: the Polish model (WikiNEuRal) tags a name only where a word is capitalized, so such spans are
    errors of a model that reads a word's neighbourhood; the Czech model's CNEC, by contrast, annotates
    numbers and units as entities of their own ("15 .", "mm"), so Czech spans are never touched.
    Dates, IDs and contacts are not names and keep their spans.
    """
    if language not in CAPITAL_NAME_LANGUAGES:
        return list(spans)
    kept = []
    for span in spans:
        if span.category not in _NAME_CATEGORIES:
            kept.append(span)
            continue
        surface = text[span.start:span.end]
        trimmed = surface.rstrip(_TRAILING)
        if not any(ch.isupper() for ch in trimmed):
            continue
        if len(trimmed) < len(surface):
            span = CharSpan(span.start, span.start + len(trimmed), span.type, span.category, span.source, span.score,
                            span.priority)
        kept.append(span)
    return kept


def _listed_person_word(surface: str, language: str) -> bool:
    from psan.tool.detection.recognizers.gazetteer import person_name_kind
    return any(person_name_kind(w, language) for w in _WORD.findall(surface))


def drop_nested_borrowed(text: str, native: Sequence[CharSpan], borrowed: Sequence[CharSpan],
                         language: str) -> list[CharSpan]:
    """``borrowed`` spans (of cross-lingual models) without those strictly inside a native non-person span.

    Inside a native person ("Frans Timmermans") the pieces are right and let propagation find the surname
    alone later ("Timmermans"); a person piece with a word of the language's name lists stays too.  Spans
    equal to a native span are left to the merger (a competing reading of the same text).
    """
    if not native or not borrowed:
        return list(borrowed)
    outer = [(s.start, s.end) for s in native if s.category != Category.PERSON]
    kept = []
    for span in borrowed:
        inside = any(a <= span.start and span.end <= b and (a, b) != (span.start, span.end) for a, b in outer)
        if inside and not (span.category == Category.PERSON
                           and _listed_person_word(text[span.start:span.end], language)):
            continue
        kept.append(span)
    return kept
