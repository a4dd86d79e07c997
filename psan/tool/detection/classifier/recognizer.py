"""The classifier as a pipeline :class:`~psan.tool.text.document.Recognizer` (kind ``"classifier"``).

Config entries: ``{"kind": "classifier", "model_path": "model.bin"}`` (CLI) or, from the app which keeps
the model per project in PostgreSQL, ``{"kind": "classifier", "model_bytes": b"..."}`` or an already
loaded ``{"kind": "classifier", "classifier": TokenClassifier}``; optional ``threshold``, ``priority`` and
``hmac_key`` (bytes) to require an HMAC-signed model.  In every pipeline entry ``model`` names a model
file or package (NameTag ``.ner``, spaCy); the loaded object therefore has its own key ``classifier``
(the older ``model`` is still read when it holds a :class:`TokenClassifier`).

Priority −5: between NER (0) and the gazetteers (−10).  Why: the classifier exists to flag what NER and
the patterns miss; where they found the same text their typed span should win the merge, while a
model suggestion is a stronger hint than a bare list lookup.
"""
from __future__ import annotations

from typing import Any

from psan.tool.detection.classifier.model import PRETRAINED_SOURCE, TokenClassifier
from psan.tool.detection.classifier.span_types import typed_spans
from psan.tool.detection.registry import ComponentError
from psan.tool.text.document import CharSpan, Document, Recognizer

PRIORITY_MODEL = -5


class ClassifierRecognizer(Recognizer):
    """Suggestions of a trained :class:`TokenClassifier`: source ``classifier``, score = p, and a type a project can
    learn, ``CLS_<CATEGORY>_<SHAPE>`` (:mod:`.span_types`; the project model's own proposals stay ``MODEL``).

    Why a source of its own (not the project model's ``model``): the app replaces a project's ``model`` spans
    whenever its own model is retrained or switched off; a pre-trained classifier's spans are detections found at
    pre-processing, and replacing them would unmask what only it found in text nobody has read yet.
    """

    name = "model"
    priority = PRIORITY_MODEL

    def __init__(self, model: TokenClassifier, threshold: float | None = None, priority: int = PRIORITY_MODEL) -> None:
        self.model = model
        self.threshold = threshold
        self.priority = priority

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        spans = self.model.predict_spans(text, doc, self.threshold)
        return typed_spans(text, doc, spans, source=PRETRAINED_SOURCE, priority=self.priority)


def classifier_factory(entry: dict[str, Any], language: str) -> Recognizer:
    """Build a :class:`ClassifierRecognizer` from a pipeline config entry (see module docstring).

    Registered as kind ``"classifier"`` by :mod:`psan.tool.detection.components` (the one place built-ins register).
    """
    hmac_key = entry.get("hmac_key")
    field = "classifier" if entry.get("classifier") is not None else "model"  # "model": the older name
    model = entry.get(field)
    if model is None:
        if entry.get("model_bytes") is not None:
            model = TokenClassifier.from_bytes(bytes(entry["model_bytes"]), hmac_key)
        elif entry.get("model_path"):
            model = TokenClassifier.load(str(entry["model_path"]), hmac_key)
        else:
            raise ComponentError("recognizer kind 'classifier' needs 'model_path', 'model_bytes' or 'classifier'")
    if not isinstance(model, TokenClassifier):
        raise ComponentError(f"{field!r} of a classifier entry must be a TokenClassifier")
    return ClassifierRecognizer(model, entry.get("threshold"), int(entry.get("priority", PRIORITY_MODEL)))
