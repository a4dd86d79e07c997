"""The thesis' "plus" algorithm (section 2.6): search every found string again in its document.

Why: a NER that recognizes "Novák" in one sentence often misses it in
another; in psan the same happens through lookup rules once an annotator
marks a span private.  The standalone variant here adds, for every distinct
string the system found in a document, all its other occurrences in that
document.  Occurrences must respect word boundaries: "Jan" found does not add
the "Jan" inside "Jana" (as psan's WORD_TYPE rules match whole tokens only).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

Span = tuple[int, int]

_WORD = re.compile(r"\w")


def _pattern(needle: str) -> re.Pattern[str]:
    """The needle literally, with a word boundary at each end that is a word character."""
    left = r"(?<!\w)" if _WORD.match(needle[0]) else ""
    right = r"(?!\w)" if _WORD.match(needle[-1]) else ""
    return re.compile(left + re.escape(needle) + right)


def occurrences(text: str, needle: str) -> list[Span]:
    """All whole-word occurrences of ``needle`` in ``text`` (overlapping ones too)."""
    if not needle or needle.isspace():
        return []
    pat = _pattern(needle)
    out: list[Span] = []
    pos = 0
    while True:
        m = pat.search(text, pos)
        if m is None:
            return out
        out.append((m.start(), m.end()))
        pos = m.start() + 1


def plus_spans(text: str, spans: Iterable[Span]) -> list[Span]:
    """The system spans plus every other occurrence of their strings, sorted and distinct."""
    found = {(s, e) for s, e in spans if e > s}
    out = set(found)
    for needle in {text[s:e] for s, e in found}:
        out.update(occurrences(text, needle.strip()) if needle.strip() else ())
    return sorted(out)
