"""Reproducible evaluation of psan's detection on real corpora (issue 6).

Why a separate package: the thesis chose its recognizer by measuring how many
sensitive spans each NER finds (exact / inside / partial matches) and showed
that searching found strings elsewhere in the document ("plus") lifts recall.
This package repeats those measurements for psan.tool's pipelines on the
shared JSONL corpora, adds TAB's entity- and token-level metrics, and
simulates an annotation session with psan's real rules engine.

Modules: :mod:`.corpus` (reading, gold selection), :mod:`.metrics` (thesis
metrics), :mod:`.plus` (the plus algorithm), :mod:`.tab` (TAB metrics),
:mod:`.pipelines` (named pipeline configs), :mod:`.simulate` (oracle
annotator), :mod:`.report` (Markdown, PNG, JSON), :mod:`.cli`.
"""
from __future__ import annotations

__all__ = ["corpus", "metrics", "plus", "tab", "pipelines", "simulate", "report", "cli"]
