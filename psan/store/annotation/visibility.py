"""What of a window an annotator may be shown: the one rule every page and API that shows document text uses.

Why one function: the annotate page, its JSON API and the second-annotation page each showed text
of a window, and each decided by itself how much; the second-annotation page forgot the
annotator's window size.  A window never shows more than ``size + WINDOW_TOLERANCE`` tokens to an
annotator of window size ``size``.  A window is only wider than that when one span (a long URL, a
table row without breaks) is longer; that span is decided from its beginning and end (``size // 2``
tokens each) and its middle never leaves the server.  ``size=None`` means no cap (administrators
see what they open).
"""
from __future__ import annotations

#: whole sentences may make a window this many tokens longer than its size; longer ones are cut
WINDOW_TOLERANCE = 50


def max_tokens(size: int) -> int:
    """The most tokens of one window an annotator of window size ``size`` may be shown."""
    return size + WINDOW_TOLERANCE


def elided_range(first: int, end: int, size: int | None) -> tuple[int, int] | None:
    """The middle of the window ``[first, end)`` an annotator of ``size`` is not shown, or ``None``."""
    if size is None or end - first <= max_tokens(size):
        return None
    half = max(1, size // 2)
    return first + half, end - half


def shown_parts(first: int, end: int, elided: tuple[int, int] | None) -> list[tuple[int, int]]:
    """The token ranges of ``[first, end)`` left once the elided middle is taken out."""
    if elided is None:
        return [(first, end)] if first < end else []
    return [(a, b) for a, b in ((first, min(end, elided[0])), (max(first, elided[1]), end)) if a < b]


def crosses_middle(first: int, end: int, elided: tuple[int, int] | None) -> bool:
    """A span that reaches into the elided middle: shown by its ends, but no text of it may go out whole."""
    return elided is not None and first < elided[1] and end > elided[0]


#: what a rule's condition reads when it is the text of a span crossing the elided middle
ELIDED_CONDITION = "…"


def shown_rules(rules: list[dict], first: int, end: int, elided: tuple[int, int] | None) -> list[dict]:
    """The rules of the span ``[first, end)`` as an annotator may see them.

    A text rule's condition (a word type, a lookup) is the span's whole text; on a span crossing the elided
    middle it would carry that middle, so it reads :data:`ELIDED_CONDITION`.  Entity-type conditions
    ("P", "MODEL") are no document text and stay.
    """
    if not crosses_middle(first, end, elided):
        return rules
    return [r if r.get("type") == "NE_TYPE" else {**r, "condition": ELIDED_CONDITION} for r in rules]


def sql_middle(elided: tuple[int, int] | None, first: int, end: int) -> tuple[int, int]:
    """The bounds ``(lo, hi)`` of a SQL test ``NOT (first_token >= lo AND end_token <= hi)`` that leaves out the spans
    :func:`hidden_span` hides in the window ``[first, end)``: the elided middle, or without one a range no span of the
    window lies in (``(end, first)``)."""
    return elided if elided is not None else (end, first)


def hidden_span(first: int, end: int, elided: tuple[int, int] | None) -> bool:
    """A span lying wholly in the elided middle: never shown, never decided alone by this annotator."""
    return elided is not None and elided[0] <= first and end <= elided[1]
