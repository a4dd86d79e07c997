"""Training examples: documents with private spans, from gold corpora or from annotators' decisions.

A :class:`TrainingDoc` is a text, its private spans (with a label or category) and optionally the
character ranges whose tokens are training rows.  Every token of the text still provides context
features; ``include`` only chooses which tokens are *examples*.  Why: annotators' decisions cover
part of a document, and a logistic regression (unlike a CRF) can be trained on a subset of the
tokens of a sequence.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from psan.tool.text.categories import category_of
from psan.tool.text.document import Category, CharSpan

#: CNEC annotation markers – not entity classes (abbreviation, foreign word, unsure, segmentation, case marks)
CNEC_MARKERS = frozenset({"s", "f", "?", "segm", "cap", "lower", "upper"})
#: TAB identifier types that must be masked
TAB_MASKED = frozenset({"DIRECT", "QUASI"})

#: a span given as (start, end) or (start, end, label-or-category), or a CharSpan
SpanLike = tuple[int, int] | tuple[int, int, str] | CharSpan


@dataclass(slots=True)
class TrainingDoc:
    """One training document.

    ``spans``: private spans as ``(start, end, label)``; the label is a coarse :class:`Category` name or
    a native code (CNEC ``pf``, TAB ``PERSON``) mapped with :func:`category_of`.  ``include``: character
    ranges whose tokens are training rows (``None`` = every token).  ``weight``: sample weight of its rows.
    """

    text: str
    spans: list[tuple[int, int, str]] = field(default_factory=list)
    include: list[tuple[int, int]] | None = None
    weight: float = 1.0


def _triple(span: SpanLike, default: str) -> tuple[int, int, str]:
    if isinstance(span, CharSpan):
        return span.start, span.end, str(span.category)
    if len(span) >= 3:
        return int(span[0]), int(span[1]), str(span[2])  # type: ignore[misc]
    return int(span[0]), int(span[1]), default


def as_training_doc(item: TrainingDoc | tuple[str, Sequence[SpanLike]]) -> TrainingDoc:
    """Accept ``TrainingDoc`` or the short ``(text, spans)`` form (every token is an example)."""
    if isinstance(item, TrainingDoc):
        return item
    text, spans = item
    return TrainingDoc(text, [_triple(s, Category.OTHER.value) for s in spans])


def category_label(label: str) -> str:
    """Coarse category name used as the classifier's class for a native label."""
    return category_of(label).value


def examples_from_decisions(text: str, private_spans: Iterable[SpanLike], public_spans: Iterable[SpanLike] = (),
                            *, undecided: Literal["negative", "exclude"] = "negative",
                            weight: float = 1.0) -> TrainingDoc:
    """Turn one document's decided spans into a training document.

    Tokens in decided-private spans are positives (with the span's category, ``OTHER`` when none is
    given); tokens in decided-public spans are negatives.  Tokens no decision covers are, by default,
    **negatives** (``undecided="negative"``).  Why: the app trains on documents whose review is done –
    a word the annotator read and did not mark is public, exactly how Tacita treated every word left
    readable in a published judgment; without such negatives the model only ever sees capitalised
    NER false positives as "public" and flags ordinary words.  For a document still under review pass
    ``undecided="exclude"``: then only decided tokens are examples (all tokens still give context).
    A token both in a private and a public span counts as private (the safer side).
    """
    private = [_triple(s, Category.OTHER.value) for s in private_spans]
    include: list[tuple[int, int]] | None = None
    if undecided == "exclude":
        public = [_triple(s, "") for s in public_spans]
        include = [(s, e) for s, e, _ in private] + [(s, e) for s, e, _ in public]
    elif undecided != "negative":
        raise ValueError(f"undecided must be 'negative' or 'exclude', not {undecided!r}")
    return TrainingDoc(text, private, include, weight)


# ---------------------------------------------------------------- gold corpora (shared JSONL format)


def read_jsonl(path: str | Path, limit: int | None = None) -> Iterator[dict[str, Any]]:
    """Documents of a corpus file in the shared JSONL format (see the data README)."""
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                return
            if line.strip():
                yield json.loads(line)


def gold_private_spans(doc: dict[str, Any]) -> list[tuple[int, int, str]]:
    """The spans a pseudonymizer must find: TAB DIRECT+QUASI; CNEC without markers; all spans elsewhere."""
    out = []
    for s in doc.get("spans", []):
        if s["label"] in CNEC_MARKERS and str(doc.get("source", "")).startswith("cnec"):
            continue
        if s.get("identifier") is not None and s["identifier"] not in TAB_MASKED:
            continue
        out.append((s["start"], s["end"], s["label"]))
    return out


def gold_public_spans(doc: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Spans the source explicitly says need no masking (TAB NO_MASK)."""
    return [(s["start"], s["end"], s["label"]) for s in doc.get("spans", [])
            if s.get("identifier") is not None and s["identifier"] not in TAB_MASKED]


def training_doc_from_gold(doc: dict[str, Any]) -> TrainingDoc:
    """Gold corpora are exhaustively annotated: every token is an example, unannotated ones negative."""
    return TrainingDoc(doc["text"], gold_private_spans(doc))
