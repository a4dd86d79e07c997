"""Named-entity recognizer adapters (NameTag, spaCy) as :class:`psan.tool.text.document.Recognizer` subclasses.

Adapters output character spans with the model's native type and :func:`category_of` category;
aligning them to the document tokens is the merger's job, so an adapter's own tokenization
may differ from the pipeline's.  Models are loaded once per process (thread-safe caches).
"""
from __future__ import annotations

from psan.tool.detection.ner.base import ModelLoadError, chunks, sanitize
from psan.tool.detection.ner.nametag import NameTagRecognizer
from psan.tool.detection.ner.spacy_ner import SpacyRecognizer

__all__ = ["ModelLoadError", "NameTagRecognizer", "SpacyRecognizer", "chunks", "sanitize"]
