"""Is a position at the start of a sentence?  Capitals prove nothing after a sentence end.

Why a module of its own: the gazetteer and the titled/feminine name recognizers
(:mod:`psan.tool.detection.recognizers.names`) both ask; the gazetteer's family factory imports the name
recognizers, so the question could not stay in the gazetteer without an import cycle.
"""
from __future__ import annotations

SENTENCE_END = frozenset(".!?…\n")
SKIP_BACK = frozenset(" \t\r\"'„“”‚‘’«»()[]-–—•*")


def at_sentence_start(text: str, pos: int) -> bool:
    """Only spaces, quotes or brackets between ``pos`` and a sentence end or the text start (capitals prove nothing)."""
    i = pos - 1
    while i >= 0 and text[i] in SKIP_BACK:
        i -= 1
    return i < 0 or text[i] in SENTENCE_END or (text[i].isdigit() and i + 1 < pos and text[i + 1] == ".")
