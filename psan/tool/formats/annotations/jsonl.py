"""psan's own span JSONL: one span per line, as ``psan-tool spans`` writes it.

``{"file": "a.txt", "start": 0, "end": 3, "text": "Jan", "type": "PER", "category": "PERSON", "source": …,
"score": 0.9}``: ``file`` names the document (several documents in one file), ``category`` wins over the
label table when it is a psan category, ``text`` is checked against the document.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError, decode, make_span
from psan.tool.text.document import Category


def _int(record: dict, key: str, lineno: int) -> int:
    value = record.get(key)
    if type(value) is not int:
        raise AnnotationFormatError(f"line {lineno}: {key!r} must be a whole number, got {value!r}")
    return value


class Jsonl:
    name = "jsonl"
    title = "psan span JSONL"
    suffix = ".jsonl"
    multi_document = True
    nests = True

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:
        docs: dict[str, AnnotatedText] = {}
        for lineno, line in enumerate(decode(data, "JSONL").split("\n"), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as err:
                raise AnnotationFormatError(f"line {lineno}: not JSON ({err})") from None
            if not isinstance(record, dict):
                raise AnnotationFormatError(f"line {lineno}: expected a JSON object")
            start, end = _int(record, "start", lineno), _int(record, "end", lineno)
            if not 0 <= start < end:
                raise AnnotationFormatError(f"line {lineno}: empty or reversed span {start}-{end}")
            label = record.get("type") or record.get("label") or record.get("category") or ""
            if not isinstance(label, str):
                raise AnnotationFormatError(f"line {lineno}: 'type' must be a string")
            category = None
            if isinstance(record.get("category"), str) and record["category"] in Category.__members__:
                category = Category(record["category"])
            score = record.get("score")
            score = float(score) if isinstance(score, (int, float)) and math.isfinite(score) else None
            file = record.get("file", "")
            if not isinstance(file, str):
                raise AnnotationFormatError(f"line {lineno}: 'file' must be a string")
            doc = docs.setdefault(file, AnnotatedText(name=file or None, text=None, claimed=[]))
            doc.spans.append(make_span(start, end, label, score, category))
            text = record.get("text")
            doc.claimed.append(text if isinstance(text, str) else None)  # type: ignore[union-attr]
        return list(docs.values()) or [AnnotatedText(name=None, text=None)]

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        lines = []
        for doc in docs:
            text = doc.text or ""
            for sp in sorted(doc.spans, key=lambda s: (s.start, -s.end, s.label)):
                lines.append(json.dumps({"file": doc.name or "", "start": sp.start, "end": sp.end,
                                         "text": text[sp.start:sp.end], "type": sp.label,
                                         "category": str(sp.category), "source": "psan",
                                         "score": sp.score if sp.score is not None else 1.0},
                                        ensure_ascii=False) + "\n")
        return "".join(lines).encode("utf-8"), 0


register(Jsonl())
