"""The lower-case words of the paragraph around a position, for recognizers that ask "does this text also
write the word in lower case?" ("SOBOTA" beside "sobota", "Most" beside "most").

Why per paragraph and not per text: large documents are recognized in sections cut at blank lines
(:mod:`psan.tool.text.sections`), and a recognizer must find the same spans in a section as in the whole
document; a paragraph lies in one section, the whole text does not.
"""
from __future__ import annotations

import re
from itertools import filterfalse

_WORD_RE = re.compile(r"\w+")
_BLANK_LINE_RE = re.compile(r"\n[ \t\r\f\v]*\n")


class LowerCaseWords:
    """Lazily built sets of lower-case words per paragraph (text between blank lines) of one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._bounds: list[tuple[int, int]] | None = None
        self._sets: dict[tuple[int, bool], frozenset[str]] = {}

    def _paragraph(self, pos: int) -> int:
        if self._bounds is None:
            bounds, start = [], 0
            for m in _BLANK_LINE_RE.finditer(self.text):
                bounds.append((start, m.start()))
                start = m.end()
            bounds.append((start, len(self.text)))
            self._bounds = bounds
        lo, hi = 0, len(self._bounds) - 1
        while lo < hi:  # the last paragraph starting at or before pos
            mid = (lo + hi + 1) // 2
            if self._bounds[mid][0] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _words(self, pos: int, lower: bool) -> frozenset[str]:
        """The paragraph's lower-case words (``lower``), or its words not in capitals, lower-cased; each set built
        when first asked for (in C: ``filter``/``map`` over the words, no generator)."""
        index = self._paragraph(pos)
        found = self._sets.get((index, lower))
        if found is None:
            start, end = self._bounds[index]  # type: ignore[index]
            words = _WORD_RE.findall(self.text, start, end)
            found = frozenset(filter(str.islower, words)) if lower else \
                frozenset(map(str.lower, filterfalse(str.isupper, words)))
            self._sets[(index, lower)] = found
        return found

    def __call__(self, word: str, pos: int) -> bool:
        """True when ``word.lower()`` occurs as a lower-case word in the paragraph around ``pos``."""
        return word.lower() in self._words(pos, True)

    def not_in_capitals(self, word: str, pos: int) -> bool:
        """True when the paragraph around ``pos`` also writes ``word`` in lower or title case ("Sobota")."""
        return word.lower() in self._words(pos, False)
