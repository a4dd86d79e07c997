"""Suffix-rule declension of names shared by Slovak and Slovenian (Czech has its own :mod:`.inflect_cs`).

Why: a surrogate must stand in the original's case ("s Novákom" → "s Hudákom"), and no Slovak or
Slovenian morphological dictionary is installable offline.  A language supplies its singular
paradigm (:class:`Declension` ``decline``) and its declension classes; this module recovers
(lemma, slot) readings of a form by undoing endings and re-declining, exactly like
:func:`psan.tool.morph.declension.inflect_cs.analyse`, and exposes the same three functions
(``analyse``, ``inflect``, ``word_class``) so :mod:`psan.tool.surrogates.names` can use either.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from psan.tool.morph.declension.inflect_cs import Reading, best_readings
from psan.tool.morph.namelists import known_genders

DeclineFn = Callable[[str, str, bool], dict[str, str]]
ClassFn = Callable[[str, str], str]


class Declension:
    """One language's name declension: paradigms plus the analysis that inverts them."""

    def __init__(self, language: str, decline: DeclineFn, word_class: ClassFn, undo: tuple[str, ...],
                 fleeting: tuple[tuple[str, str], ...] = (), slot_prior: dict[str, int] | None = None) -> None:
        """``undo``: lemma endings to try on a stem; ``fleeting``: (stem end, lemma end) pairs that restore a
        vowel dropped in the oblique cases (Slovak Marek/Marka: ("k", "ek"))."""
        self.language = language
        self._decline = lru_cache(maxsize=100_000)(decline)
        self._analyse = lru_cache(maxsize=100_000)(self._analyse_uncached)
        self._word_class = word_class
        self._undo = undo
        self._fleeting = fleeting
        self._prior = slot_prior or {"1": 0, "2": 1, "7": 2, "3": 3, "6": 4, "4": 5}

    def decline(self, lemma: str, gender: str = "m", person: bool = True) -> dict[str, str]:
        """Singular paradigm of ``lemma``: slot (case number) → form."""
        return self._decline(lemma, gender, person)

    def word_class(self, lemma: str, gender: str) -> str:
        """Declension class, to draw a surrogate that declines like the original."""
        return self._word_class(lemma, gender)

    def _candidates(self, form: str) -> set[str]:
        out = {form}
        for cut in range(1, min(5, len(form) - 1)):
            stem = form[:-cut]
            out.update(stem + end for end in self._undo)
            for stem_end, lemma_end in self._fleeting:
                if stem.endswith(stem_end) and len(stem) > len(stem_end) + 1:
                    out.add(stem[: -len(stem_end)] + lemma_end)
        return out

    def analyse(self, form: str, language: str = "", gender_hint: str = "", person: bool = True) -> list[Reading]:
        """(lemma, slot) readings of a name form, best first: known lemmas, hinted gender, common cases."""
        return list(self._analyse(form, gender_hint, person))

    def _analyse_uncached(self, form: str, gender_hint: str, person: bool) -> tuple[Reading, ...]:
        known = known_genders(self.language)
        ranked: list[tuple[tuple[int, int, int, int], Reading]] = []
        for lemma in self._candidates(form):
            if len(lemma) < 2:
                continue
            for g in ([known[lemma]] if lemma in known else ["m", "f"]):
                for slot, f in self.decline(lemma, g, person).items():
                    if f == form:
                        rank = (0 if lemma in known else 1, 0 if not gender_hint or g == gender_hint else 1,
                                self._prior.get(slot, 9), 0 if lemma == form else 1)
                        ranked.append((rank, Reading(lemma, slot, g, lemma in known)))
        return best_readings(ranked)

    def inflect(self, lemma: str, slot: str, gender: str, person: bool = True) -> str:
        """``lemma`` in ``slot`` (the lemma itself when its paradigm has no such slot)."""
        return self.decline(lemma, gender, person).get(slot, lemma)
