"""Whether a replacement repeats a word of the text it replaces.

Why one home: a surrogate (:mod:`psan.tool.surrogates`) and a category tag (:mod:`psan.tool.release.output`) must
both never print a word of their original, and both must mean the same by "word" as the release's leak check.
"""
from __future__ import annotations

import re

__all__ = ["SHARED_WORD_LETTERS", "shares_word", "words_of"]

#: a word of the original a replacement must not repeat: this many letters or more
SHARED_WORD_LETTERS = 3
_ALPHA_RE = re.compile(r"[^\W\d_]+", re.UNICODE)


def words_of(text: str) -> set[str]:
    """The words of :data:`SHARED_WORD_LETTERS` letters or more (letters only), case-folded."""
    return {w.casefold() for w in _ALPHA_RE.findall(text) if len(w) >= SHARED_WORD_LETTERS}


def shares_word(candidate: str, original: str) -> bool:
    """Whether the replacement repeats a word of the original (letters only, at least
    :data:`SHARED_WORD_LETTERS`, case-insensitive): "Na západní frontě klid (1928)" must not become the same title
    with another year.  No word is exempt, not a month name, an article or a legal form: a reader who sees
    "26 October" or "Ministry … Limited" at the original's place learns a word of it (shorter words, "of", "a",
    "s.r.o.", say too little to be one)."""
    words = words_of(original)
    return bool(words) and any(w.casefold() in words for w in _ALPHA_RE.findall(candidate))
