"""Presidio's ``RecognizerResult`` as JSON: ``[{"entity_type": "PERSON", "start": 0, "end": 3, "score": 0.85}]``.

What ``AnalyzerEngine.analyze`` returns, serialized with ``to_dict()`` (extra keys such as
``analysis_explanation`` and ``recognition_metadata`` are ignored).  A list is one document; an object
``{"a.txt": [...], "b.txt": [...]}`` (psan's convention) holds several, named.  Presidio carries no text:
offsets are checked against the document they are imported into.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError, decode, make_span


def _results(items: Any, where: str) -> AnnotatedText:
    if not isinstance(items, list):
        raise AnnotationFormatError(f"{where}expected a list of RecognizerResult objects")
    doc = AnnotatedText(name=None, text=None)
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise AnnotationFormatError(f"{where}result {i}: expected an object")
        start, end, kind = item.get("start"), item.get("end"), item.get("entity_type")
        if type(start) is not int or type(end) is not int or not 0 <= start < end:
            raise AnnotationFormatError(f"{where}result {i}: 'start' and 'end' must be whole numbers, start < end")
        if not isinstance(kind, str) or not kind:
            raise AnnotationFormatError(f"{where}result {i}: 'entity_type' must be a non-empty string")
        score = item.get("score")
        score = float(score) if isinstance(score, (int, float)) and math.isfinite(score) else None
        doc.spans.append(make_span(start, end, kind, score))
    return doc


class Presidio:
    name = "presidio"
    title = "Presidio RecognizerResult JSON"
    suffix = ".json"
    multi_document = True
    nests = True

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:
        try:
            value = json.loads(decode(data, "Presidio JSON"))
        except ValueError as err:
            raise AnnotationFormatError(f"not JSON ({err})") from None
        if isinstance(value, dict):
            docs = []
            for doc_name, items in value.items():
                doc = _results(items, f"{doc_name}: ")
                doc.name = doc_name
                docs.append(doc)
            return docs
        return [_results(value, "")]

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        def results(doc: AnnotatedText) -> list[dict[str, Any]]:
            return [{"entity_type": sp.label, "start": sp.start, "end": sp.end,
                     "score": sp.score if sp.score is not None else 1.0}
                    for sp in sorted(doc.spans, key=lambda s: (s.start, -s.end, s.label))]
        if len(docs) == 1:
            value: Any = results(docs[0])
        else:
            value = {}
            for i, doc in enumerate(docs, start=1):
                value[doc.name or f"document-{i}"] = results(doc)
        return (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), 0


register(Presidio())
