"""Polish inflection of surrogates with Morfeusz2 (corpus rule: same tag ``sg:acc:m3 ← sg:acc:m3``).

Why: "Annę" must become "Kasię", not "Kasia".  The original word is analysed,
its proper-name interpretation (``imię``/``nazwisko``/``nazwa_geograficzna``)
gives the lemma, number, case and gender; the surrogate lemma is generated and
the form sharing a (number, case) pair with the original is taken.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from psan.tool.morph.morfeusz import morfeusz

ROLE_QUALS = {"first": "imię", "last": "nazwisko", "place": "nazwa_geograficzna"}


@dataclass(frozen=True, slots=True)
class Interp:
    """One Morfeusz reading: lemma (homonym id kept for ``generate``), (number, case) pairs, gender."""

    lemma: str
    forms: frozenset[tuple[str, str]]
    gender: str
    quals: tuple[str, ...]

    @property
    def base(self) -> str:
        return self.lemma.split(":", 1)[0]


def available() -> bool:
    return morfeusz() is not None


def _pairs(tag: str) -> tuple[frozenset[tuple[str, str]], str]:
    parts = tag.split(":")
    if len(parts) < 4:
        return frozenset(), ""
    return frozenset(product(parts[1].split("."), parts[2].split("."))), parts[3]


@lru_cache(maxsize=100_000)
def analyse(word: str, role: str = "") -> tuple[Interp, ...]:
    """Noun readings of ``word``; the role's proper-name readings first (then other proper, then common)."""
    m = morfeusz()
    if m is None:
        return ()
    wanted = ROLE_QUALS.get(role, "")
    scored: list[tuple[int, Interp]] = []
    for _s, _e, (_orth, lemma, tag, quals, _labels) in m.analyse(word):
        if not tag.startswith(("subst", "depr")) or tag.startswith("depr"):
            continue
        pairs, gender = _pairs(tag)
        rank = 0 if wanted and wanted in quals else 1 if lemma[:1].isupper() else 2
        scored.append((rank, Interp(lemma, pairs, gender, tuple(quals))))
    scored.sort(key=lambda x: x[0])
    return tuple(i for _r, i in scored)


@lru_cache(maxsize=100_000)
def _tags(word: str) -> frozenset[str]:
    m = morfeusz()
    if m is None:
        return frozenset()
    return frozenset(tag.split(":", 1)[0] for _s, _e, (_o, _l, tag, _q, _lb) in m.analyse(word))


def is_verb(word: str) -> bool:
    """Whether Morfeusz reads ``word`` as a verb form (finite, past, infinitive, impersonal)."""
    return bool(_tags(word) & {"fin", "praet", "inf", "impt", "imps", "bedzie", "pcon"})


@lru_cache(maxsize=50_000)
def past_subject(word: str) -> tuple[str, str]:
    """(gender, number) a past-tense verb form requires of its subject, UD values ("strzyknął" → Masc,
    Sing; "powiedziała" → Fem, Sing; "poszli" → Masc, Plur); ``("", "")`` for no single reading."""
    m = morfeusz()
    if m is None:
        return "", ""
    found = set()
    for _s, _e, (_o, _l, tag, _q, _lb) in m.analyse(word):
        parts = tag.split(":")
        if parts[0] == "praet" and len(parts) >= 3:
            gender = "Fem" if parts[2] == "f" else "Neut" if parts[2] == "n" else "Masc" if parts[2].startswith("m") \
                else ""
            found.add((gender, "Plur" if parts[1] == "pl" else "Sing"))
    return next(iter(found)) if len(found) == 1 else ("", "")


def only_noun(word: str) -> bool:
    """Whether every Morfeusz reading of ``word`` is a noun ("burmistrz"; not "ale", "wczoraj")."""
    tags = _tags(word) | _tags(word.casefold())
    return bool(tags) and tags <= {"subst", "depr"}


def is_adjective(word: str) -> bool:
    """Whether Morfeusz reads ``word`` as an adjective (an attribute agreeing with the name after it)."""
    return bool(_tags(word) & {"adj", "ppas", "pact"})


@lru_cache(maxsize=50_000)
def _generate(lemma: str) -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    m = morfeusz()
    if m is None:
        return ()
    try:
        return tuple((form, lem, tag, tuple(quals)) for form, lem, tag, quals, _l in m.generate(lemma))
    except RuntimeError:
        return ()


def known(lemma: str, role: str) -> str | None:
    """The Morfeusz lemma id (``Jan:Sm1``) of a name lemma with the role's qualifier, or ``None``."""
    wanted = ROLE_QUALS.get(role, "")
    for interp in analyse(lemma, role):
        if interp.base == lemma and (not wanted or wanted in interp.quals) and any(
                c == "nom" for _n, c in interp.forms):
            return interp.lemma
    return None


def lemma_ids(base: str, role: str = "") -> tuple[str, ...]:
    """All Morfeusz lemma ids (``Nowak:Sm1``, ``Nowak:Sf`` …) of a capitalized base with the role's qualifier."""
    wanted = ROLE_QUALS.get(role, "")
    ids = [i.lemma for i in analyse(base, role) if i.base == base and (not wanted or wanted in i.quals)]
    return tuple(dict.fromkeys(ids))


def inflect(lemma: str, like: Interp, role: str = "") -> str | None:
    """Form of ``lemma`` (a base or a lemma id) sharing a (number, case) with ``like``, its gender preferred."""
    wanted = ROLE_QUALS.get(role, "")
    ids = (lemma,) if ":" in lemma else (lemma_ids(lemma, role) or (lemma,))
    best: tuple[int, str] | None = None
    for lemma_id in ids:
        for form, _lem, tag, quals in _generate(lemma_id):
            if not tag.startswith("subst"):
                continue
            pairs, gender = _pairs(tag)
            if not pairs & like.forms:
                continue
            # prefer: same gender, the role's qualifier, a real inflected (not an all-cases indeclinable) reading
            score = (0 if gender == like.gender else 4) + (0 if not wanted or wanted in quals else 1)
            score += 0 if len(pairs) < 8 else 2
            if best is None or score < best[0]:
                best = (score, form)
    return best[1] if best else None


def same_reading(original: str, surrogate: str, role: str = "") -> bool:
    """Evaluation criterion: some noun reading of ``surrogate`` shares a (number, case) with the
    original's preferred reading(s) (those of the best rank)."""
    orig = analyse(original, role)
    if not orig:
        return False
    target = orig[0].forms
    return any(i.forms & target for i in analyse(surrogate, role))
