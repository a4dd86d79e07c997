"""Name completion: a person span that is part of a longer capitalized name grows to the whole name.

Why: NER often finds only a part of a name – the surname after an initial ("1960 B. Lagunin"
found as "Lagunin"), the last two of three words ("Ahmet Kenan Er" as "Kenan Er"), the first
name of "Hercule Poirot" – and a partial anonymization leaves the rest in clear, which is
enough to re-identify the person.  A document-level step after merging (before propagation, so
the whole name is what propagation searches again):

* only entities of category PERSON grow, the outermost one of nested person spans (CNEC's
  ``P`` ⊃ ``pf``, ``ps`` stay nested inside it);
* to the left over initials ("B.", "Cz.", CNEC's spaced "I .") and over first names and surnames
  of the language's name lists ("Hercule" before "Poirot", case forms included) and over first names of
  any Faker locale (:func:`psan.tool.detection.recognizers.gazetteer.foreign_first_name`: "Mehmet" before "Ali Ege"
  in an English judgment, "Willy" before "Brandt" in Czech); to the right over such names, and over any
  capitalized word when the span ends in a first name of the language's own list ("Jan" → "Jan
  Lagunin"); at most :data:`MAX_WORDS` words each way.  Only list names, because a
  capitalized word next to a name is as often an organisation, a heading or a title ("Senátor za
  Zelené Athos De Luca", "Memoriál Jaroslava Svobody");
* a word only joins across one space or tab on the same line, never across punctuation, never
  when it is covered by an entity of another category (a place or an organisation next to the
  name stays apart; a mere capitalized word of :data:`psan.tool.text.document.WEAK_SOURCES` does not count
  and gives way to the grown name), never when it is a function word, title or month (:data:`STOP_WORDS`:
  "The", "Mr", "V", "Pan" …) or a spoken filler (:data:`psan.tool.detection.consolidate.INTERJECTIONS`: "Craig Oh"
  in a transcript with a missing space is Craig and a sigh);
* the grown entity keeps type, source and score of the found part; an entity it would cross is
  left alone (the entity is not grown then).

Needs the tokens, capitalization and the language's name lists (:mod:`psan.tool.detection.recognizers.gazetteer`).
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from psan.tool.detection.consolidate import INTERJECTIONS
from psan.tool.detection.recognizers.gazetteer import (
    FIRST_F,
    FIRST_M,
    foreign_first_name,
    load_person_names,
    person_name_kind,
)
from psan.tool.text.document import WEAK_SOURCES, Category, Document, Entity, token_bounds, unique_entities

__all__ = ["ABBREVIATIONS", "MAX_WORDS", "STOP_WORDS", "complete_names", "spans_inside_longer", "warm_up"]

#: words added on each side at most
MAX_WORDS = 3
#: capitalized words that are never part of a name: function words, titles, months, days (lower case)
STOP_WORDS = frozenset("""
the a an and or of in on at by for to with from as but if when while after before during since than that this
these those his her their our my your its he she it we they you i me him them who whom whose which what where
so yes no not ok okay well hi hello thanks thank please dear um uh hm yeah yep also just then now here there
mr mrs ms miss dr prof sir madam mme mlle judge president minister court article section
january february march april june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
v ve na do z ze s se k ke o u i pan paní pana panu pane pán pani pánovi w we za od po pod nad przez dla
och på av till med för om den det en ett är som
leden únor březen duben květen červen červenec srpen září říjen listopad prosinec
""".split())

#: abbreviations before a name that are not initials (titles, "St.", "No.")
ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "dr", "st", "sv", "jr", "sr", "mgr", "ing", "bc", "no", "nr", "mme",
                           "fr", "ks", "pp", "op"})
_WORD_BEFORE = re.compile(r"(?:^|(?<=[ \t(\"„“‚'«]))(?P<w>[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*)[ \t]\Z")
_INITIAL_BEFORE = re.compile(r"(?:^|(?<=[ \t(\"„“‚'«]))(?P<w>[^\W\d_]{1,2}[ \t]?\.)[ \t]?\Z")
_WORD_AFTER = re.compile(r"[ \t](?P<w>[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*)(?![\w'’.-]*\w)")


def _name_word(word: str) -> bool:
    """Capitalized, not a stop word or filler, not an acronym of four or more capitals (organisations: "NATO")."""
    low = word.lower()
    return word[:1].isupper() and low not in STOP_WORDS and low not in INTERJECTIONS and not (
        word.isupper() and len(word) > 3)


def _grow(text: str, start: int, end: int, language: str) -> tuple[int, int]:
    """Character range of the whole name around ``text[start:end]``."""
    for _ in range(MAX_WORDS):
        window = text[max(0, start - 40):start]
        m = _INITIAL_BEFORE.search(window) or _WORD_BEFORE.search(window)
        if m is None:
            break
        word = m.group("w")
        if not word[:1].isupper():
            break
        if word.endswith("."):
            if word.rstrip(" \t.").lower() in ABBREVIATIONS:
                break  # "Mr." or "Dr." is a title, not an initial
        elif not (_name_word(word) and (person_name_kind(word, language) or foreign_first_name(word, language))):
            break
        start = start - len(window) + m.start("w")
    last = text[start:end].split()[-1] if text[start:end].split() else ""
    any_word = bool(person_name_kind(last, language) & (FIRST_M | FIRST_F))
    for _ in range(MAX_WORDS):
        m = _WORD_AFTER.match(text, end)
        if m is None or not _name_word(m.group("w")):
            break
        if not (any_word or person_name_kind(m.group("w"), language) or foreign_first_name(m.group("w"), language)):
            break
        end = m.end("w")
        any_word = bool(person_name_kind(m.group("w"), language) & (FIRST_M | FIRST_F))
    return start, end


def spans_inside_longer(spans: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The token ranges lying inside a longer one of ``spans``.

    Why a sweep: a transcript has thousands of person spans, and testing every pair cost more than
    NameTag's whole run.  In (first, longest first) order a range lies inside a longer one exactly
    when an earlier (distinct) range reaches as far.
    """
    inside: set[tuple[int, int]] = set()
    reach = -1
    for first, end in sorted(spans, key=lambda s: (s[0], -s[1])):
        if end <= reach:
            inside.add((first, end))
        else:
            reach = end
    return inside


def _may_grow_left(text: str, start: int) -> bool:
    """Cheap test before the regexes: an initial's dot, or a space or tab after a letter or a dot, before ``start``."""
    if start >= 1 and text[start - 1] == ".":
        return True
    return start >= 2 and text[start - 1] in " \t" and (text[start - 2].isalpha() or text[start - 2] in ". \t")


def _may_grow_right(text: str, end: int) -> bool:
    """Cheap test before the regexes: a space or tab, then a capital right after ``end``."""
    return end + 1 < len(text) and text[end] in " \t" and text[end + 1].isupper()


def warm_up(language: str) -> None:
    """Load the name lists completion reads (the pipeline calls it when it is built; see
    :meth:`psan.tool.detection.pipeline.Pipeline._warm_up`)."""
    load_person_names(language)


class _Crossings:
    """Which entities (weak sources left out) a grown name would cross: those with one edge strictly inside it.

    Why two sorted edge lists: only an entity that starts inside the name and ends after it, or ends inside
    it and starts before it, crosses it; both are a range of one list (the per-token index of every entity's
    tokens this replaces cost a third of name completion on a 10^6-token document).
    """

    def __init__(self, entities: list[Entity]) -> None:
        spans = [(o.first_token, o.end_token) for o in entities if o.source not in WEAK_SOURCES]
        self.by_first = sorted(spans)
        self.firsts = [a for a, _ in self.by_first]
        self.by_end = sorted(spans, key=lambda span: span[1])
        self.ends = [b for _, b in self.by_end]

    def crosses(self, first: int, end: int) -> bool:
        """Whether tokens ``[first, end)`` cross an entity (start before it and end inside, or the reverse)."""
        if any(b > end for _, b in self.by_first[bisect_right(self.firsts, first):bisect_left(self.firsts, end)]):
            return True
        return any(a < first for a, _ in self.by_end[bisect_right(self.ends, first):bisect_left(self.ends, end)])


def complete_names(doc: Document) -> Document:
    """``doc`` with its outermost PERSON entities grown to whole names (see module docstring)."""
    if not doc.entities or not doc.tokens:
        return doc
    starts, ends = token_bounds(doc.tokens)
    owner: list[Category | None] = [None] * len(doc.tokens)  # a non-person category covering the token
    for ent in doc.entities:
        if ent.category is not Category.PERSON and ent.source not in WEAK_SOURCES:  # (an empty range assigns nothing)
            owner[ent.first_token:ent.end_token] = [ent.category] * (ent.end_token - ent.first_token)
    persons = [e for e in doc.entities if e.category is Category.PERSON]
    inner = spans_inside_longer({(e.first_token, e.end_token) for e in persons})
    outer = [e for e in persons if (e.first_token, e.end_token) not in inner]
    changed: dict[int, Entity] = {}
    crossings: _Crossings | None = None  # built at the first name that grows
    text = doc.text
    for ent in outer:
        cs, ce = doc.char_range(ent.first_token, ent.end_token)
        if not (_may_grow_left(text, cs) or _may_grow_right(text, ce)):
            continue
        gs, ge = _grow(text, cs, ce, doc.language)
        if (gs, ge) == (cs, ce):
            continue
        first = bisect_left(starts, gs)
        last = bisect_left(ends, ge)
        if first >= len(starts) or starts[first] != gs or last >= len(ends) or ends[last] != ge:
            continue  # the name's edges are not token edges (another tokenizer): leave it
        end = last + 1
        if any(owner[i] is not None for i in [*range(first, ent.first_token), *range(ent.end_token, end)]):
            continue
        if crossings is None:
            crossings = _Crossings(doc.entities)
        if crossings.crosses(first, end):
            continue  # it would cross an entity
        changed[id(ent)] = Entity(first, end, ent.type, ent.category, ent.source, ent.score)
    if changed:
        taken = {i for e in changed.values() for i in range(e.first_token, e.end_token)}
        grown = [changed.get(id(e), e) for e in doc.entities  # a weak span a grown name overlaps gives way
                 if e.source not in WEAK_SOURCES or not taken.intersection(range(e.first_token, e.end_token))]
        unique = unique_entities(grown)
        doc.entities = sorted(unique, key=lambda e: (e.first_token, -(e.end_token - e.first_token), e.type, e.source))
    return doc
