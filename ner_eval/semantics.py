"""A corpus' own annotation semantics: which unmatched system spans its gold does not count as false alarms.

Why per source: most corpora annotate every mention (UNER, CNEC, TAB, ELITR), so a system span that overlaps
no gold span is a false alarm.  The BSNLP 2017 shared task did not: it asked for the *set* of names of a
document (each distinct form once), and the CoNLL version in Babelscape/wikineural tags one occurrence of each
form per article.  Checked on pl-dev (the evidence is in ``results/pl-dev/false_spans.md``): of the 113 forms
that occur more than once in an article, 108 are tagged exactly once (98 of them at the first occurrence),
one at every occurrence; in UNER's sk-dev, built by the same conversion, all 63 such forms are tagged at
every occurrence.  A later mention of a tagged form is the same name, untagged only by the scheme.

So for a document-level source a system span that overlaps no gold span, but whose exact text is a form the
gold tags in the same article, is a *repeat*: not a false alarm under the corpus' semantics.  It is counted
twice: with a compatible label (psan's category maps to the gold label; the gold's MISC accepts OTHER and
DEMOGRAPHIC) and label-blind (as every other metric here, which scores *where* names are, not their type).
The strict precision stays the headline of the generic tables; this is reported beside it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ner_eval.corpus import CorpusDoc, gold_spans
from ner_eval.metrics import SpanIndex

#: sources (the part of ``source`` before ":") whose gold tags each distinct form once per article
DOCUMENT_LEVEL_SOURCES = frozenset({"bsnlp-pl"})
#: ``bsnlp-pl-val-07-02`` → article ``bsnlp-pl-val-07`` (chunks of at most 20 sentences, shared/data/README.md)
_CHUNK = re.compile(r"^(?P<article>.+-\d+)-\d+$")
#: psan category → the label a document-level gold would give it
_GOLD_LABEL = {"PERSON": "PER", "LOCATION": "LOC", "ORGANIZATION": "ORG"}
_MISC_CATEGORIES = frozenset({"OTHER", "DEMOGRAPHIC"})

LabelledSpan = tuple[int, int, str | None]


def document_level(docs: Sequence[CorpusDoc]) -> bool:
    """Does every document come from a source whose gold tags each form once per article?"""
    return bool(docs) and all(d.source.split(":", 1)[0] in DOCUMENT_LEVEL_SOURCES for d in docs)


def article_of(doc_id: str) -> str:
    """The article a chunk belongs to (its id without the chunk number)."""
    m = _CHUNK.match(doc_id)
    return m.group("article") if m else doc_id


def compatible(category: str | None, gold_label: str) -> bool:
    """Would the gold give a span of this psan category this label?  Unknown categories are not compatible."""
    if category is None:
        return False
    if gold_label == "MISC":
        return category in _MISC_CATEGORIES
    return _GOLD_LABEL.get(category) == gold_label


@dataclass(slots=True)
class RepeatCounts:
    """System spans, those overlapping gold, and the unmatched ones that repeat a gold form of their article."""

    system: int = 0
    hit: int = 0
    repeats: int = 0
    repeats_any_label: int = 0

    @property
    def precision(self) -> float | None:
        """(hit + repeats with a compatible label) / system spans."""
        return (self.hit + self.repeats) / self.system if self.system else None

    @property
    def precision_any_label(self) -> float | None:
        """(hit + repeats of any label) / system spans."""
        return (self.hit + self.repeats_any_label) / self.system if self.system else None

    def to_dict(self) -> dict[str, float | int | None]:
        return {"system": self.system, "hit": self.hit, "repeats": self.repeats,
                "repeats_any_label": self.repeats_any_label, "precision": self.precision,
                "precision_any_label": self.precision_any_label}


def repeat_counts(docs: Sequence[CorpusDoc], system: Sequence[Sequence[LabelledSpan]]) -> RepeatCounts:
    """Counts over a corpus (``system``: per document, (start, end, psan category or None) spans).

    Duplicate ranges count once, as in :func:`ner_eval.metrics.score`; of two labels on one range the
    compatible one wins.
    """
    forms: dict[str, dict[str, set[str]]] = {}
    for d in docs:
        article = forms.setdefault(article_of(d.id), {})
        for g in gold_spans(d):
            article.setdefault(d.text[g.start:g.end], set()).update(
                s.label for s in d.spans if (s.start, s.end) == (g.start, g.end))
    out = RepeatCounts()
    for d, spans in zip(docs, system, strict=True):
        categories: dict[tuple[int, int], set[str | None]] = {}
        for s, e, cat in spans:
            if e > s:
                categories.setdefault((s, e), set()).add(cat)
        index = SpanIndex((g.start, g.end) for g in gold_spans(d))
        article = forms.get(article_of(d.id), {})
        for (s, e), cats in categories.items():
            out.system += 1
            if index.overlapping(s, e):
                out.hit += 1
                continue
            labels = article.get(d.text[s:e])
            if not labels:
                continue
            out.repeats_any_label += 1
            if any(compatible(c, lab) for c in cats for lab in labels):
                out.repeats += 1
    return out


__all__ = ["DOCUMENT_LEVEL_SOURCES", "RepeatCounts", "article_of", "compatible", "document_level",
           "repeat_counts"]
