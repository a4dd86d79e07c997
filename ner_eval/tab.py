"""TAB-style metrics (Pilán et al. 2022): entity-level recall and token-level recall/precision.

Why in addition to the thesis metrics: for masking, *touching* a mention is not
enough – one unmasked mention of a person re-identifies them.  So an entity
counts as masked only if **all** its mentions are covered, and a mention is
covered when every non-whitespace character of it lies inside some system
span (whitespace is skipped because token-aligned system spans never include
the gap between two adjacent spans, e.g. "[Jan] [Novák]" still covers "Jan Novák").

* Entity recall per identifier type (DIRECT, QUASI, and ALL): an entity's type
  is DIRECT if any of its masked mentions is DIRECT, else QUASI; NO_MASK
  mentions are ignored.  Corpora with entity ids but no identifier types
  (ELITR) get the ALL row only.  Mentions without an entity id are
  entities of their own.
* Token recall/precision: tokens of psan's regex tokenizer
  (:func:`psan.tool.text.tokens.tokenize`); a token is sensitive if it overlaps a
  gold span, masked if it overlaps a system span.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ner_eval.corpus import CorpusDoc, GoldSpan, gold_spans
from ner_eval.metrics import SpanIndex
from psan.tool.text.tokens import tokenize

Span = tuple[int, int]


def covered_chars(text: str, system: Iterable[Span]) -> bytearray:
    """A 0/1 mask of the characters inside any system span."""
    mask = bytearray(len(text))
    for s, e in system:
        mask[max(s, 0):max(e, 0)] = b"\x01" * (max(e, 0) - max(s, 0))
    return mask


def is_covered(text: str, mask: bytearray, start: int, end: int) -> bool:
    """Is every non-whitespace character of ``text[start:end]`` inside a system span?"""
    return all(mask[i] or text[i].isspace() for i in range(start, end))


@dataclass(slots=True)
class Ratio:
    """A hit / total pair that adds up over documents."""

    hit: int = 0
    total: int = 0

    def add(self, hit: bool) -> None:
        self.total += 1
        self.hit += int(hit)

    @property
    def value(self) -> float | None:
        return self.hit / self.total if self.total else None

    def to_dict(self) -> dict[str, float | int | None]:
        return {"hit": self.hit, "total": self.total, "value": self.value}


@dataclass(slots=True)
class TabScores:
    """Entity recall per identifier type plus token recall and precision."""

    entity: dict[str, Ratio] = field(default_factory=lambda: defaultdict(Ratio))
    token_recall: Ratio = field(default_factory=Ratio)
    token_precision: Ratio = field(default_factory=Ratio)
    mention_recall: Ratio = field(default_factory=Ratio)

    def merge(self, other: TabScores) -> None:
        for k, r in other.entity.items():
            mine = self.entity[k]
            mine.hit += r.hit
            mine.total += r.total
        for name in ("token_recall", "token_precision", "mention_recall"):
            a, b = getattr(self, name), getattr(other, name)
            a.hit += b.hit
            a.total += b.total

    def to_dict(self) -> dict[str, object]:
        return {"entity_recall": {k: v.to_dict() for k, v in sorted(self.entity.items())},
                "mention_recall": self.mention_recall.to_dict(),
                "token_recall": self.token_recall.to_dict(), "token_precision": self.token_precision.to_dict()}


def entity_groups(doc: CorpusDoc) -> dict[str, list[GoldSpan]]:
    """Masked mentions grouped by entity id (mentions without an id are entities of their own)."""
    groups: dict[str, list[GoldSpan]] = defaultdict(list)
    for i, s in enumerate(gold_spans(doc)):
        groups[s.entity if s.entity else f"#{i}"].append(s)
    return groups


def tab_scores(doc: CorpusDoc, system: Sequence[Span], tokens: Sequence[Span] | None = None) -> TabScores:
    """TAB metrics of one document; ``tokens`` defaults to the regex tokenizer's tokens."""
    out = TabScores()
    mask = covered_chars(doc.text, system)
    for mentions in entity_groups(doc).values():
        covered = [is_covered(doc.text, mask, m.start, m.end) for m in mentions]
        for c in covered:
            out.mention_recall.add(c)
        ok = all(covered)
        out.entity["ALL"].add(ok)
        idents = {m.identifier for m in mentions if m.identifier}
        if idents:
            out.entity["DIRECT" if "DIRECT" in idents else "QUASI"].add(ok)
    if tokens is None:
        tokens = [(t.start, t.end) for t in tokenize(doc.text, doc.lang)[0]]
    gold_index = SpanIndex((g.start, g.end) for g in gold_spans(doc))
    sys_index = SpanIndex(system)
    for start, end in tokens:
        sensitive = bool(gold_index.overlapping(start, end))
        masked = bool(sys_index.overlapping(start, end))
        if sensitive:
            out.token_recall.add(masked)
        if masked:
            out.token_precision.add(sensitive)
    return out
