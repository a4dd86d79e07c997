"""Is a word a known word of a language?  An optional dictionary, for telling names from words.

Why: at the start of a sentence a capital proves nothing, so "Rabin sade …" and "Kvinnorna sade …"
look alike to every rule that reads capitals; a dictionary of the language's words tells them apart.
The dictionaries are those of ``simplemma`` (pip extra ``swedish``: a 19 MB wheel without
dependencies, Wiktionary-based word lists of 50 languages), loaded on first use in their
memory-frugal form (about 20 MB and half a second per language).  Without the package every
question answers ``None`` ("cannot tell") and the callers add nothing: the pipeline works as before.

:func:`is_compound` knows the one trap of Germanic languages: a compound ("Stockholmspojkar",
"barnomsorgsfrågan") is in no dictionary and still no name, so a word that splits into two known words
(with or without the linking "s") counts as known.
"""
from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache

__all__ = ["available", "is_common_word", "is_compound", "is_known", "is_word", "warm_up"]

#: the shortest part of a compound ("barn|omsorg", not "b|arn")
MIN_PART = 3


@cache
def available() -> bool:
    """Is the optional dictionary package installed?"""
    return importlib.util.find_spec("simplemma") is not None


@cache
def _lookup(word: str, languages: tuple[str, ...]) -> bool:
    import simplemma
    return simplemma.is_known(word, lang=languages, low_memory=True)


def warm_up(language: str) -> None:
    """Load the language's dictionary now (about a tenth of a second with the package's import), if there is one.

    Why: a component that asks the dictionary (the acronym recognizer, the cut of glued spans) calls it when the
    pipeline is built, so a worker pays the load at start-up, not inside its first document.
    """
    if not available():
        return
    try:
        _lookup("a", (language,))
    except ValueError:  # a language the package has no dictionary of: its first real question will say so
        return


def is_known(word: str, languages: Sequence[str]) -> bool | None:
    """Is ``word`` (as written or in lower case) in the dictionary of one of ``languages``?  None without one."""
    if not available():
        return None
    langs = tuple(languages)
    return _lookup(word, langs) or _lookup(word.lower(), langs)


def is_compound(word: str, languages: Sequence[str]) -> bool | None:
    """Does ``word`` split into two known words, the first maybe with a linking "s"?  None without a dictionary."""
    if not available():
        return None
    langs = tuple(languages)
    lower = word.lower()
    for cut in range(MIN_PART, len(lower) - MIN_PART + 1):
        head, tail = lower[:cut], lower[cut:]
        if _lookup(tail, langs) and (_lookup(head, langs) or head.endswith("s") and _lookup(head[:-1], langs)):
            return True
    return False


def is_word(word: str, languages: Sequence[str]) -> bool | None:
    """Is ``word`` a known word or a compound of known words?  None without a dictionary."""
    known = is_known(word, languages)
    if known is None:
        return None
    return known or bool(is_compound(word, languages))


@cache
def _lemma(word: str, languages: tuple[str, ...]) -> str:
    import simplemma
    return str(simplemma.lemmatize(word, lang=languages))


def is_common_word(word: str, languages: Sequence[str]) -> bool | None:
    """Does the dictionary know ``word`` only as a common word: known in lower case, and lemmatized to a lower-case
    lemma both as written and in lower case?  None without a dictionary.

    Why the lemma's case: the Wiktionary lists hold proper names too ("Bush", "Iraku" → "Irak", "Moskve" →
    "Moskva"), so being known proves nothing; a name's lemma keeps its capital, a common word's ("Bitka" →
    "bitka", "Pracovníci" → "pracovník") does not.
    """
    if not available():
        return None
    langs = tuple(languages)
    lower = word.lower()
    return (_lookup(lower, langs) and _lemma(lower, langs)[:1].islower()
            and _lemma(word, langs)[:1].islower())
