"""The thesis' span metrics (section 2.3): exact / inside / partial / missed, recall, precision.

Why these and not the usual NER F1: the annotator only needs to be *shown* a
sensitive span; the type does not matter and a span that merely touches the
sensitive text already draws attention to it.  So every gold span is

* **exact** – a system span has the same start and end,
* **inside** – else a system span contains it,
* **partial** – else a system span overlaps it,
* **missed** – no system span overlaps it;

recall (any) = (exact + inside + partial) / gold, recall (exact) = exact / gold,
precision = system spans that overlap some gold span / system spans.  Unlike the
thesis' Table 2.7 (where one system span matching two gold spans counted twice
and precision could exceed 1), precision here counts *system spans*, so it never
exceeds 1.  Scores exist per document and globally (sums over all documents).
"""
from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

Span = tuple[int, int]

EXACT, INSIDE, PARTIAL, MISSED = "exact", "inside", "partial", "missed"
KINDS = (EXACT, INSIDE, PARTIAL, MISSED)


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass(slots=True)
class MatchCounts:
    """Counts of one document or of a whole corpus (they add up)."""

    gold: int = 0
    exact: int = 0
    inside: int = 0
    partial: int = 0
    missed: int = 0
    system: int = 0
    system_hit: int = 0

    def __add__(self, other: MatchCounts) -> MatchCounts:
        return MatchCounts(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def as_tuple(self) -> tuple[int, ...]:
        return (self.gold, self.exact, self.inside, self.partial, self.missed, self.system, self.system_hit)

    @property
    def found(self) -> int:
        return self.exact + self.inside + self.partial

    @property
    def recall(self) -> float | None:
        """Any match (exact, inside or partial); None without gold spans."""
        return _ratio(self.found, self.gold)

    @property
    def recall_exact(self) -> float | None:
        return _ratio(self.exact, self.gold)

    @property
    def precision(self) -> float | None:
        """System spans touching a gold span / system spans; None without system spans."""
        return _ratio(self.system_hit, self.system)

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None
        return 2 * p * r / (p + r)

    def to_dict(self) -> dict[str, float | int | None]:
        out: dict[str, float | int | None] = dict(asdict(self))
        out.update(recall=self.recall, recall_exact=self.recall_exact, precision=self.precision, f1=self.f1)
        return out


class SpanIndex:
    """Sorted spans with a bisect lookup of the ones overlapping a range.

    Why: ELITR meetings have thousands of system spans after "plus"; a naive
    gold × system loop would dominate the run time.
    """

    def __init__(self, spans: Iterable[Span]) -> None:
        self.spans = sorted(set(spans))
        self.starts = [s for s, _ in self.spans]
        self.max_len = max((e - s for s, e in self.spans), default=0)

    def overlapping(self, start: int, end: int) -> list[Span]:
        """Spans sharing at least one character with ``[start, end)``."""
        lo = bisect_left(self.starts, start - self.max_len)
        hi = bisect_left(self.starts, end)
        return [(s, e) for s, e in self.spans[lo:hi] if e > start and s < end]


def classify(gold: Span, overlapping: Iterable[Span]) -> str:
    """Match kind of one gold span given the system spans overlapping it."""
    kind = MISSED
    gs, ge = gold
    for s, e in overlapping:
        if (s, e) == (gs, ge):
            return EXACT
        if s <= gs and ge <= e:
            kind = INSIDE
        elif kind == MISSED:
            kind = PARTIAL
    return kind


def match_kinds(gold: Sequence[Span], system: Iterable[Span]) -> list[str]:
    """The match kind of every gold span, in the order given."""
    index = SpanIndex(system)
    return [classify(g, index.overlapping(*g)) for g in gold]


def score(gold: Iterable[Span], system: Iterable[Span]) -> MatchCounts:
    """Counts for one document.  Duplicate ranges count once on both sides; empty spans are ignored."""
    gold_set = sorted({(s, e) for s, e in gold if e > s})
    sys_set = sorted({(s, e) for s, e in system if e > s})
    counts = MatchCounts(gold=len(gold_set), system=len(sys_set))
    for kind in match_kinds(gold_set, sys_set):
        setattr(counts, kind, getattr(counts, kind) + 1)
    gold_index = SpanIndex(gold_set)
    counts.system_hit = sum(1 for s in sys_set if gold_index.overlapping(*s))
    return counts


def total(per_doc: Iterable[MatchCounts]) -> MatchCounts:
    """Global counts: the sum over documents."""
    out = MatchCounts()
    for c in per_doc:
        out = out + c
    return out


def mean_std(values: Iterable[float | None]) -> tuple[float | None, float | None, int]:
    """Mean and (population) standard deviation of the defined values, and their number."""
    vals = [v for v in values if v is not None]
    if not vals:
        return None, None, 0
    mean = sum(vals) / len(vals)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in vals) / len(vals)), len(vals)


def per_doc_summary(per_doc: Sequence[MatchCounts]) -> dict[str, dict[str, float | int | None]]:
    """Per-document view (thesis Tables 2.6/2.7): mean (std) of recall, exact recall and precision.

    Documents without gold spans have no recall, documents without system spans no precision;
    they are left out of that mean rather than counted as 0 or 1.
    """
    out: dict[str, dict[str, float | int | None]] = {}
    for name in ("recall", "recall_exact", "precision"):
        mean, std, n = mean_std(getattr(c, name) for c in per_doc)
        out[name] = {"mean": mean, "std": std, "n": n}
    return out
