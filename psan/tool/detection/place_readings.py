"""A place the gazetteer knows, read as a person by the NER on no other evidence, is a place.

Why: spaCy's English model tags a lone town as PERSON in some contexts ("She moved to Manchester in
2019."); the category decides the surrogate, the entity it joins and whether the span is suggested
public.  The gazetteer's place list is a second opinion that beats the NER's person reading only when
nothing else says person: the word is no first name in any of Faker's locales and no listed name of the
language ("Washington", "Kent", "Victoria" stay persons), no other recognizer (a title, the name lists)
finds a person on it, and it is one word (a NER span of several words is a name the model read whole).
A word of a person's full name the NER found in the same text ("John Manchester … Manchester left") is
still a person.
"""
from __future__ import annotations

from collections.abc import Sequence

from psan.tool.text.document import Category, CharSpan

__all__ = ["places_over_lone_persons", "PLACE_READING_TYPE"]

#: the NER type a place reading gets (spaCy's and the gazetteer's town or country)
PLACE_READING_TYPE = "GPE"


def places_over_lone_persons(text: str, patterns: Sequence[CharSpan], ner: Sequence[CharSpan],
                             language: str) -> list[CharSpan]:
    """``ner`` with the one-word persons that a gazetteer place covers exactly as places (see the module)."""
    from psan.tool.detection.recognizers.gazetteer import (
        WORD_RE,
        foreign_first_name,
        person_name_kind,
        place_word,
    )
    places = {(c.start, c.end) for c in patterns
              if c.category is Category.LOCATION and c.source.startswith("gazetteer")}
    if not places:
        return list(ner)
    persons = [(c.start, c.end) for c in patterns if c.category is Category.PERSON]
    name_words = {w for c in ner if c.category is Category.PERSON
                  for words in [WORD_RE.findall(text[c.start:c.end])] if len(words) > 1 for w in words}
    out: list[CharSpan] = []
    for span in ner:
        word = text[span.start:span.end]
        if (span.category is Category.PERSON and (span.start, span.end) in places and WORD_RE.fullmatch(word)
                and place_word(word, language) and not person_name_kind(word, language)
                and not foreign_first_name(word, language) and word not in name_words
                and not any(s < span.end and span.start < e for s, e in persons)):
            span = CharSpan(span.start, span.end, PLACE_READING_TYPE, Category.LOCATION, span.source, span.score,
                            span.priority)
        out.append(span)
    return out
