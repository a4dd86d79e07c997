"""BRAT standoff: ``T1<TAB>PER 0 3<TAB>Jan`` lines in an ``.ann`` file beside the document's ``.txt``.

Offsets are characters (BRAT is Python).  A discontinuous entity (``0 3;4 9``) is one span from its first
piece to its last: BRAT writes an entity across a line break that way (and so does this writer), and for
pieces with words between them masking those words too is the safe side.  Relations, events, attributes,
notes and comments are ignored: psan has only spans.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError, decode, make_span

#: what ends a line for a reader of the .ann (a span's text in the third column must not hold one)
_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
_OFFSETS = re.compile(r"^\d+ \d+(?:;\d+ \d+)*$")


def _label(label: str) -> str:
    """A BRAT type may hold no blanks (they separate type and offsets)."""
    return "_".join(label.split()) or "ENTITY"


class Brat:
    name = "brat"
    title = "BRAT standoff (.ann)"
    suffix = ".ann"
    multi_document = False
    nests = True

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:
        text = decode(data, "BRAT .ann")
        doc = AnnotatedText(name=None, text=None, claimed=[])
        for lineno, line in enumerate(text.split("\n"), start=1):
            line = line.rstrip("\r")
            if not line.startswith("T"):
                continue  # relations, events, attributes, notes, comments, blank lines
            parts = line.split("\t")
            if len(parts) < 2:
                raise AnnotationFormatError(f"line {lineno}: a text-bound annotation needs 'T<n><TAB>TYPE START END'")
            head = parts[1].split(" ", 1)
            if len(head) != 2 or not _OFFSETS.match(head[1]):
                raise AnnotationFormatError(f"line {lineno}: expected 'TYPE START END[;START END]', got {parts[1]!r}")
            label = head[0]
            pieces = [tuple(map(int, p.split(" "))) for p in head[1].split(";")]
            claimed = parts[2] if len(parts) > 2 else None
            for s, e in pieces:
                if s >= e:
                    raise AnnotationFormatError(f"line {lineno}: empty or reversed offsets {s} {e}")
            # several pieces: one span from the first to the last (the words between are masked too: the safe side)
            doc.spans.append(make_span(min(p[0] for p in pieces), max(p[1] for p in pieces), label))
            doc.claimed.append(claimed if len(pieces) == 1 else None)  # type: ignore[union-attr]
        return [doc]

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        lines = []
        n = 0
        for doc in docs:
            text = doc.text or ""
            for sp in sorted(doc.spans, key=lambda s: (s.start, -s.end, s.label)):
                n += 1
                pieces = []
                pos = sp.start
                for line in _LINE_BREAK.split(text[sp.start:sp.end]):
                    s, e = pos, pos + len(line)
                    pos = e + 1
                    while s < e and text[s].isspace():
                        s += 1
                    while e > s and text[e - 1].isspace():
                        e -= 1
                    if s < e:
                        pieces.append((s, e))
                if not pieces:
                    continue
                offsets = ";".join(f"{s} {e}" for s, e in pieces)
                covered = " ".join(text[s:e] for s, e in pieces)
                lines.append(f"T{n}\t{_label(sp.label)} {offsets}\t{covered}\n")
        return "".join(lines).encode("utf-8"), 0


register(Brat())
