"""Label Studio JSON: a list of tasks, each ``{"data": {"text": …}, "annotations": [{"result": [...]}],
"predictions": [{"result": [...]}]}``, as Label Studio imports and exports them for a ``<Labels>`` on a ``<Text>``.

A result item is ``{"id", "from_name": "label", "to_name": "text", "type": "labels", "value": {"start",
"end", "text", "labels": [...]}}``; ``from_name``/``to_name`` are the names of the labeling config's
``<Labels>`` and ``<Text>`` tags (psan writes ``label`` and ``text``, the names of Label Studio's NER template).
Reading takes the task's first annotation that was not cancelled, else its first prediction; items of other
types (choices, relations …) are ignored.  Decided spans are written as an annotation, a machine's as a
prediction with its score.  The document's name travels in ``data.name``.  Offsets count characters as
Python does; ``value.text`` is compared with the text at the offsets ignoring runs of blanks (Label Studio
collapses them in ``value.text``, its offsets stay right).
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError, decode, make_span

FROM_NAME = "label"
TO_NAME = "text"


def _text_of(data: Any, where: str) -> str:
    if not isinstance(data, dict):
        raise AnnotationFormatError(f"{where}'data' must be an object with the task's text")
    text = data.get("text")
    if isinstance(text, str):
        return text
    strings = [v for v in data.values() if isinstance(v, str)]
    if len(strings) == 1:
        return strings[0]
    raise AnnotationFormatError(f"{where}'data' has no 'text'")


def _spans(results: Any, doc: AnnotatedText, where: str) -> None:
    if not isinstance(results, list):
        raise AnnotationFormatError(f"{where}'result' must be a list")
    for j, item in enumerate(results):
        if not isinstance(item, dict) or item.get("type") != "labels":
            continue
        value = item.get("value")
        if not isinstance(value, dict):
            raise AnnotationFormatError(f"{where}result {j}: 'value' must be an object")
        start, end, labels = value.get("start"), value.get("end"), value.get("labels")
        if type(start) is not int or type(end) is not int or not 0 <= start < end:
            raise AnnotationFormatError(f"{where}result {j}: 'start' and 'end' must be whole numbers, start < end")
        if not isinstance(labels, list) or not labels or not all(isinstance(x, str) for x in labels):
            raise AnnotationFormatError(f"{where}result {j}: 'labels' must be a non-empty list of strings")
        score = item.get("score")
        score = float(score) if isinstance(score, (int, float)) and math.isfinite(score) else None
        doc.spans.append(make_span(start, end, labels[0], score))
        claimed = value.get("text")
        doc.claimed.append(claimed if isinstance(claimed, str) else None)  # type: ignore[union-attr]


class LabelStudio:
    name = "labelstudio"
    title = "Label Studio JSON"
    suffix = ".json"
    multi_document = True
    nests = True

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:
        try:
            tasks = json.loads(decode(data, "Label Studio JSON"))
        except ValueError as err:
            raise AnnotationFormatError(f"not JSON ({err})") from None
        if isinstance(tasks, dict):
            tasks = [tasks]
        if not isinstance(tasks, list):
            raise AnnotationFormatError("expected a list of tasks")
        docs = []
        for i, task in enumerate(tasks):
            where = f"task {task.get('id', i) if isinstance(task, dict) else i}: "
            if not isinstance(task, dict):
                raise AnnotationFormatError(f"{where}expected an object")
            data_ = task.get("data")
            text = _text_of(data_, where)
            doc_name = data_.get("name") if isinstance(data_.get("name"), str) else None
            doc = AnnotatedText(name=doc_name, text=text, claimed=[])
            annotations = [a for a in task.get("annotations") or [] if isinstance(a, dict)
                           and not a.get("was_cancelled")]
            predictions = [p for p in task.get("predictions") or [] if isinstance(p, dict)]
            chosen = annotations[0] if annotations else predictions[0] if predictions else None
            doc.decided = bool(annotations)
            if chosen is not None:
                _spans(chosen.get("result", []), doc, where)
            docs.append(doc)
        return docs

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        tasks = []
        for i, doc in enumerate(docs, start=1):
            text = doc.text or ""
            results = []
            for n, sp in enumerate(sorted(doc.spans, key=lambda s: (s.start, -s.end, s.label)), start=1):
                item: dict[str, Any] = {"id": f"psan-{i}-{n}", "from_name": FROM_NAME, "to_name": TO_NAME,
                                        "type": "labels", "origin": "manual" if doc.decided else "prediction",
                                        "value": {"start": sp.start, "end": sp.end, "text": text[sp.start:sp.end],
                                                  "labels": [sp.label]}}
                if not doc.decided:
                    item["score"] = sp.score if sp.score is not None else 1.0
                results.append(item)
            data: dict[str, Any] = {"text": text}
            if doc.name:
                data["name"] = doc.name
            task: dict[str, Any] = {"id": i, "data": data}
            if doc.decided:
                task["annotations"] = [{"result": results, "was_cancelled": False, "ground_truth": False}]
                task["predictions"] = []
            else:
                task["annotations"] = []
                task["predictions"] = [{"model_version": "psan", "result": results}]
            tasks.append(task)
        return (json.dumps(tasks, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), 0


register(LabelStudio())
