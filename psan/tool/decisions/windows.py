"""The pure part of choosing an annotation window: which span anchors it and how far it reaches.

Why here and not in :mod:`psan.store.annotation.windows`: the simulated annotator of ``ner_eval`` must hand
out windows exactly as the app does, without a database.  The store keeps its SQL (index range
scans, leases); :func:`first_anchor` is the in-memory twin of its anchor query (same order: first
token ascending, longest first) and :func:`plan_window` is what both call to cut the window.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["first_anchor", "plan_window", "span_context", "span_review_window"]


def first_anchor(suspicious: Iterable[tuple[int, int]],
                 unlabelled_private: Iterable[tuple[int, int]] = ()) -> tuple[int, int] | None:
    """First suspicious span in document order, else the first private span without a label.

    Spans are ``(first_token, end_token)``; order as ``ORDER BY first_token, end_token DESC``.
    """
    for spans in (suspicious, unlabelled_private):
        best = min(spans, key=lambda s: (s[0], -s[1]), default=None)
        if best is not None:
            return best
    return None


def plan_window(sentences: Sequence[tuple[int, int]], anchor: tuple[int, int], size: int,
                bounds: tuple[int, int], centred: bool = True) -> tuple[int, int]:
    """Cut a window of about ``size`` tokens around ``anchor`` to whole sentences.

    The sentences holding the anchor are always shown whole (even a sentence longer than
    ``size``); further sentences are added only if they fit completely into the ``size`` tokens
    centred on the anchor (or starting at it, ``centred=False``) and inside ``bounds`` (the
    document, or the gap between other leases).  Tokens outside every sentence count as their own.
    """
    a_first, a_end = anchor
    lo_bound, hi_bound = bounds
    core_first = next((f for f, e in sentences if f <= a_first < e), a_first)
    core_end = next((e for f, e in sentences if f < a_end <= e), a_end)
    if centred:
        lo = (a_first + a_end) // 2 - size // 2
    else:
        lo = core_first
    lo = max(lo_bound, lo)
    hi = min(hi_bound, lo + size)
    lo = max(lo_bound, min(lo, hi - size))
    inside = [(f, e) for f, e in sentences if f >= lo and e <= hi]
    first = min([core_first] + [f for f, _ in inside])
    end = max([core_end] + [e for _, e in inside])
    return max(first, lo_bound), min(end, hi_bound)


def span_context(span: tuple[int, int], sentence: tuple[int, int], around: int) -> tuple[int, int]:
    """What a span review must show of one span: its sentence, or the ``around`` tokens centred on the span where
    the sentence is longer (a span longer than that is shown alone)."""
    s_first, s_end = sentence
    a_first, a_end = span
    if s_end - s_first <= around:
        return s_first, s_end
    lo = max(s_first, min(a_first, (a_first + a_end) // 2 - around // 2, s_end - around))
    return lo, max(a_end, min(s_end, lo + around))


def span_review_window(sentence: tuple[int, int], waiting: Sequence[tuple[int, int]], size: int,
                       around: int) -> tuple[int, int]:
    """One span review of a sentence: every waiting span of it with its context (:func:`span_context`), once.

    Why one item per sentence: a span review charged per span re-shows the words between neighbouring spans
    (court decisions hold a candidate in nearly every clause: one 20-token window per span read 1.3 times the
    text), and a person decides the spans of one sentence together anyway.  The window reaches from the first
    waiting span's context to the last one's, in document order, while it stays within ``size`` tokens (the
    account's window); the spans left over get an item of their own.  ``waiting[0]`` is the anchor and is
    always shown; spans outside the sentence are ignored.
    """
    s_first, s_end = sentence
    spans = sorted({(a, b) for a, b in waiting[1:] if s_first <= a < b <= s_end and (a, b) != tuple(waiting[0])})
    first, end = span_context(waiting[0], sentence, around)
    for span in spans:
        lo, hi = span_context(span, sentence, around)
        new_first, new_end = min(first, lo), max(end, hi)
        if new_end - new_first > size:
            continue
        first, end = new_first, new_end
    return first, end
