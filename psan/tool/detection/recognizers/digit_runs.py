"""Where shapes that start with digits can hold in a short text, from the text's runs of digits.

Why: a short text (under the pre-scan's threshold) was scanned whole by each regex that starts with ``\\d`` (dates,
card and social security numbers, file numbers, streets), and the engine tests ``\\d`` at every character by a
function call: a few milliseconds per regex over the corpora's short texts, for a handful of matches.  When a shape's
first characters are ``\\d`` and the character before it must not be one of a class that holds every digit, the shape
can hold only where a run of digits starts, and only if the run is as long as those first ``\\d``: one scan of the
text for its runs of digits serves every such regex, each tried at the few run starts its shapes allow.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Protocol


class Start(Protocol):
    """The pre-scan's shape of a regex's start (``prescan.Start``) as read here: its one-character classes from the
    start on, and the class the character before the start must not match (``None``: no condition)."""

    @property
    def chars(self) -> Sequence[str]: ...

    @property
    def not_before(self) -> str | None: ...


_DIGIT = r"\d"
#: ``\d+`` written so that the engine finds a run's first digit by its fast loop over the leading class (a leading
#: repeat has no such loop: the pattern is entered at every character, twice the time)
_DIGIT_RUN = re.compile(r"\d\d*")
#: the runs of the last text asked for, ``(text, [(start, end), …])`` (the recognizers of a text ask in turn)
_last: list[tuple[str, list[tuple[int, int]]]] = []


def holds_every_digit(cls: str) -> bool:
    """Does the one-character class ``cls`` match every character ``\\d`` matches?  True for ``\\d``, ``\\w`` and a
    set ``[…]`` (not negated) that holds one of them as an item; False for anything else (no proof, not a refusal).

    A set's items add up (Python's sets have no subtraction), so one ``\\d`` or ``\\w`` item is enough; a ``\\``
    takes the next character with it (``[\\\\d]`` is a backslash and a "d"), and a nested ``[`` gives up.
    """
    if cls in (_DIGIT, r"\w"):
        return True
    if not (cls.startswith("[") and cls.endswith("]")) or cls.startswith("[^") or len(cls) < 4:
        return False
    body, i, found = cls[1:-1], 0, False
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if i + 1 >= len(body):
                return False  # the backslash escaped the closing "]": no set
            found = found or body[i + 1] in "dw"
            i += 2
            continue
        if ch == "[" or ch == "]" and i > 0:
            return False
        i += 1
    return found


@cache
def digit_led(shapes: tuple[Start, ...]) -> tuple[tuple[int, re.Pattern[str], re.Pattern[str] | None], ...] | None:
    """Per shape: how many of its first characters are ``\\d``, its ``not_before`` class compiled and the class of the
    character after those digits compiled (``None``: the shape is its digits); ``None`` when a shape does not start
    with ``\\d`` or has no ``not_before`` that holds every digit (its positions need not be the starts of runs)."""
    out = []
    for shape in shapes:
        lead = 0
        while lead < len(shape.chars) and shape.chars[lead] == _DIGIT:
            lead += 1
        if lead == 0 or shape.not_before is None or not holds_every_digit(shape.not_before):
            return None
        after = re.compile(shape.chars[lead]) if lead < len(shape.chars) else None
        out.append((lead, re.compile(shape.not_before), after))
    return tuple(out)


def runs(text: str) -> list[tuple[int, int]]:
    """The text's maximal runs of ``\\d`` characters, ``(start, end)`` in order; the last text's are kept.  Safe across
    threads: the kept runs are read once and used only when they are this very text's."""
    kept = next(iter(_last), None)
    if kept is not None and kept[0] is text:
        return kept[1]
    found = [m.span() for m in _DIGIT_RUN.finditer(text)]
    _last[:] = [(text, found)]
    return found


def run_starts(text: str, led: tuple[tuple[int, re.Pattern[str], re.Pattern[str] | None], ...]) -> list[int]:
    """The sorted starts of the text's runs of digits where one of the shapes ``led`` (:func:`digit_led`) can hold: a
    run at least as long as the shape's first ``\\d`` characters, after no character of its ``not_before`` class, with
    the character after those digits of the shape's next class.

    Every position where such a shape holds is one: its character is a digit, the one before it is none (the class
    holds every digit), so a run starts there, and the run holds the shape's first digits."""
    found: set[int] = set()
    spans = runs(text)
    for lead, before, after in led:
        not_after = before.match
        then = after.match if after is not None else None
        found.update(s for s, e in spans if e - s >= lead and (then is None or then(text, s + lead) is not None)
                     and (s == 0 or not_after(text, s - 1) is None))
    return sorted(found)
