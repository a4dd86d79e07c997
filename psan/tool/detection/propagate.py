"""Document-level propagation: mark every other occurrence of a string already found in the document.

Why: a recognizer (NER above all) often finds a name in one context and misses the very same
string a paragraph later.  The thesis ("plus" variant, section 2.6) measured that searching every
found string again in the same document raises NameTag's any-overlap recall from 0.57 to 0.85 at
a moderate precision cost.  This module is that step as a pluggable pipeline stage run after
merging: it only *adds* entities (source ``"propagation"``), never changes the found ones.

Policy (tested in ``tests/tool/test_propagate.py``):

* only entities of name-like categories seed the search (PERSON, ORGANIZATION, LOCATION) plus
  exact strings of IDs and contacts; dates and OTHER (numbers, nationalities …) would flood
  the document with false positives;
* matching is on whole tokens, case-sensitive, exactly the seed's token sequence ("Jan" never
  marks "Jana"), found by walking a trie of the seeds from each token that starts one; a match may
  cross a sentence boundary (it is still a contiguous token sequence of the same string);
* seeds shorter than ``min_chars`` characters and seeds made only of lower-case alphabetic
  words (common words a recognizer tagged by mistake: "court", "the applicant") are skipped;
* an occurrence that lies inside an existing entity, equals one, or crosses one is skipped (no
  duplicates, no conflicting spans); one that strictly contains existing entities is added
  (they stay nested, as the merger allows); overlapping occurrences are accepted longest first;
* an entity of a *weak* source (:data:`WEAK_SOURCES`: a capitalized word that no recognizer typed) neither
  seeds nor blocks: a found name propagates over it and replaces it, so "Tatarčuk" found as a surname in one
  sentence is a surname, not just "a capitalized word", in the next;
* in English, the name inside a mention grown by :mod:`psan.tool.detection.extension` is a seed too
  (:func:`core_words`: "the Warsaw District Court" of "the Warsaw District Court (Sąd Rejonowy)");
* in English a propagated occurrence grows to its whole mention as a found one does
  (:mod:`psan.tool.detection.extension`:
  "District of" before a place, a name's translation in brackets after it);
* the propagated entity copies type and category of its seed (the highest-scoring seed when the
  same string was found with different types), with the seed's score times ``score_factor``;
* ``name_parts`` (default on in every supported language: :data:`NAME_PART_LANGUAGES`): each capitalized word of a
  found person name of two or more words is a seed of its own, so "Ernest Nagy" also marks a later "Nagy",
  "Galileo Galilei" marks "Galilei" (and, by lemma, "Galileiho"): news and encyclopaedic text name a person
  in full once and by one part afterwards.  Words shorter than three letters, initials, words in capitals,
  closed-class words of the language and words the text also writes in lower case are no seeds;
* Swedish genitives (:data:`GENITIVE_S_LANGUAGES`): a found name also seeds its genitive ("Rabin" →
  "Rabins") and a found genitive its base ("Rabins" → "Rabin", unless the base is a closed-class word or
  written in lower case in the text: "Hans" never seeds the pronoun "Han");
* ``lemmas`` (default on): in inflected languages (cs, sk, sl, pl; :func:`psan.tool.morph.lemma.get_lemmatizer`,
  Morfeusz2 for Polish) a second pass compares lemmas of capitalized words, so a found "Košice"
  also marks "Košiciach" and "Kowalski" marks "Kowalskiego".  Lower-case and non-alphabetic tokens
  still have to be equal, lemmas shorter than three letters never match, and an exact match wins
  over a lemma match on the same tokens; lemma matches get a further ``score_factor``.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from itertools import compress
from typing import Any

from psan.tool.detection.extension import DIVISION_WORDS, PLACE_WORDS, extend_mentions
from psan.tool.detection.extension import LANGUAGES as EXTENDED_LANGUAGES
from psan.tool.detection.nonpersonal import is_never_a_name
from psan.tool.morph.lemma import get_lemmatizer, identity_lemmatizer
from psan.tool.text.document import (
    WEAK_SOURCES,
    Category,
    CharSpan,
    Document,
    Entity,
    lower_case_token_texts,
    token_bounds,
    token_texts,
)

__all__ = ["DEFAULT_CATEGORIES", "NAME_PART_LANGUAGES", "SOURCE", "core_words", "person_name_words", "propagate",
           "with_propagation"]

#: categories whose found strings are searched again (names and exact identifier strings)
DEFAULT_CATEGORIES: frozenset[Category] = frozenset(
    {Category.PERSON, Category.ORGANIZATION, Category.LOCATION, Category.ID, Category.CONTACT})

#: ``Entity.source`` of the added entities
SOURCE = "propagation"
#: languages whose person names also seed their single words (``name_parts``): all psan supports
NAME_PART_LANGUAGES = frozenset({"cs", "sk", "sl", "pl", "sv", "en"})
#: languages whose names take a genitive "-s" written as one word (Swedish "Rabins", "Sveriges")
GENITIVE_S_LANGUAGES = frozenset({"sv"})


def _is_common_word_run(words: tuple[str, ...]) -> bool:
    """All tokens lower-case alphabetic words: a likely common word, not a name or an identifier."""
    return all(map(str.isalpha, words)) and all(map(str.islower, words))


#: tokens a grown English mention ends its name with (:mod:`psan.tool.detection.extension`)
_OPENERS = frozenset({"(", "[", ","})
_POSSESSIVE = frozenset({"'s", "’s", "'", "’", "s"})


def core_words(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The name inside a grown English mention, searched again as well (None = none other than ``words``).

    Why: :mod:`psan.tool.detection.extension` grows "the Warsaw District Court" to "the Warsaw District Court (Sąd
    Rejonowy)", "Tarnów" to "Tarnów, Poland", "Kartal" to "Kartal court" or "the county of Jämtland"; the
    longer string rarely occurs again, the name alone does.  The core is the part before a bracket or a
    comma, without a possessive, trailing lower-case words or leading lower-case words, without a
    division, office or kind of place before "of" ("Ninth Chamber of", "District of"), and then without
    "the" ("the Warsaw District Court" also finds "The Warsaw District Court").
    """
    core = words
    for i, w in enumerate(core):
        if w in _OPENERS and i > 0:
            core = core[:i]
            break
    while len(core) > 1 and (core[-1] in _POSSESSIVE and (core[-1] != "s" or core[-2] in ("'", "’"))):
        core = core[:-1]
    if core and len(core[-1]) > 2 and core[-1].endswith(("'s", "’s")):  # one token "Tribunal’s"
        core = (*core[:-1], core[-1][:-2])
    while len(core) > 1 and core[-1].isalpha() and core[-1].islower():
        core = core[:-1]
    if core and core[0] != "the" and core[0].isalpha() and core[0].islower():
        i = 0
        while i < len(core) - 1 and core[i].isalpha() and core[i].islower():
            i += 1
        core = core[i:]
    if len(core) >= 3 and core[1] == "of" and (core[0].lower() in PLACE_WORDS or core[0] in DIVISION_WORDS):
        core = core[2:]  # "District of Famagusta", "Parliament of the TRNC"
    elif len(core) >= 4 and core[2] == "of" and core[1] in DIVISION_WORDS:
        core = core[3:]  # "Ninth Chamber of the Izmir Assize Court"
    if core == words:
        return None
    if len(core) > 1 and core[0] in ("the", "The"):
        core = core[1:]  # "The Opole District Court" at a sentence start is the same name
    return core if core and any(w[:1].isupper() for w in core) else None


def _lemma_keys(words: list[str], language: str) -> list[str] | None:
    """Per token: the lemma of a capitalized alphabetic word, the token itself otherwise (None = no lemmatizer)."""
    lem = get_lemmatizer(language)
    if lem is identity_lemmatizer:
        return None
    out = []
    for w in words:
        if w[:1].isupper() and w.isalpha():
            key = lem(w)
            out.append("\x00" + key if len(key) >= 3 else w)  # the mark keeps lemmas apart from raw tokens
        else:
            out.append(w)
    return out


def scan_token_patterns(patterns: list[tuple[str, ...]], keys: list[str], n_tokens: int) -> list[tuple[int, int, int]]:
    """Every occurrence ``(first, end, pattern index)`` of the (distinct, non-empty) ``patterns`` in ``keys``,
    longest first, then by position.

    Why a trie walked from each token that starts a pattern (picked in C) rather than an Aho–Corasick
    automaton (:class:`psan.tool.decisions.rules.TokenAutomaton`, which finds the same occurrences): the seeds are
    new for every document, and the automaton's failure links cost more to build than the walk, while its
    scan visited every token of any seed ("the", "of", ","), not only the seeds' first tokens.
    """
    root: dict[str | None, Any] = {}
    for idx, pattern in enumerate(patterns):
        node = root
        for tok in pattern:
            node = node.setdefault(tok, {})
        node[None] = idx  # None is no token: the pattern ends here
    # the occurrences by length: each list is in order of position as found, so the longest lists first are the
    # occurrences sorted by (-length, first) without a sort key per occurrence (a (first, end) has one pattern)
    by_length: dict[int, list[tuple[int, int, int]]] = {}
    for first in compress(range(n_tokens), map(root.__contains__, keys)):
        node = root[keys[first]]
        end = first + 1
        while True:
            idx = node.get(None)
            if idx is not None:
                same = by_length.get(end - first)
                if same is None:
                    same = by_length[end - first] = []
                same.append((first, end, idx))
            if end == n_tokens:
                break
            node = node.get(keys[end])
            if node is None:
                break
            end += 1
    return [m for length in sorted(by_length, reverse=True) for m in by_length[length]]


def person_name_words(doc: Document, source: str = SOURCE) -> dict[str, Entity]:
    """The proper words of the multi-word person names found in ``doc``, each with the name it is part of.

    Why: "Sarah Connor" makes a later "Connor" a person mention wherever it stands, whatever another
    recognizer called it.  A word counts only when it looks like a name part: three or more letters,
    capitalized but not all capitals, not a closed-class word of the language, never written in lower case
    in the text, and not a word that never names anyone (:func:`psan.tool.detection.nonpersonal.is_never_a_name`).
    """
    from psan.tool.words.function_words import function_words
    text, tokens = doc.text, doc.tokens
    texts: list[str] | None = None  # the pipeline's list (no Token object per token), read at the first name
    closed = function_words(doc.language)
    lower: set[str] | None = None
    found: dict[str, Entity] = {}
    for ent in doc.entities:
        if ent.category != Category.PERSON or ent.source == source or ent.source in WEAK_SOURCES \
                or ent.end_token - ent.first_token < 2:
            continue
        if texts is None:
            texts = token_texts(text, tokens)
        words = texts[ent.first_token:ent.end_token]
        proper = [w for w in words if len(w) >= 3 and w.isalpha() and w[0].isupper() and not w.isupper()]
        if len(proper) < 2:
            continue
        for word in proper:
            if word in found and found[word].score >= ent.score:
                continue
            if word.lower() in closed or is_never_a_name(word, ent.category, doc.language):
                continue
            if lower is None:  # the distinct tokens first: a tenth of the tokens to test in a long text
                lower = lower_case_token_texts(text, tokens)
            if word.lower() not in lower:
                found[word] = ent
    return found


def _name_part_seeds(doc: Document, seeds: dict[tuple[str, ...], Entity], source: str) -> None:
    """Add each proper word of a multi-word person name to ``seeds`` (see ``name_parts`` in the module docstring)."""
    for word, ent in person_name_words(doc, source).items():
        if (word,) not in seeds:
            seeds[(word,)] = Entity(0, 0, ent.type, ent.category, ent.source, round(ent.score * 0.9, 6))


def _genitive_seeds(doc: Document, seeds: dict[tuple[str, ...], Entity]) -> None:
    """Add the genitive of every found name and the base of every found genitive (Swedish "-s")."""
    from psan.tool.words.function_words import function_words
    closed = function_words(doc.language)
    lower = {w.lower() for w in re.findall(r"\w+", doc.text) if w.islower()}
    for words, ent in list(seeds.items()):
        last = words[-1]
        if not (last.isalpha() and last[0].isupper() and not last.isupper() and len(last) >= 3):
            continue
        seeds.setdefault((*words[:-1], last + "s"), ent)
        base = last[:-1]
        if last.endswith("s") and not last.endswith("ss") and len(base) >= 3 and base.lower() not in closed \
                and base.lower() not in lower:
            seeds.setdefault((*words[:-1], base), ent)


def _found_seeds(doc: Document, texts: list[str], wanted: set[Category], source: str,
                 min_chars: int) -> dict[tuple[str, ...], Entity]:
    """The word tuples of the found entities to look for again, each with the entity it copies (the best-scored
    of its occurrences), then the cores of those names; the cores come last so that a core equal to a found
    string keeps that string's own entity."""
    seeds: dict[tuple[str, ...], Entity] = {}
    cores: dict[tuple[str, ...], Entity] = {}
    skipped: set[tuple[str, ...]] = set()
    for ent in doc.entities:
        if ent.category not in wanted or ent.source == source or ent.source in WEAK_SOURCES:
            continue
        words = tuple(texts[ent.first_token:ent.end_token])
        old = seeds.get(words)
        if old is not None:  # the same string again (names recur): tested, and its core taken, the first time
            if ent.score > old.score:
                seeds[words] = ent
            continue
        if words in skipped or sum(map(len, words)) < min_chars or _is_common_word_run(words):
            skipped.add(words)
            continue
        seeds[words] = ent
        core = core_words(words) if doc.language in EXTENDED_LANGUAGES else None
        if core is not None and sum(map(len, core)) >= min_chars and not _is_common_word_run(core):
            cores.setdefault(core, ent)
    for core, ent in cores.items():
        seeds.setdefault(core, ent)
    return seeds


#: occurrences ``(first, end, pattern index)`` in order, with the score factor they all have
Matches = list[tuple[list[tuple[int, int, int]], float]]


def _pattern_matches(patterns: list[tuple[str, ...]], texts: list[str], language: str, lemmas: bool,
                     score_factor: float) -> Matches:
    """Every occurrence of the patterns, with its score factor: the exact ones (factor 1) first, then those found
    only by their lemmas (factor ``score_factor``: an inflected form is less sure), so that an exact occurrence
    wins where both are found.  (Two lists, not a factor per occurrence: 10^5 occurrences in a large text.)"""
    n_tokens = len(texts)
    matches: Matches = [(scan_token_patterns(patterns, texts, n_tokens), 1.0)]
    keys = _lemma_keys(texts, language) if lemmas else None
    if keys is not None:
        by_lemma: dict[tuple[str, ...], int] = {}
        for idx, words in enumerate(patterns):
            lemma_key = tuple(_lemma_keys(list(words), language) or words)
            if lemma_key != words:  # words equal to their keys were found by the exact pass already
                by_lemma.setdefault(lemma_key, idx)
        lemma_patterns = list(by_lemma)
        matches.append(([(first, end, by_lemma[lemma_patterns[i]])
                          for first, end, i in scan_token_patterns(lemma_patterns, keys, n_tokens)], score_factor))
    return matches


def _new_entities(doc: Document, matches: Matches, seeds: list[Entity],
                  starts: list[int], ends: list[int], source: str, score_factor: float) -> list[Entity]:
    """The matches taken in order as new entities, each grown to its whole mention where the language does
    so, and skipped when it repeats, lies inside or crosses an entity found or added before it (a part of a
    found mention is no new mention)."""
    # per token: the widest extent of the entities covering it (None = uncovered)
    lo: list[int | None] = [None] * len(doc.tokens)
    hi: list[int] = [0] * len(doc.tokens)
    existing = set()
    for ent in doc.entities:
        if ent.source in WEAK_SOURCES:
            continue
        existing.add((ent.first_token, ent.end_token))
        _cover(lo, hi, ent.first_token, ent.end_token)

    grow = _Growth(doc, starts, ends) if doc.language in EXTENDED_LANGUAGES else None
    added: list[Entity] = []
    for found, factor in matches:
        for first, end, idx in found:
            if (first, end) in existing or _inside_or_crossing(lo, hi, first, end):
                continue  # found already (and grown already if it was to grow), or part of a found mention
            seed = seeds[idx]
            if grow is not None:
                first, end = grow(first, end, seed)
                if (first, end) in existing or _inside_or_crossing(lo, hi, first, end):
                    continue
            added.append(Entity(first, end, seed.type, seed.category, source,
                                round(seed.score * score_factor * factor, 6)))
            existing.add((first, end))
            _cover(lo, hi, first, end)
    return added


def propagate(doc: Document, categories: Iterable[Category | str] = DEFAULT_CATEGORIES, min_chars: int = 2,
              score_factor: float = 0.9, source: str = SOURCE, lemmas: bool = True,
              name_parts: bool | None = None) -> list[Entity]:
    """New entities for further occurrences of strings already found in ``doc`` (see module docstring).

    ``doc.entities`` is not modified; the result is sorted like the merger's output and never
    duplicates, crosses or lies inside an entity of ``doc.entities``.
    """
    if not doc.entities or not doc.tokens:
        return []
    wanted = {Category(c) for c in categories}
    starts, ends = token_bounds(doc.tokens)
    texts = token_texts(doc.text, doc.tokens)  # usually the list the pipeline made when it checked the tokens
    seeds = _found_seeds(doc, texts, wanted, source, min_chars)
    if name_parts is None:
        name_parts = doc.language in NAME_PART_LANGUAGES
    if name_parts and Category.PERSON in wanted:
        _name_part_seeds(doc, seeds, source)
    if doc.language in GENITIVE_S_LANGUAGES and seeds:
        _genitive_seeds(doc, seeds)
    if not seeds:
        return []
    patterns = list(seeds)
    matches = _pattern_matches(patterns, texts, doc.language, lemmas, score_factor)
    if not any(found for found, _ in matches):
        return []
    added = _new_entities(doc, matches, [seeds[p] for p in patterns], starts, ends, source, score_factor)
    added.sort(key=lambda e: (e.first_token, -(e.end_token - e.first_token), e.type, e.source))
    return added


class _Growth:
    """A propagated occurrence grows to its whole mention like a found one (:func:`psan.tool.detection.extension.
    extend_mentions`: "District of" + a propagated "Larnaca", a propagated "Dev-Sol" + its translation in
    brackets), when the grown mention starts and ends on token boundaries."""

    def __init__(self, doc: Document, starts: list[int], ends: list[int]) -> None:
        self.doc = doc
        self.starts, self.ends = starts, ends

    def __call__(self, first: int, end: int, seed: Entity) -> tuple[int, int]:
        span = CharSpan(self.starts[first], self.ends[end - 1], seed.type, seed.category, SOURCE, seed.score)
        grown = extend_mentions(self.doc.text, [span], self.doc.language)
        if len(grown) != 1 or (grown[0].start, grown[0].end) == (span.start, span.end):
            return first, end
        # the token starting / ending at the grown edges, by bisection of the sorted offsets (a dict over every
        # token of a 10^6-token document cost more than the growing itself)
        new_first = bisect_right(self.starts, grown[0].start) - 1
        new_last = bisect_right(self.ends, grown[0].end) - 1
        if new_first < 0 or self.starts[new_first] != grown[0].start or new_last < 0 \
                or self.ends[new_last] != grown[0].end:
            return first, end
        return new_first, new_last + 1


def _inside_or_crossing(lo: list[int | None], hi: list[int], first: int, end: int) -> bool:
    """Do tokens ``[first, end)`` lie inside or cross an entity (existing or just added)?"""
    if end - first == 1:  # most occurrences are one word: no generator
        low = lo[first]
        return low is not None and (low < first or hi[first] > end)
    return any(lo[i] is not None and (lo[i] < first or hi[i] > end) for i in range(first, end))  # type: ignore[operator]


def _cover(lo: list[int | None], hi: list[int], first: int, end: int) -> None:
    """Record that tokens ``[first, end)`` are covered by an entity with that extent."""
    for i in range(first, end):
        low = lo[i]
        if low is None or first < low:
            lo[i] = first
        if end > hi[i]:
            hi[i] = end


def with_propagation(doc: Document, **options: object) -> Document:
    """``doc`` with :func:`propagate`'s entities merged into ``doc.entities`` (same order as the merger's); an
    entity of a weak source that a propagated entity overlaps is dropped (the propagated one types it)."""
    extra = propagate(doc, **options)  # type: ignore[arg-type]
    if extra:
        covered = set()
        for e in extra:
            covered.update(range(e.first_token, e.end_token))
        kept = [e for e in doc.entities  # a weak span a propagated name overlaps gives way to it
                if e.source not in WEAK_SOURCES or not covered.intersection(range(e.first_token, e.end_token))]
        doc.entities = sorted([*kept, *extra],
                              key=lambda e: (e.first_token, -(e.end_token - e.first_token), e.type, e.source))
    return doc
