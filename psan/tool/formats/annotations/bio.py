"""IOB2 tags from spans and spans from IOB tags: what CoNLL-2003 and CoNLL-U share."""
from __future__ import annotations

from collections.abc import Sequence

from psan.tool.formats.annotations.base import (
    AnnotatedText,
    AnnotationFormatError,
    Span,
    make_span,
    outermost,
)
from psan.tool.formats.annotations.segment import segment


def tagged_sentences(doc: AnnotatedText) -> tuple[list[list[tuple[int, int, str]]], int]:
    """Sentences of (start, end, IOB2 tag) tokens for a document's outermost spans; and how many spans were left out."""
    spans, dropped = outermost(list(doc.spans))
    kept = AnnotatedText(doc.name, doc.text, spans, doc.tokens, doc.sentences)
    sentences = segment(kept)
    out = []
    j = 0
    previous: Span | None = None
    for sentence in sentences:
        rows = []
        for s, e in sentence:
            while j < len(spans) and spans[j].end <= s:
                j += 1
            sp = spans[j] if j < len(spans) and spans[j].start < e else None  # kept spans do not overlap
            if sp is None:
                rows.append((s, e, "O"))
            else:
                rows.append((s, e, ("I-" if sp is previous else "B-") + _tag(sp.label)))
            previous = sp
        out.append(rows)
    return out, dropped


def _tag(label: str) -> str:
    """A label usable as a tag: no blanks (they separate columns)."""
    return "_".join(label.split()) or "ENTITY"


def spans_from_tags(tokens: Sequence[tuple[int, int]], tags: Sequence[str], where: str) -> list[Span]:
    """Spans of IOB1/IOB2/BIOES tags over tokens (character ranges): ``B-``/``S-`` always start an entity,
    ``I-``/``E-`` continue one of the same type or start one (IOB1), ``O`` ends it."""
    spans: list[Span] = []
    start = end = -1
    label = ""

    def close() -> None:
        if label:
            spans.append(make_span(start, end, label))

    for (s, e), tag in zip(tokens, tags, strict=True):
        tag = tag.strip()
        if tag in ("O", "_", ""):
            close()
            label = ""
            continue
        if len(tag) < 3 or tag[1] != "-" or tag[0].upper() not in "BIESLU":
            raise AnnotationFormatError(f"{where}: {tag!r} is not an IOB tag (O, B-X, I-X)")
        prefix, kind = tag[0].upper(), tag[2:]
        if prefix in "BSU" or kind != label:
            close()
            start, label = s, kind
        end = e
        if prefix in "SELU":
            close()
            label = ""
    close()
    return spans
