"""What every annotation format reads and writes: documents (name, text, spans) with character offsets.

Why one small model: eight formats speak of spans in eight ways (standoff offsets, token tags, XMI
annotations, JSON results); each module translates between its own way and :class:`AnnotatedText`, and
the CLI, the store and the tests only ever see that.  Offsets are Python string indices (Unicode code
points), end exclusive; formats that count otherwise (UTF-16 in WebAnno TSV and XMI) convert in their module.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from psan.tool.formats.annotations.labels import category_for
from psan.tool.text.document import Category

#: what a reader accepts at most (bytes of one file; a ZIP's members together): far above a real annotation file
MAX_INPUT_BYTES = 64 * 1024 * 1024
#: spans of one file at most (one per 3 characters of a 1-million character document is already absurd)
MAX_SPANS = 1_000_000


class AnnotationFormatError(ValueError):
    """A file that cannot be read as the format says (malformed, offsets outside the text, text mismatch)."""


@dataclass(frozen=True, slots=True)
class Span:
    """One annotated stretch: offsets into the text, the file's own label and the psan category it maps to."""

    start: int
    end: int
    label: str
    category: Category
    score: float | None = None

    @property
    def key(self) -> tuple[int, int, str]:
        """What a round trip keeps: where and which category (labels are renamed, scores may be dropped)."""
        return self.start, self.end, str(self.category)


def make_span(start: int, end: int, label: str, score: float | None = None,
              category: Category | None = None) -> Span:
    """A span whose category comes from the label through the table (:mod:`.labels`) unless given."""
    return Span(start, end, label, category if category is not None else category_for(label), score)


@dataclass(slots=True)
class AnnotatedText:
    """One document of a file: its name (if the format names documents), text (if it carries it) and spans.

    ``tokens`` / ``sentences`` (character ranges) are the writer's hint for token-based formats (CoNLL,
    WebAnno TSV, XMI): psan's own tokenization when known, else a simple one is made
    (:func:`psan.tool.formats.annotations.segment.segment`).
    """

    name: str | None
    text: str | None
    spans: list[Span] = field(default_factory=list)
    tokens: list[tuple[int, int]] | None = None
    sentences: list[tuple[int, int]] | None = None
    #: the text each span says it covers (BRAT's third column, JSONL's ``text``): checked against the document
    claimed: list[str | None] | None = None
    #: the text was rebuilt from the file's tokens (CoNLL): on a known text, the tokens are aligned again
    token_based: bool = False
    #: the spans are decisions (a gold standard, psan's decided spans), not a machine's suggestions: Label
    #: Studio writes them as ``annotations`` (else ``predictions``)
    decided: bool = True


def check_spans(doc: AnnotatedText, where: str = "") -> None:
    """Offsets inside the text, start before end: AnnotationFormatError naming the first bad span."""
    if len(doc.spans) > MAX_SPANS:
        raise AnnotationFormatError(f"{where}more than {MAX_SPANS} spans")
    if doc.text is None:
        return
    n = len(doc.text)
    for span in doc.spans:
        if not (0 <= span.start < span.end <= n):
            raise AnnotationFormatError(f"{where}span {span.start}-{span.end} ({span.label}) is outside the text "
                                        f"of {n} characters")


def check_text(doc: AnnotatedText, start: int, end: int, claimed: str, where: str) -> None:
    """A span's text as the file gives it must be the text at its offsets (else the offsets are wrong)."""
    if doc.text is None:
        return
    if not (0 <= start < end <= len(doc.text)):
        raise AnnotationFormatError(f"{where}offsets {start}-{end} are outside the text of {len(doc.text)} characters")
    actual = doc.text[start:end]
    if actual != claimed and " ".join(actual.split()) != " ".join(claimed.split()):
        raise AnnotationFormatError(f"{where}the file says {claimed[:40]!r} at {start}-{end}, the text has "
                                    f"{actual[:40]!r} there: the offsets do not fit this text")


def outermost(spans: list[Span]) -> tuple[list[Span], int]:
    """Spans that do not overlap, longest first, for formats of one tag per token (BIO); and how many were left out."""
    kept: list[Span] = []
    taken: list[tuple[int, int]] = []
    for span in sorted(spans, key=lambda s: (-(s.end - s.start), s.start, s.label)):
        if any(span.start < e and s < span.end for s, e in taken):
            continue
        kept.append(span)
        taken.append((span.start, span.end))
    kept.sort(key=lambda s: (s.start, s.end))
    return kept, len(spans) - len(kept)


def utf16_offsets(text: str) -> list[int]:
    """UTF-16 code unit offset of every code point index (and of the end): Java tools count in UTF-16."""
    out = [0] * (len(text) + 1)
    pos = 0
    for i, ch in enumerate(text):
        out[i] = pos
        pos += 2 if ord(ch) > 0xFFFF else 1
    out[len(text)] = pos
    return out


def decode(data: bytes, what: str) -> str:
    """A file's bytes as UTF-8 text (a BOM is dropped); AnnotationFormatError for binary or other encodings."""
    if len(data) > MAX_INPUT_BYTES:
        raise AnnotationFormatError(f"the {what} file is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB")
    if b"\x00" in data:
        raise AnnotationFormatError(f"the {what} file is binary (contains NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise AnnotationFormatError(f"the {what} file is not valid UTF-8 (byte {err.start})") from None
    return text[1:] if text.startswith("\ufeff") else text
