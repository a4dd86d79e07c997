"""Lemmatizers for LEMMA rules.

A LEMMA rule matches a token when the token's lemma equals the rule's
condition, so the only thing rule matching needs is a function
``token_text -> lemma``.  Real lemmatizers (MorphoDiTa, UDPipe, Morfeusz …)
plug in through :class:`Lemmatizer`; this module only ships a small fallback
so lemma rules work without any linguistic model.

The fallback :class:`SuffixLemmatizer` is deliberately crude.  It strips (or
rewrites) inflectional endings typical of *proper names* in Czech, Slovak,
Slovenian and Polish:

* Janez/Janeza/Janezu/Janezom → ``Janez``; Novák/Nováka/Novákovi/Novákem → ``Novák``;
  Nováková/Novákové/Novákovou → ``Nováková``; Kowalski/Kowalskiego/Kowalskim → ``Kowalski``.

Known limits (document them to annotators, they decide whether to trust a lemma rule):

* it is a stemmer, not a dictionary: the "lemma" may not be a word (Petra/Petry/Petru → ``Petr``);
* different names can collapse (female *Jana* and male *Jan* both give ``Jan``);
* consonant and vowel alternations are not undone (Praha/Praze, Karel/Karla, Marek/Marka → ``Mark``);
* it does not look at context, part of speech or capitalisation, so it also
  "lemmatizes" common words; it is meant for tokens that rules name.

Because both sides of a comparison go through the same function, the rule
engine also lemmatizes rule conditions when the fallback is used, which keeps
the crude stems consistent (see :func:`psan.tool.decisions.rules.RuleSet.match`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

__all__ = [
    "Lemmatizer",
    "SuffixLemmatizer",
    "identity_lemmatizer",
    "get_lemmatizer",
    "SUFFIX_RULES",
    "MorfeuszLemmatizer",
    "morfeusz_lemmatizer",
]


@runtime_checkable
class Lemmatizer(Protocol):
    """Anything that maps one token's text to its lemma.

    Implementations must be deterministic and context free (the same text
    always gives the same lemma) because rule matching caches results per
    distinct token text.
    """

    def __call__(self, token_text: str) -> str: ...  # pragma: no cover - protocol


def identity_lemmatizer(token_text: str) -> str:
    """Lemma = the token itself; used for languages without any lemmatizer."""
    return token_text


# (suffix, replacement) pairs; the longest matching suffix wins.  Lists are
# kept short on purpose: every entry risks collapsing unrelated names.
_CS_SK = [
    # female surnames in -ová: keep the nominative
    ("ová", "ová"), ("ové", "ová"), ("ovou", "ová"), ("ovej", "ová"),
    # adjectival surnames Černý / Černá (Slovak Čierny …)
    ("ého", "ý"), ("ému", "ý"), ("ým", "ý"), ("ém", "ý"),
    ("ej", "á"), ("ou", "á"),
    # possessive / masculine animate endings
    ("ovi", ""), ("em", ""), ("om", ""), ("ou", ""),
    # plural place names (Košice/Košiciach/Košiciam/Košicami, Budějovice/Budějovicích/Budějovicím)
    ("iach", ""), ("iam", ""), ("ami", ""), ("ích", ""), ("ím", ""), ("ách", ""), ("ám", ""),
    ("a", ""), ("u", ""), ("e", ""), ("y", ""), ("i", ""), ("o", ""),
]
_SL = [
    ("ovi", ""), ("evi", ""), ("em", ""), ("om", ""), ("ih", ""), ("ov", ""), ("ev", ""),
    ("a", ""), ("u", ""), ("e", ""), ("i", ""), ("o", ""),
]
_PL = [
    # adjectival surnames Kowalski / Kowalska (identity entries stop the generic -i/-a rules)
    ("ski", "ski"), ("ska", "ska"), ("cki", "cki"), ("cka", "cka"),
    ("skiego", "ski"), ("skiemu", "ski"), ("skim", "ski"), ("skich", "ski"),
    ("ską", "ska"), ("skiej", "ska"),
    ("ckiego", "cki"), ("ckiemu", "cki"), ("ckim", "cki"),
    ("cką", "cka"), ("ckiej", "cka"),
    # nouns: Nowak/Nowaka/Nowakowi/Nowakiem/Nowaku
    ("owi", ""), ("iem", ""), ("em", ""), ("ą", ""), ("ę", ""),
    ("a", ""), ("u", ""), ("y", ""), ("i", ""), ("e", ""),
]

#: per-language (suffix, replacement) rules of the fallback lemmatizer
SUFFIX_RULES: dict[str, list[tuple[str, str]]] = {
    "cs": _CS_SK,
    "sk": _CS_SK,
    "sl": _SL,
    "pl": _PL,
}


class SuffixLemmatizer:
    """Suffix-stripping pseudo-lemmatizer for Slavic proper names (fallback only).

    ``min_stem`` keeps short tokens intact so that e.g. "Eva" is not cut to "Ev"
    and one-letter stems never appear.
    """

    def __init__(self, language: str, min_stem: int = 3,
                 rules: list[tuple[str, str]] | None = None) -> None:
        if rules is None:
            try:
                rules = SUFFIX_RULES[language]
            except KeyError:
                raise ValueError(f"no suffix rules for language {language!r}") from None
        self.language = language
        self.min_stem = min_stem
        # Deduplicate by suffix keeping the first replacement, then longest suffix first.
        seen: dict[str, str] = {}
        for suffix, repl in rules:
            seen.setdefault(suffix, repl)
        self._rules = sorted(seen.items(), key=lambda r: -len(r[0]))
        self._cache: dict[str, str] = {}

    def __call__(self, token_text: str) -> str:
        lemma = self._cache.get(token_text)
        if lemma is None:
            lemma = self._lemmatize(token_text)
            if len(self._cache) < 1_000_000:
                self._cache[token_text] = lemma
        return lemma

    def _lemmatize(self, word: str) -> str:
        if not word.isalpha():
            return word
        low = word.lower()
        for suffix, repl in self._rules:
            if low.endswith(suffix) and len(word) - len(suffix) >= self.min_stem:
                stem = word[: len(word) - len(suffix)]
                # keep upper case suffix style for all-caps tokens (NOVÁKA → NOVÁK)
                return stem + (repl.upper() if word.isupper() else repl)
        return word

    def __repr__(self) -> str:
        return f"SuffixLemmatizer({self.language!r}, min_stem={self.min_stem})"


class MorfeuszLemmatizer(SuffixLemmatizer):
    """Polish lemmas from the Morfeusz2 dictionary; the Polish suffix rules for words it does not know.

    Why a :class:`SuffixLemmatizer` subclass: it stays context free and deterministic, and the rule
    engine lemmatizes LEMMA rule conditions with the same function (so "Warszawie" as a condition
    and "Warszawą" in a text meet at ``Warszawa``).  Of several lemmas, a capitalized token takes
    the first capitalized one in sorted order (``Kowalskiego`` → ``Kowalski``), others the first one;
    Morfeusz's homonym marks (``Warszawa:Sf``) are dropped.
    """

    def __init__(self, analyser: object, min_stem: int = 3) -> None:
        super().__init__("pl", min_stem)
        self._analyser = analyser

    def _lemmatize(self, word: str) -> str:
        if not word.isalpha():
            return word
        lemmas = sorted({a[2][1].split(":")[0] for a in self._analyser.analyse(word)  # type: ignore[attr-defined]
                         if a[2][2] != "ign"})
        if not lemmas:
            return super()._lemmatize(word)
        if word[0].isupper():
            upper = [lem for lem in lemmas if lem[:1].isupper()]
            if upper:
                return upper[0]
        return lemmas[0]

    def __repr__(self) -> str:
        return "MorfeuszLemmatizer()"


def morfeusz_lemmatizer() -> MorfeuszLemmatizer | None:
    """A Morfeusz2-backed Polish lemmatizer, or ``None`` when the optional ``morfeusz2`` is missing."""
    from psan.tool.morph.morfeusz import morfeusz  # one shared analyser (it loads a dictionary)
    analyser = morfeusz()
    return MorfeuszLemmatizer(analyser) if analyser is not None else None


_DEFAULTS: dict[str, SuffixLemmatizer] = {}


def get_lemmatizer(language: str) -> Callable[[str], str]:
    """The best available lemmatizer for ``language`` (shared instance), identity if unsupported.

    Polish: Morfeusz2 when installed; otherwise (and for cs, sk, sl) the suffix rules.
    """
    lang = (language or "").lower().split("-")[0].split("_")[0]
    if lang not in SUFFIX_RULES:
        return identity_lemmatizer
    lem = _DEFAULTS.get(lang)
    if lem is None:
        lem = (morfeusz_lemmatizer() if lang == "pl" else None) or SuffixLemmatizer(lang)
        _DEFAULTS[lang] = lem
    return lem
