"""Shared machinery for regex recognizers: validation and context words.

A :class:`PatternRecognizer` finds candidates with one precompiled regex,
asks an optional validator whether the match really is what it looks like
(checksum, calendar date, phone number plan …) and raises the score when a
context word (``tel.``, ``PESEL``, ``IBAN`` …) stands shortly before the
match.  Invalid matches are *not* emitted: a pattern that fails its checksum
is far more often an unrelated number than a mistyped ID, and the pipeline
has other recognizers for "some number".
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from functools import cache

from psan.tool.detection.recognizers.prescan import Start, finditer_at
from psan.tool.detection.recognizers.prescan import warm_up as prescan_warm_up
from psan.tool.text.document import Category, CharSpan, Document, Recognizer

#: priorities (higher wins on overlap); NER adapters use 0, gazetteers are below NER
PRIORITY_VALIDATED_ID = 50
PRIORITY_SECRET = 45
PRIORITY_EMAIL_URL = 40
PRIORITY_IP = 40
PRIORITY_USERNAME = 35
PRIORITY_PHONE = 30
PRIORITY_WEAK_ID = 25
PRIORITY_AMOUNT = 22
PRIORITY_DATE = 20
PRIORITY_AGE = 15
PRIORITY_DURATION = 12
PRIORITY_POSTAL = 10
PRIORITY_GAZETTEER = -10

#: how far before (and after) a match context words are looked for, in characters
CONTEXT_WINDOW_BEFORE = 40
CONTEXT_WINDOW_AFTER = 15

#: a validator says whether the matched text really is what the pattern looks like
Validator = Callable[[str], bool]


def compile_context(words: Iterable[str]) -> re.Pattern[str] | None:
    """One case-insensitive alternation of context words, matched on word boundaries."""
    words = sorted({w.lower() for w in words if w}, key=len, reverse=True)
    if not words:
        return None
    alternation = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)


def preceded_by(text: str, start: int, chars: str = "", word: bool = True) -> bool:
    """True when the character before ``start`` is a word character (if ``word``) or one of ``chars``.

    Used instead of a leading regex look-behind: a pattern that starts with a
    look-behind cannot use the regex engine's first-character scan and runs
    several times slower.
    """
    if start == 0:
        return False
    ch = text[start - 1]
    return (word and (ch.isalnum() or ch == "_")) or ch in chars


_DECIMAL_DIGIT = re.compile(r"\d")


def has_digit(text: str) -> bool:
    """``any(ch.isdigit() for ch in text)``, searched in C for the common case.

    Why: the generator walks the text character by character up to the first digit (tens of
    thousands of steps in a long text); every decimal digit (``\\d``) is a digit, and only a text
    without one is walked for the rarer digits (superscripts …) ``str.isdigit`` also accepts.
    """
    return _DECIMAL_DIGIT.search(text) is not None or any(ch.isdigit() for ch in text)


#: at most this many alternatives picked by look-behinds are tried one after another (:func:`picked_by_first`)
_FLAT_BRANCHES = 4


@cache
def case_insensitive_class(letters: str) -> str:
    """A character class of every character ``(?i:[letters])`` matches (with Unicode's extra case forms:
    "ſ" for s, the Kelvin sign for k …), for use outside ``(?i:…)``."""
    matcher = re.compile(rf"(?i:[{re.escape(letters)}])")
    plane = "".join(map(chr, range(0x10000)))  # case forms outside the Basic Multilingual Plane fold into it
    return "[" + "".join(map(re.escape, sorted(set(matcher.findall(plane))))) + "]"


def first_class_first(firsts: str, not_before: str, rests: dict[str, str], tail: str = "",
                      ignore_case: bool = True) -> str:
    """A regex that starts with a character class, equal to the case-insensitive alternation it stands for.

    ``firsts`` are the (lower-case) letters every match starts with, matched case-insensitively;
    ``not_before`` a one-character class that must not precede the match (a look-behind, ``""`` for none);
    ``rests[f]`` the alternation of what follows the first letter ``f`` (its own case flags);
    ``tail`` what follows every alternative.  The result matches what
    ``(?=(?i:[firsts]))(?<!not_before)(?:(?i:f)(?:rests[f])|…)tail`` matches, at the same places
    (with ``ignore_case=False``: the first letters exactly as given, ``(?=[firsts])…(?:f(?:rests[f])|…)``).

    Why: Python's regex engine skips to a possible start in C only when a pattern *starts* with a
    character class or literal; a leading look-ahead or look-behind makes it try the whole pattern at
    every character (about 10 ms per scan of 10^6 characters however rare the matches).  Here the
    first letter is matched by the class, the look-behind checks the character before it, and a
    one-character look-behind picks the alternatives of that letter.
    """
    guard = rf"(?<!{not_before}[\s\S])" if not_before else ""
    branches = picked_by_first([(f, rests[f]) for f in firsts if rests.get(f)], ignore_case)
    if not ignore_case:
        return rf"[{''.join(map(re.escape, firsts))}]{guard}{branches}{tail}"
    return rf"{case_insensitive_class(firsts)}{guard}{branches}{tail}"


def picked_by_first(branches: list[tuple[str, str]], ignore_case: bool = False) -> str:
    """``(?:(?<=f1)(?:r1)|(?<=f2)(?:r2)|…)`` for the (first character, rest) pairs ``branches``, in their order (each
    character in ``(?i:…)`` with ``ignore_case``), with more than four alternatives grouped under look-behinds of
    their characters' classes: ``(?:(?<=[f1f2f3])(?:(?<=f1)(?:r1)|…)|(?<=[f4f5f6])(?:…)|…)``.

    The same matches and groups: a group's class holds wherever one of its characters does, so a group whose class
    fails holds no alternative that can match, and the alternatives are tried in the same order.  Why: at a place
    where none matches (most places the first class lets through) the engine tried every look-behind, a call each
    (twenty for the Turkish provinces' first letters); grouped, a failing group costs one.
    """
    def behind(chars: str) -> str:
        cls = re.escape(chars) if len(chars) == 1 else "[" + "".join(map(re.escape, chars)) + "]"
        return f"(?<=(?i:{cls}))" if ignore_case else f"(?<={cls})"

    flat = [f"{behind(f)}(?:{rest})" for f, rest in branches]
    if len(flat) <= _FLAT_BRANCHES:
        return "(?:" + "|".join(flat) + ")"
    size = math.isqrt(len(flat) - 1) + 1  # about the square root: as many groups as alternatives in one
    groups = []
    for i in range(0, len(flat), size):
        firsts = "".join(dict.fromkeys(f for f, _ in branches[i:i + size]))
        groups.append(f"{behind(firsts)}(?:{'|'.join(flat[i:i + size])})")
    return "(?:" + "|".join(groups) + ")"


def after_first(words: Iterable[str]) -> str:
    """The alternation of the literal ``words`` for a regex that has already matched their first character.

    ``(?:(?<=a)(?:bc|b)|(?<=x)(?:yz))`` for ``abc, xyz, ab``: each word's first character is checked by a
    look-behind, the words of one first character keep their order (at a given place only those can match,
    so the result equals the plain alternation's there).  A word of one character gives an empty branch.
    Why: for patterns that start with a class of first characters (see :func:`first_class_first`).
    """
    rests: dict[str, list[str]] = {}
    for word in words:
        rests.setdefault(word[0], []).append(re.escape(word[1:]))
    return picked_by_first([(f, "|".join(r)) for f, r in rests.items()])


def has_context(text: str, start: int, end: int, context: re.Pattern[str] | None,
                before: int = CONTEXT_WINDOW_BEFORE, after: int = CONTEXT_WINDOW_AFTER) -> bool:
    """True when a context word occurs in the window around ``text[start:end]``."""
    if context is None:
        return False
    if context.search(text, max(0, start - before), start):
        return True
    return bool(after and context.search(text, end, min(len(text), end + after)))


class PatternRecognizer(Recognizer):
    """Regex + validator + context words → :class:`CharSpan` candidates.

    ``group`` selects the regex group that forms the span (so a pattern may
    include required left/right context such as ``password:``).  ``score`` is
    used without context, ``context_score`` with it; ``require_context`` drops
    matches that have no context word nearby (for weak formats such as
    8-digit IČO or Slovenian 4-digit postal codes).
    """

    def __init__(self, name: str, type_: str, category: Category, pattern: re.Pattern[str] | str, *,
                 validator: Validator | None = None, context: Iterable[str] = (), score: float = 0.85,
                 context_score: float = 0.99, priority: int = 0, group: int | str = 0,
                 require_context: bool = False, flags: int = 0, not_after: str | None = None,
                 starts: tuple[Start, ...] | None = None) -> None:
        self.name = name
        self.type = type_
        self.category = category
        self.regex = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, flags)
        self.validator = validator
        self.context = compile_context(context)
        self.score = score
        self.context_score = context_score
        self.priority = priority
        self.group = group
        self.require_context = require_context
        #: characters that must not precede a match (word characters always count), checked in Python
        self.not_after = not_after
        #: shapes every match of ``regex`` starts with (:mod:`psan.tool.detection.recognizers.prescan`): the regex is
        # then
        #: tried only where one holds; ``None``: the regex scans the whole text
        self.starts = starts

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {self.type}>"

    def warm_up(self) -> None:
        """The character classes of every declared start shape (:func:`prescan.warm_up`), which the first large
        text would otherwise look up."""
        prescan_warm_up()

    def prefilter(self, text: str) -> bool:
        """Cheap test whether the regex can match at all (overridden where it pays off)."""
        return True

    def matches(self, text: str) -> list[re.Match[str]]:
        """``list(self.regex.finditer(text))``, the regex tried only where :attr:`starts` allow."""
        return finditer_at(self.regex, text, self.starts)

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        if not self.prefilter(text):
            return []
        spans: list[CharSpan] = []
        group, not_after, validator, context = self.group, self.not_after, self.validator, self.context
        for match in self.matches(text):
            start, end = match.span(group)
            if start < 0 or start == end:
                continue
            if not_after is not None and preceded_by(text, start, not_after):
                continue
            if validator is not None and not validator(text[start:end]):
                continue
            ctx = context is not None and has_context(text, start, end, context)
            if self.require_context and not ctx:
                continue
            spans.append(CharSpan(start, end, self.type, self.category, self.name,
                                  self.context_score if ctx else self.score, self.priority))
        return spans


def digits(value: str) -> str:
    """Only the digits of ``value`` (separators removed before checksum validation)."""
    return "".join(ch for ch in value if ch.isdigit())


def drop_contained(spans: list[CharSpan]) -> list[CharSpan]:
    """Drop spans lying inside (or equal to) a longer or earlier span of the same recognizer run.

    Used where several patterns of one recognizer describe the same thing
    ("42 år gammal" and "42 år"): the longest reading is the one to keep.
    """
    ordered = sorted(spans, key=lambda s: (s.start, -(s.end - s.start), -s.score))
    kept: list[CharSpan] = []
    for span in ordered:
        if any(k.start <= span.start and span.end <= k.end for k in kept):
            continue
        kept.append(span)
    return kept
