"""One string, one entity, one category: the document-level clean-up of recognized spans.

Why: a surrogate is consistent only if the spans it replaces are.  Statistical recognizers glue a
name to its neighbours ("Keith Walker: Mhm", "Maybe Gertraut", "Marika Hadaś and Lukáš",
"Aimée Lucas -⏎Giuseppe Gramsci") and give one string different categories in different sentences
("Agnolo" a person here and a place there); each variant then gets a surrogate of its own.  Two steps,
run by :meth:`psan.tool.detection.pipeline.Pipeline.finish_document`:

* :func:`join_slashed` (first): two place or organisation spans with only "/" between them, no space, are one
  name ("Frankfurt" "/" "Oder Labour Court"); a slash left in clear between two surrogates splits it.
* :func:`split_glued` (before name completion and propagation, so a glued span never seeds either):
  a span is cut at a line break and around a speaker slot (:mod:`psan.tool.detection.recognizers.layout`); a
  name (person, organisation, place) also at a colon or semicolon and at a conjunction or comma next to
  a name the document also has on its own (an *anchor*: the exact text of another recognized span).
  Each piece is then trimmed to the anchors it holds when every other word is filler: punctuation, a
  possessive, a closed-class word or interjection, a capitalised dictionary word standing where a
  capital proves nothing (the start of a line or sentence), and in a name a word in lower case (in a
  date, a quantity or a description the small words are the content: "primary school teacher").  A
  piece that is all filler ("Mm-hmm") is dropped; a piece that is a speaker slot already recognized is
  dropped as a duplicate; anything else (a name no anchor explains) is kept, so nothing found is lost.
  A name, or an OTHER span, ending in a bracketed name that is an anchor ("Magistrates’ Court in
  Newcastle (England)") is cut in two, the brackets kept with the anchor, which takes its own category:
  the anchor is then rendered as in its other mentions and every character stays covered.  (Cutting
  around any nested anchor, "Dean of | Klagenfurt University", was measured and not kept: one more
  consistent entity per fold of ``tab-dev`` for 1.6 points of detection precision.)
* :func:`unify_categories` (after propagation): all spans of one exact string take one category and
  type, the one with the most evidence — a speaker slot or a pattern outweighs a statistical model,
  which outweighs a propagated copy, which outweighs a capitalised word.  A legal form is evidence of an
  organisation for the name and for its base in the same document ("Serco Limited" / "Serco", which a model
  called OTHER), so both are one entity with one surrogate.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable

from psan.tool.detection.propagate import person_name_words
from psan.tool.text.document import (
    WEAK_SOURCES,
    Category,
    Document,
    Entity,
    in_span_order,
    token_bounds,
    token_texts,
)
from psan.tool.words.function_words import function_words
from psan.tool.words.name_joints import LEGAL_FORM_RE

__all__ = ["join_slashed", "split_glued", "unify_categories", "legal_base", "legal_base_by_regex", "SPEAKER_TYPE"]

SPEAKER_TYPE = "SPEAKER"
#: spoken fillers that open or close an utterance; never part of a name
INTERJECTIONS = frozenset(("oh", "uh", "uhm", "um", "umm", "hm", "hmm", "mhm", "mm", "mm-hmm", "uh-huh", "ehm", "eh",
                           "ah", "aha", "yeah", "yes", "no", "ok", "okay", "bye", "goodbye", "well", "so", "maybe",
                           "like", "sorry", "thanks", "hello", "hi", "right", "anything", "something", "somebody"))
#: conjunctions that join two names into one glued span ("X and Y"), per language; "," and "&" everywhere
CONJUNCTIONS: dict[str, frozenset[str]] = {
    "en": frozenset(("and", "or")), "cs": frozenset(("a", "nebo", "i")), "sk": frozenset(("a", "alebo", "i")),
    "pl": frozenset(("i", "oraz", "lub", "albo")), "sl": frozenset(("in", "ali")), "sv": frozenset(("och", "eller")),
    "de": frozenset(("und", "oder")),
}
_HARD = frozenset((":", ";"))
#: the categories whose spans are names: only these are trimmed to anchors, split at conjunctions and lose
#: lower-case words (in a date, a quantity or a description the small words are the content)
NAME_CATEGORIES = frozenset((Category.PERSON, Category.ORGANIZATION, Category.LOCATION))
_JOINERS = frozenset((",", "&", "/", "-", "–"))
_POSSESSIVE = frozenset(("'s", "’s", "'", "’"))
_POSSESSIVE_END = re.compile(r"\s*['’]s\Z")
_POSSESSIVE_ENDINGS = ("'s", "’s")
#: what ends a sentence (or a line) before a word: then its capital proves nothing
_SENTENCE_ENDS = ".!?:;>"
#: evidence of one span for its category (times the recognizer's score)
_SPEAKER_WEIGHT = 3.0
_PROPAGATED_WEIGHT = 0.5
_WEAK_WEIGHT = 0.1
_MAX_ANCHOR = 12


class _Anchors:
    """``text in anchors``: the text was recognized outside the span being cut (:meth:`within` sets it)."""

    def __init__(self, where: dict[str, list[tuple[int, int]]]) -> None:
        self.where = where
        self.outside = (0, 0)

    def within(self, a: int, b: int) -> None:
        self.outside = (a, b)

    def piece_spans(self, v: _View, a: int, b: int) -> set[tuple[int, int]]:
        """``{(a, b)}`` when the piece's text is an anchor recognized outside the span, else empty."""
        return {(a, b)} if v.span(a, b) in self else set()

    def __contains__(self, text: object) -> bool:
        return self.recognized_outside(self.where.get(str(text), ()))

    def recognized_outside(self, places: Iterable[tuple[int, int]]) -> bool:
        """Does one of a text's ``places`` (its token ranges in :attr:`where`) lie outside the span being cut?"""
        a, b = self.outside
        return any(not (a <= s and e <= b) for s, e in places)


def _is_speaker(e: Entity) -> bool:
    return e.type == SPEAKER_TYPE


#: (language, dictionary installed) → the word kinds and common-word answers of :class:`_View` so far
_ANSWERS: dict[tuple[str, bool], tuple[dict[str, int], dict[str, bool]]] = {}
#: the answers kept per language and table at most (a table is emptied when it grows past this)
_MAX_ANSWERS = 1 << 16


def _answers(language: str) -> tuple[dict[str, int], dict[str, bool]]:
    """The tables of :attr:`_View.kinds` and :attr:`_View.common` for ``language``, shared by the documents of a
    process.

    Why shared: both answers depend on the word and the language alone (the language's function words and
    conjunctions, its dictionary and name lists), and a corpus's documents ask about the same words again, each
    document repeating the tests and the dictionary look-ups of the one before.  Emptied when they grow large, so
    a long-running worker keeps a bounded table.
    """
    from psan.tool.words import lexicon
    key = (language, lexicon.available())  # (the dictionary's answers differ without it)
    tables = _ANSWERS.get(key)
    if tables is None or len(tables[0]) > _MAX_ANSWERS or len(tables[1]) > _MAX_ANSWERS:
        tables = _ANSWERS[key] = ({}, {})
    return tables


class _View:
    """The document's token texts and anchors for the filler and anchor tests."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.text = doc.text
        self.tokens = doc.tokens
        #: token offsets as two lists (a TokenArray's own: no Token object per look-up)
        self.starts, self.ends = token_bounds(doc.tokens)
        #: the token texts (a TokenArray keeps them, propagation reads them too): no slice per look-up
        self.texts = token_texts(doc.text, doc.tokens)
        self.language = doc.language or "en"
        self.closed = function_words(self.language)
        self.conjunctions = CONJUNCTIONS.get(self.language, frozenset())
        self.speakers = {(e.first_token, e.end_token) for e in doc.entities if _is_speaker(e)}
        #: the speaker slots in order and the longest one's length: the slots overlapping a span are bisected
        self.speaker_list = sorted(self.speakers)
        self.speaker_max = max((b - a for a, b in self.speakers), default=0)
        #: word → what :meth:`filler` makes of it apart from its place (see ``_word_kind``), and whether a capitalized
        #: word is a common word (a dictionary look-up): the process's answers for the language (:func:`_answers`)
        self.kinds, self.common = _answers(self.language)
        #: anchor text → where it was recognized (an entity nested in a span is no evidence of a cut in it)
        self.where: dict[str, list[tuple[int, int]]] = defaultdict(list)
        #: anchor text → its strongest entity: a piece cut out of a glued span takes that one's category
        self.kind: dict[str, Entity] = {}
        strongest: dict[str, float] = {}
        text, starts, ends = self.text, self.starts, self.ends
        #: each entity's text (as :meth:`span` cuts it), cut once: the anchors and the cuts read it
        self.entity_texts = [text[starts[e.first_token]:ends[e.end_token - 1]] for e in doc.entities]
        where, kind = self.where, self.kind
        for e, name in zip(doc.entities, self.entity_texts, strict=True):
            if e.source in WEAK_SOURCES:
                continue
            # (the per-token test of _clean only where the text holds a separator or a line break at all)
            if (":" not in name and ";" not in name and "\n" not in name) or self._clean(name, e.first_token,
                                                                                        e.end_token):
                where[name].append((e.first_token, e.end_token))
                weight = _weight(e)
                old = strongest.get(name)
                if old is None or weight > old:
                    kind[name] = e
                    strongest[name] = weight
        self.anchors = _Anchors(self.where)
        #: an anchor's first character → the lengths of the anchors that start with it: most pieces of a span are no
        #: anchor, which their length tells before their text is cut out and looked up
        self.anchor_lengths: dict[str, set[int]] = defaultdict(set)
        for name in self.where:
            self.anchor_lengths[name[:1]].add(len(name))

    def tok(self, i: int) -> str:
        return self.texts[i]

    def span(self, a: int, b: int) -> str:
        return self.text[self.starts[a]:self.ends[b - 1]]

    def spaced(self, i: int) -> bool:
        """Is token ``i`` apart from a neighbour by a space (or at an edge of the text)?"""
        n = len(self.starts)
        return i == 0 or i + 1 >= n or self.ends[i - 1] != self.starts[i] or self.ends[i] != self.starts[i + 1]

    def gap_breaks(self, i: int) -> bool:
        """Is there a line break between token ``i - 1`` and token ``i``?"""
        return "\n" in self.text[self.ends[i - 1]:self.starts[i]]

    def _clean(self, whole: str, a: int, b: int) -> bool:
        """No token ``:``/``;`` and no line break between the tokens ``[a, b)``, whose text is ``whole`` (tested per
        token only when the text holds one of these characters at all: 10^5 spans in a large document)."""
        if (":" in whole or ";" in whole) and any(self.tok(i) in _HARD for i in range(a, b)):
            return False
        return "\n" not in whole or not any(self.gap_breaks(i) for i in range(a + 1, b))

    def overlapping_speakers(self, a: int, b: int) -> list[tuple[int, int]]:
        """The speaker slots overlapping tokens ``[a, b)``, in order."""
        found = self.speaker_list[bisect_left(self.speaker_list, (a - self.speaker_max,)):
                                  bisect_left(self.speaker_list, (b,))]
        return [(s0, s1) for s0, s1 in found if s0 < b and s1 > a]

    def at_sentence_start(self, i: int) -> bool:
        start = self.starts[i]
        return start == 0 or after_sentence_end(self.text[max(0, start - 40):start])

    def filler(self, i: int, name: bool = True) -> bool:
        """A token that is never part of a name (see module docstring); outside a name (``name`` false) a
        word in lower case is content, not filler ("primary school teacher")."""
        w = self.texts[i]
        kind = self.kinds.get(w)
        if kind is None:
            kind = self.kinds[w] = self._word_kind(w)
        if kind != _CAPITALIZED:
            return kind == _FILLER or (kind == _LOWER_CASE and name)
        if not self.at_sentence_start(i):
            return False
        common = self.common.get(w)
        if common is None:
            common = self.common[w] = _common_word(w, self.language)
        return common

    def _word_kind(self, w: str) -> int:
        """What :meth:`filler` makes of a word wherever it stands: filler, content, a word in lower case (filler in a
        name) or a capitalized one (filler at a sentence start if it is a common word)."""
        low = w.casefold()
        if not any(c.isalnum() for c in w) or low in _POSSESSIVE:
            return _FILLER
        if any(c.isdigit() for c in w):
            return _CONTENT
        if low in INTERJECTIONS or low in self.closed or low in self.conjunctions:
            return _FILLER
        if not any(c.isupper() for c in w):
            return _LOWER_CASE
        return _CAPITALIZED


_FILLER, _CONTENT, _LOWER_CASE, _CAPITALIZED = range(4)


def after_sentence_end(before: str) -> bool:
    """Does the text ``before`` a word end a sentence or a line: nothing but spaces, a sentence's last punctuation
    (or ``>``) and spaces, a line break and spaces, or a lone dash (a list item)?

    Why string methods, not a regex searched over the text before (the same answers): the regex tried every
    position of it, for each capitalized word of every span of a large document.
    """
    body = before.rstrip()
    if not body or "\n" in before[len(body):]:
        return True
    return body[-1] in _SENTENCE_ENDS or body.lstrip() == "-"


def _common_word(word: str, language: str) -> bool:
    """A dictionary word that is no first name or surname of the language's name lists."""
    from psan.tool.words import lexicon
    if not lexicon.is_known(word, (language,)):
        return False
    try:
        from psan.tool.morph.namelists import pool_sets
        p = pool_sets(language)
    except (ImportError, KeyError, ValueError):  # a language without name lists: the dictionary decides
        return True
    return word not in p.known


def _one_piece(v: _View, e: Entity, name: bool, whole: str) -> bool:
    """Is the span (its text ``whole``) neither cut by :func:`_hard_pieces` nor, a name, by
    :func:`_conjunction_pieces`: no line break, no colon or semicolon in a name, no speaker slot in the document,
    and in a name no conjunction or joiner between its first and last token (tested on the token texts in C)?"""
    if e.end_token <= e.first_token or "\n" in whole or v.speaker_list:
        return False
    if not name:
        return True
    inner = v.texts[e.first_token + 1:e.end_token - 1]
    return (":" not in whole and ";" not in whole and _JOINERS.isdisjoint(inner)
            and v.conjunctions.isdisjoint(map(str.casefold, inner)))


def _hard_pieces(v: _View, e: Entity, name: bool, whole: str) -> list[tuple[int, int]]:
    """The span (its text ``whole``) cut at line breaks and around speaker slots, a name also at colons and
    semicolons (the separators dropped; the colon of a speaker slot always)."""
    if e.end_token <= e.first_token:
        whole = "\n"
    if "\n" not in whole and not (name and (":" in whole or ";" in whole)) \
            and not (v.speaker_list and v.overlapping_speakers(e.first_token, e.end_token)):
        return [(e.first_token, e.end_token)]  # nothing to cut at (most spans): no test per token
    cuts: set[int] = set()
    dropped: set[int] = set()
    for i in range(e.first_token, e.end_token):
        if name and v.tok(i) in _HARD:
            dropped.add(i)
        if i > e.first_token and v.gap_breaks(i):
            cuts.add(i)
    for s0, s1 in v.overlapping_speakers(e.first_token, e.end_token):
        if (s0, s1) != (e.first_token, e.end_token):
            cuts.update((s0, s1))
            if s1 < e.end_token and v.tok(s1) == ":":
                dropped.add(s1)
    pieces: list[tuple[int, int]] = []
    start = e.first_token
    for i in range(e.first_token, e.end_token + 1):
        if i == e.end_token or i in cuts or i in dropped:
            if start < i:
                pieces.append((start, i))
            start = i + 1 if i in dropped else i
    return pieces


def _conjunction_pieces(v: _View, a: int, b: int, person: bool = False) -> list[tuple[int, int]]:
    """``X and Y`` → ``X``, ``Y`` when one side is an anchor (the document names it on its own).  A slash with no
    space around it joins one place or organisation ("Frankfurt/Oder Labour Court", :func:`join_slashed`) and
    lists only persons ("Smith/Jones")."""
    texts, conjunctions = v.texts, v.conjunctions
    joins = [i for i in range(a + 1, b - 1) if (w := texts[i]).casefold() in conjunctions
             or w in _JOINERS and (person or w != "/" or v.spaced(i))]
    for i in joins:
        left, right = (a, i), (i + 1, b)
        if v.span(*left) in v.anchors or v.span(*right) in v.anchors:
            return _conjunction_pieces(v, *left, person) + _conjunction_pieces(v, *right, person)
    return [(a, b)]


def _bracketed_name(v: _View, e: Entity) -> tuple[int, Entity] | None:
    """(where "(" is, the strongest entity of the name in it) when the span ends in a bracketed name the
    document recognizes on its own: "Magistrates’ Court in Newcastle (England)" holds England, whose every
    other mention has its own surrogate; the brackets stay with the name, so the whole is still covered
    and "(England)" is rendered as England is."""
    a, b = e.first_token, e.end_token
    if b - a < 4 or v.tok(b - 1) != ")":
        return None
    opening = next((i for i in range(b - 2, a, -1) if v.tok(i) == "("), None)
    if opening is None or opening == a or any(v.tok(i) in "()" for i in range(opening + 1, b - 1)):
        return None
    inner = _edges(v, opening + 1, b - 1)
    text = v.span(*inner) if inner[0] < inner[1] else ""
    kind = v.kind.get(text)
    if kind is None or kind.category not in NAME_CATEGORIES or _is_speaker(kind) or text not in v.anchors:
        return None
    return opening, kind


def _anchor_cover(v: _View, a: int, b: int, whole: tuple[int, int], name: bool = True,
                  slash_joins: bool = False) -> list[tuple[int, int]] | None:
    """The anchors covering the piece when every other token is filler; ``None`` when a name is left over.

    An empty list: the piece is filler only.  The span itself is no anchor of itself.  With ``slash_joins`` (a
    place or an organisation) a slash with no space around it is part of the name, not filler.
    """
    out: list[tuple[int, int]] = []
    starts, ends, text, where = v.starts, v.ends, v.text, v.where
    i = a
    while i < b:
        best = None
        start = starts[i]
        lengths = v.anchor_lengths.get(text[start:start + 1], ())
        for j in range(min(b, i + _MAX_ANCHOR), i, -1) if lengths else ():
            # (most pieces are no recognized text at all: their length rules them out before their text is cut)
            if ends[j - 1] - start not in lengths or (i, j) == whole:
                continue
            piece = text[start:ends[j - 1]]
            # ``piece in v.anchors`` (recognized outside the span being cut), its places read once
            places = where.get(piece)
            if places and v.anchors.recognized_outside(places) and any(c.isalnum() for c in piece):
                best = j
                break
        if best is not None:
            out.append((i, best))
            i = best
        elif v.filler(i, name) and not (slash_joins and v.texts[i] == "/" and not v.spaced(i)):
            i += 1
        else:
            return None
    return out


_PAIRS = {")": "(", "]": "[", "”": "“", "»": "«", "’": "‘", '"': '"'}


def _edges(v: _View, a: int, b: int) -> tuple[int, int]:
    """The piece without punctuation at its edges (possessives too: "Klimko 's" → "Klimko"); a bracket or
    quote closing one opened inside the piece stays, and so does one opening a pair closed inside."""
    def paired_open(i: int) -> bool:
        closing = {o: c for c, o in _PAIRS.items()}.get(v.tok(i))
        return closing is not None and any(closing in v.tok(k) for k in range(i + 1, b))

    def paired_close(i: int) -> bool:
        opening = _PAIRS.get(v.tok(i))
        return opening is not None and any(opening in v.tok(k) for k in range(a, i))

    while b - a > 2 and _PAIRS.get(v.tok(b - 1)) == v.tok(a):  # a name in quotes: “EAT” → EAT
        a, b = a + 1, b - 1
    while a < b and not any(c.isalnum() for c in v.tok(a)) and not paired_open(a):
        a += 1
    while b > a and ((not any(c.isalnum() for c in v.tok(b - 1)) and not paired_close(b - 1))
                     or v.tok(b - 1).casefold() in _POSSESSIVE):
        b -= 1
    return a, b


def _punctuation_edges(v: _View, a: int, b: int) -> tuple[int, int]:
    """The piece without tokens of punctuation only at its edges."""
    while a < b and not any(c.isalnum() for c in v.tok(a)):
        a += 1
    while b > a and not any(c.isalnum() for c in v.tok(b - 1)):
        b -= 1
    return a, b


#: the categories that join across a slash: an organisation named with its place is an organisation
_SLASH_RANK = {Category.ORGANIZATION: 2, Category.LOCATION: 1}


def join_slashed(doc: Document) -> None:
    """Join two name spans written with only "/" between them into one span ("Frankfurt" "/" "Oder Labour
    Court"): the reader sees one name, and a slash left in clear between two surrogates splits it (fail closed).

    Only places and organisations join (a person beside a slash is a list of people), and only spans a recognizer
    typed; the joined span is an organisation when one side is.  Nor does :func:`split_glued` cut such a span at
    its slash when one side is a name the document also has on its own: "Frankfurt" found alone in one mention of
    "Frankfurt/Oder Labour Court" would otherwise leave the slash in clear in every other.
    """
    if len(doc.entities) < 2:
        return
    text, tokens = doc.text, doc.tokens

    def joinable(e: Entity) -> bool:
        return e.category in _SLASH_RANK and e.source not in WEAK_SOURCES and not _is_speaker(e)

    ending: dict[int, Entity] = {}
    starting: dict[int, Entity] = {}
    for e in doc.entities:
        if not joinable(e):
            continue
        if e.end_token not in ending or e.first_token < ending[e.end_token].first_token:
            ending[e.end_token] = e
        if e.first_token not in starting or e.end_token > starting[e.first_token].end_token:
            starting[e.first_token] = e
    parts: set[Entity] = set()
    made: dict[int, Entity] = {}  # end token → the joined span ending there ("A/B/C": "A/B" joins "C")
    for slash, left in sorted(ending.items()):
        right = starting.get(slash + 1)
        if right is None or slash + 1 >= len(tokens) or text[tokens[slash].start:tokens[slash].end] != "/" \
                or tokens[slash - 1].end != tokens[slash].start or tokens[slash].end != tokens[slash + 1].start:
            continue
        left = made.pop(slash, left)
        model = max((right, left), key=lambda e: _SLASH_RANK[e.category])
        parts.update((left, right))
        made[right.end_token] = Entity(left.first_token, right.end_token, model.type, model.category, model.source,
                                       max(left.score, right.score))
    if made:
        doc.entities = in_span_order([e for e in doc.entities if e not in parts] + list(made.values()))


def _kept_pieces(v: _View, e: Entity, whole: tuple[int, int], name: bool, text: str) -> list[tuple[int, int]]:
    """The token ranges the span (``whole``, its text ``text``) is cut and trimmed to; ``[whole]``: it stays."""
    if _one_piece(v, e, name, text):  # most spans: the two cuts below would return the span itself
        known = _anchor_cover(v, e.first_token, e.end_token, whole, name, e.category in _SLASH_RANK)
        if known is None:  # a name no anchor explains: the span stays as it is
            return [whole]
        hard = pieces = [whole]
    else:
        known = None
        hard = _hard_pieces(v, e, name, text)
        pieces = []
        for a, b in hard:  # a date or a description is no list of names: "15 March and 10 May 1989" stays
            pieces.extend(_conjunction_pieces(v, a, b, e.category is Category.PERSON) if name else [(a, b)])
    split = len(hard) != 1 or hard[0] != whole
    edges = _edges if name else _punctuation_edges  # "three months'": the apostrophe is the quantity's
    kept: list[tuple[int, int]] = []
    for a, b in pieces:
        if (a, b) in v.speakers and (a, b) != whole:
            continue
        cover = known if known is not None else _anchor_cover(v, a, b, whole, name, e.category in _SLASH_RANK)
        if cover is None:
            kept.append(edges(v, a, b) if split or (a, b) != whole else whole)
        elif cover or not split:
            kept.extend(cover or [edges(v, a, b)])
    return [(a, b) for a, b in kept if a < b]


def split_glued(doc: Document) -> None:
    """Cut and trim spans glued to their neighbours (see module docstring); changes ``doc.entities``."""
    if not doc.entities:
        return
    join_slashed(doc)
    v = _View(doc)
    out: list[Entity] = []
    for e, text in zip(doc.entities, v.entity_texts, strict=True):
        if e.type == SPEAKER_TYPE or e.end_token - e.first_token < 2 and not v.filler(e.first_token):
            out.append(e)
            continue
        whole = (e.first_token, e.end_token)
        v.anchors.within(*whole)
        name = e.category in NAME_CATEGORIES
        inner = _bracketed_name(v, e) if name or e.category is Category.OTHER else None
        if inner is not None:  # "X (Y)": X and "(Y)", each with its own category
            opening, kind = inner
            head = _edges(v, e.first_token, opening) if name else _punctuation_edges(v, e.first_token, opening)
            if head[0] < head[1]:
                out.append(Entity(*head, e.type, e.category, e.source, e.score))
            out.append(Entity(opening, e.end_token, kind.type, kind.category, e.source, e.score))
            continue
        kept = _kept_pieces(v, e, whole, name, text)
        if kept == [whole]:
            out.append(e)
            continue
        for a, b in kept:
            alone = v.kind.get(v.span(a, b)) if (a, b) in v.anchors.piece_spans(v, a, b) else None
            model = alone if alone is not None and not _is_speaker(alone) else e
            out.append(Entity(a, b, model.type, model.category, e.source, e.score))
    seen: set[tuple[int, int, str]] = set()
    unique = []
    for e in in_span_order(out):
        k = (e.first_token, e.end_token, e.type)
        if k not in seen:
            seen.add(k)
            unique.append(e)
    doc.entities = unique


def _weight(e: Entity) -> float:
    if _is_speaker(e):
        return _SPEAKER_WEIGHT
    if e.source == "propagation":
        return _PROPAGATED_WEIGHT * e.score
    if e.source in WEAK_SOURCES:
        return _WEAK_WEIGHT * e.score
    return e.score


def legal_base(text: str) -> str:
    """"Serco" of "Serco Limited", "" when the text ends in no legal form written as one (:func:`legal_base_by_regex`).

    A text of one word at most (blanks around it aside) is "" without the regex: a legal form needs a blank before it,
    and the only blanks before a word of such a text stand at its start, where the match would start, leaving no base
    (a third of the corpora's groups are one word; the regex, anchored at the end, is tried at every position)."""
    if len(text.split(None, 1)) < 2:
        return ""
    return legal_base_by_regex(text)


def legal_base_by_regex(text: str) -> str:
    """"Serco" of "Serco Limited", "" when the text ends in no legal form written as one: a word of three
    letters or more ("Limited", "GmbH"), an abbreviation with a dot ("Co.") or in capitals ("AG"): "Kim Se" is a
    name."""
    m = LEGAL_FORM_RE.search(text)
    if m is None:
        return ""
    form = m.group().strip(" ,")
    letters = [c for c in form if c.isalpha()]
    if len(letters) < 3 and "." not in form and not form.isupper():
        return ""
    return text[:m.start()].rstrip(" ,")


def _legal_form_evidence(doc: Document, groups: dict[str, list[int]]) -> dict[str, tuple[float, Entity | None]]:
    """Evidence of an organisation from legal forms, with the organisation span that gives it (its type is
    taken): a name written with one ("Serco Limited") is a company whatever a recognizer called it (one vote per
    mention), and so is its base ("Serco") in the same document (each mention with the legal form votes for it
    once more, with its recognizer's weight)."""
    evidence: dict[str, tuple[float, Entity | None]] = {}

    def add(text: str, votes: float, members: list[int]) -> None:
        old, model = evidence.get(text, (0.0, None))
        for n in members:
            e = doc.entities[n]
            if e.category is Category.ORGANIZATION and (model is None or _weight(e) > _weight(model)):
                model = e
        evidence[text] = (old + votes, model)

    for text, members in groups.items():
        base = legal_base(text)
        if base:
            add(text, len(members), members)
            if base in groups:
                add(base, sum(1.0 + _weight(doc.entities[n]) for n in members), members)
    return evidence


def unify_categories(doc: Document) -> None:
    """Give every span of one exact string the category (and type) with the most evidence.

    A word of a person's full name found in the document ("Reese" of "Kyle Reese") is a person mention
    wherever it stands: that name is evidence for PERSON as strong as the name's own span, and it always
    outweighs OTHER (a nationality, a number, a work of art), the category no surrogate and no entity
    of a person would ever come from.  Likewise a legal form ("Serco Limited") is evidence of an organisation for
    the name and its base ("Serco") wherever they stand, and outweighs OTHER: the replacer then renders both
    from one surrogate ("Hydromont Limited" / "Hydromont").
    """
    groups: dict[str, list[int]] = defaultdict(list)
    text = doc.text
    starts, ends = token_bounds(doc.tokens)
    for n, e in enumerate(doc.entities):  # "Klimko's" is "Klimko" in the possessive: one string
        name = text[starts[e.first_token]:ends[e.end_token - 1]]
        if name.endswith(_POSSESSIVE_ENDINGS):  # the regex only where it can match (10^5 spans in a large text)
            name = _POSSESSIVE_END.sub("", name)
        groups[name].append(n)
    companies = _legal_form_evidence(doc, groups)
    name_words = person_name_words(doc)
    for text, members in groups.items():
        cats = {doc.entities[n].category for n in members}
        person = name_words.get(text)
        company, company_model = companies.get(text, (0.0, None))
        if len(cats) < 2 and (person is None or Category.PERSON in cats) \
                and (not company or Category.ORGANIZATION in cats):
            continue
        votes: dict[Category, float] = defaultdict(float)
        for n in members:
            votes[doc.entities[n].category] += _weight(doc.entities[n])
        if company:
            votes[Category.ORGANIZATION] += company
            votes.pop(Category.OTHER, None)
        model = None
        if person is not None:
            votes[Category.PERSON] += person.score
            votes.pop(Category.OTHER, None)
            model = person
        winner = max(sorted(votes, key=str), key=lambda c: votes[c])
        if winner != Category.PERSON or model is None:
            model = max((doc.entities[n] for n in members if doc.entities[n].category == winner
                         and not _is_speaker(doc.entities[n])), key=_weight, default=None)
            if model is None and winner is Category.ORGANIZATION:
                model = company_model
        for n in members:
            e = doc.entities[n]
            if e.category != winner:
                new_type = model.type if model is not None else winner.value
                doc.entities[n] = Entity(e.first_token, e.end_token, new_type, winner, e.source, e.score)
