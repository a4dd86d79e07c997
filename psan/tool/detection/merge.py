"""Resolve overlapping recognizer candidates into one consistent set of entities.

Rules (applied to token ranges by :func:`resolve`, to character ranges by
:func:`resolve_char_spans`):

0. **Never personal** – :func:`resolve` first drops NER candidates that are public in any
   document (legislation, ordinals, generic courts and ministries: :mod:`psan.tool.detection.nonpersonal`).
1. **Alignment** – a candidate covers every token it overlaps by at least one
   character; a candidate that overlaps no token (whitespace, text outside
   the tokens) is dropped.
2. **Duplicates** – candidates with the same range, type and source collapse
   into one, keeping the highest score.
3. **Ranking** – candidates are ranked by (priority, score, length) – higher
   first – and accepted greedily; a candidate is dropped when it conflicts
   with an already accepted one:

   * *crossing* (partial overlap, neither contains the other) → conflict:
     validated PESEL beats a NER span that reaches into it;
   * *identical range*, different source → conflict (a competing guess for the
     same text); same source but a different type → both kept (CNEC gives
     one stretch two labels);
   * *nested* inside an accepted candidate of a **different source with
     higher priority** → conflict (NER ``PERSON`` on the digits of a validated
     ID, a gazetteer first name inside a NER person);
   * nested inside a candidate of the **same source** or of a different
     source with equal priority → kept (CNEC ``P`` ⊃ ``pf``, ``ps``);
   * an accepted candidate nested inside a lower-ranked one → both kept
     (a date inside a NER organisation name is still a date).

The output is sorted by (start, longest first, type) so that nested spans
follow their parent.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import NamedTuple

from psan.tool.detection.nonpersonal import drop_never_personal
from psan.tool.text.document import CharSpan, Document, Entity, Token, TokenArray, token_bounds


class Candidate(NamedTuple):
    """A candidate on token (or character) positions; a named tuple: 10^4 per document are built in C."""

    start: int  # token index or char offset
    end: int
    type: str
    source: str
    score: float
    priority: int
    payload: CharSpan
    length: int  # end - start

    def rank(self) -> tuple[int, float, int, int, str]:
        # earlier start and type name only make the order deterministic
        return (-self.priority, -self.score, -self.length, self.start, self.type)


#: ``Candidate(…)`` from a tuple of its fields without the named tuple's Python-level ``__new__``
_new_cand = tuple.__new__
_START, _TYPE, _SOURCE, _SCORE, _PRIORITY, _LENGTH = (itemgetter(Candidate._fields.index(f)) for f in (
    "start", "type", "source", "score", "priority", "length"))


def by_rank(cands: Iterable[Candidate]) -> list[Candidate]:
    """``sorted(cands, key=Candidate.rank)`` by stable sorts on one field each, least significant first (keys in C:
    10^4 candidates per corpus pass called ``rank`` in Python; ``reverse`` keeps equal items in their order)."""
    out = sorted(cands, key=_TYPE)
    out.sort(key=_START)
    out.sort(key=_LENGTH, reverse=True)
    out.sort(key=_SCORE, reverse=True)
    out.sort(key=_PRIORITY, reverse=True)
    return out


def _conflicts(winner: Candidate, other: Candidate) -> bool:
    """True when ``other`` (ranked lower) must go because ``winner`` is kept."""
    if other.end <= winner.start or winner.end <= other.start:
        return False  # disjoint
    same_source = winner.source == other.source
    if winner.start == other.start and winner.end == other.end:
        return not same_source or winner.type == other.type
    if winner.start <= other.start and other.end <= winner.end:  # other nested in winner
        return not same_source and winner.priority > other.priority
    if other.start <= winner.start and winner.end <= other.end:  # winner nested in other
        return False
    return True  # crossing


def _select(cands: Iterable[Candidate]) -> list[Candidate]:
    best: dict[tuple[int, int, str, str], Candidate] = {}
    for cand in cands:
        key = (cand.start, cand.end, cand.type, cand.source)
        if key not in best or cand.score > best[key].score:
            best[key] = cand
    kept: list[Candidate] = []
    # accepted candidates by every position they cover: the ones overlapping a new candidate are
    # exactly those listed at its positions, so each check looks at a few neighbours, not at all kept
    at: dict[int, list[Candidate]] = {}
    taken = at.__contains__
    for cand in by_rank(best.values()):
        positions = range(cand.start, cand.end)
        # the usual case, no accepted candidate at any of its positions, is decided in C
        if any(map(taken, positions)) and any(_conflicts(k, cand) for pos in positions for k in at.get(pos, ())):
            continue
        kept.append(cand)
        for pos in positions:
            at.setdefault(pos, []).append(cand)
    # by (start, longest first, type, source): stable sorts, least significant first
    kept.sort(key=_SOURCE)
    kept.sort(key=_TYPE)
    kept.sort(key=_LENGTH, reverse=True)
    kept.sort(key=_START)
    return kept


def align(tokens: Sequence[Token], start: int, end: int) -> tuple[int, int] | None:
    """Token range ``[first, end)`` of the tokens overlapping ``[start, end)``, or ``None``.

    Tokens must be sorted and non-overlapping (as every tokenizer produces them).
    """
    if end <= start or not tokens:
        return None
    ends = _Ends(tokens)
    first = bisect_right(ends, start)  # first token whose end > start
    starts = _Starts(tokens)
    last = bisect_left(starts, end)  # tokens[first:last] start before end
    if first >= last:
        return None
    return tokens[first].id, tokens[last - 1].id + 1


class _Ends(Sequence[int]):
    """Lazy view of token ends for bisect without building a list per call."""

    __slots__ = ("tokens",)

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens

    def __len__(self) -> int:
        return len(self.tokens)

    def __getitem__(self, i):  # type: ignore[override]
        return self.tokens[i].end


class _Starts(_Ends):
    def __getitem__(self, i):  # type: ignore[override]
        return self.tokens[i].start


def resolve(doc: Document, candidates: Iterable[CharSpan]) -> list[Entity]:
    """Align ``candidates`` to ``doc.tokens`` and resolve overlaps (see module docstring).

    Token starts and ends are listed once per document and bisected directly (the same result
    as :func:`align` per candidate, without its per-probe attribute look-ups).
    """
    tokens = doc.tokens
    aligned: list[Candidate] = []
    candidates = drop_never_personal(doc.text, candidates, doc.language)
    if tokens:
        starts, ends = token_bounds(tokens)
        by_position = isinstance(tokens, TokenArray)  # its token ids are the positions
        for span in candidates:
            if span.end <= span.start:
                continue
            first = bisect_right(ends, span.start)  # first token whose end > start
            last = bisect_left(starts, span.end)  # tokens[first:last] start before end
            if first < last:
                if not by_position:
                    first, last = tokens[first].id, tokens[last - 1].id + 1
                aligned.append(_new_cand(Candidate, (first, last, span.type, span.source, span.score, span.priority,
                                                 span, last - first)))
    return [Entity(c.start, c.end, c.type, c.payload.category, c.source, c.score) for c in _select(aligned)]


def resolve_char_spans(candidates: Iterable[CharSpan]) -> list[CharSpan]:
    """The same rules on character offsets (evaluation without tokens); empty spans are dropped."""
    cands = (Candidate(s.start, s.end, s.type, s.source, s.score, s.priority, s, s.end - s.start)
             for s in candidates if s.end > s.start)
    return [c.payload for c in _select(cands)]
