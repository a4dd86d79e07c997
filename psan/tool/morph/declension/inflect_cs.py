"""Czech (and roughly Slovak) declension of names by suffix rules.

Why: no Czech morphological dictionary is installable offline, and a name
surrogate must stand in the original's case ("s Novákem" → "se Svobodou" is
wrong, "s Novákem" → "s Dvořákem" is right).  Approach:

* :func:`decline` gives the singular paradigm of a lemma by its declension
  class (ending: -ová/-á, -ý, -í, -a, -e/-ie, -o, consonant hard/soft, with the
  fleeting e of -ek/-ec/-el) and gender; slots are case numbers 1–7 with a
  variant letter where Czech has two endings (``3a`` Novákovi / ``3b`` Nováku);
* :func:`analyse` recovers (lemma, slot) candidates of a form: lemmas from
  the name lists (exact) or guessed by undoing the endings, checked by
  re-declining;
* the surrogate lemma is drawn from the *same class and gender* so that the
  original's slot exists, and :func:`inflect` returns that slot's form.

Limits: singular only, no plural family forms ("Novákovi" as plural),
foreign names are treated by their ending; ambiguous forms ("Jana" = Jana
nominative or Jan genitive) are resolved by list membership, then gender,
then a slot prior favouring the nominative.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from psan.tool.morph.namelists import known_genders

_SOFT = "žščřcjďťňxsz"
_SOFT_A = "žščřcj"
_VOWELS = "aeiouyáéíóúůýě"


def _mutate(stem: str) -> str:
    """Dative/locative of feminine -a nouns: stem + ending (Jitka → Jitce, Olga → Olze, Věra → Věře)."""
    if stem.endswith("ch"):
        return stem[:-2] + "še"
    last = stem[-1:]
    if last == "k":
        return stem[:-1] + "ce"
    if last in "hg":
        return stem[:-1] + "ze"
    if last == "r":
        return stem[:-1] + "ře"
    if last in "dtnbpfvm":
        return stem + "ě"
    if last in _SOFT_A:
        return stem + "i"
    return stem + "e"


def word_class(lemma: str, gender: str) -> str:
    """Declension class used to pick a surrogate that declines like the original."""
    low = lemma.lower()
    if low.endswith("ová"):
        return "ova"
    for end, cls in (("á", "a_adj"), ("ý", "y_adj"), ("í", "i_adj"), ("ie", "ie")):
        if low.endswith(end):
            return cls
    if low.endswith("a"):
        return f"a_{gender or 'f'}" + ("_soft" if low[-2:-1] in _SOFT_A else "")
    if low.endswith("e"):
        return "e"
    if low.endswith("o"):
        return "o"
    if gender != "f" and low[-1:] in ("y", "i") and low[-2:-1] not in _VOWELS and len(low) > 2:
        return "foreign_yi"  # Billy → Billyho, Billymu (declined like adjectives)
    if gender == "f" or not low[-1:].isalpha():
        return "indecl"
    if _fleeting(low):
        return "fl_" + low[-2:]
    if low.endswith(("k", "h", "g", "ch")):
        return "hard_k"
    if low.endswith("r") and low[-2:-1] not in _VOWELS:
        return "hard_r"
    return "soft" if low[-1] in _SOFT else "hard"


def _fleeting(low: str) -> bool:
    """Fleeting e of -ek/-ec/-el after a consonant (Bílek → Bílka, Kadlec → Kadlce, Havel → Havla)."""
    if len(low) <= 4 or not low.endswith(("ek", "ec", "el")) or low[-3] in _VOWELS:
        return False
    return not (low.endswith("el") and low[-3] == "l")


def slot_of(form: str, lemma: str, gender: str = "m", person: bool = True) -> str | None:
    """The paradigm slot of ``form`` when its lemma is known (the entity's full name): "Bílkovi" of Bílek → 3a.

    Why: analysing a form alone must guess the lemma ("Jana" = Jana or Jan); knowing it
    from another mention of the same entity leaves only the case to find.
    """
    low = form.casefold()
    table = decline(lemma, gender or "m", person)
    for slot in sorted(table, key=lambda s: _SLOT_PRIOR.get(s, 9)):
        if table[slot].casefold() == low:
            return slot
    return None


@lru_cache(maxsize=100_000)
def decline(lemma: str, gender: str = "m", person: bool = True) -> dict[str, str]:
    """Singular paradigm: slot → form (slot = case number plus variant letter), by the lemma's word class."""
    cls = word_class(lemma, gender)
    if cls in ("ova", "a_adj", "y_adj", "i_adj"):
        return _adjective_paradigm(lemma, cls, gender)
    if cls in ("ie", "e") or cls.startswith("a_"):
        return _vowel_paradigm(lemma, cls, gender, person)
    if cls == "o":
        return _o_paradigm(lemma, person)
    if cls == "indecl":
        return {"1": lemma}
    w = lemma
    if cls == "foreign_yi":
        return {"1": w, "2": w + "ho", "3": w + "mu", "4": w + "ho", "5": w, "6": w + "m", "7": w + "m"}
    if cls.startswith("fl_"):
        return _fleeting_paradigm(lemma, person)
    return _consonant_paradigm(lemma, cls, person)


def _adjective_paradigm(w: str, cls: str, gender: str) -> dict[str, str]:
    """Names declined like adjectives: -ová/-á (Nováková, Malá), -ý (Malý) and a man's -í (Krejčí; a woman's
    -í stays undeclined)."""
    if cls in ("ova", "a_adj"):
        s = w[:-1]
        return {"1": w, "2": s + "é", "3": s + "é", "4": s + "ou", "5": w, "6": s + "é", "7": s + "ou"}
    if cls == "y_adj":
        s = w[:-1]
        return {"1": w, "2": s + "ého", "3": s + "ému", "4": s + "ého", "5": w, "6": s + "ém", "7": s + "ým"}
    if gender == "f":
        return {"1": w}
    return {"1": w, "2": w + "ho", "3": w + "mu", "4": w + "ho", "5": w, "6": w + "m", "7": w + "m"}


def _vowel_paradigm(w: str, cls: str, gender: str, person: bool) -> dict[str, str]:
    """Names in -ie (Marie), -e (a woman's Alice; a man's stays undeclined) and -a: a man's -a (Svoboda) takes
    -ovi, a woman's or a place's -a mutates its stem in the dative and locative (Praha → v Praze)."""
    s = w[:-1]
    if cls == "ie" or (cls == "e" and gender == "f"):
        return {"1": w, "2": w, "3": s + "i", "4": s + "i", "5": w, "6": s + "i", "7": s + "í"}
    if cls == "e":
        return {"1": w}
    gen = s + ("i" if cls.endswith("soft") else "y")
    if cls.startswith("a_m") and person:
        return {"1": w, "2": gen, "3": s + "ovi", "4": s + "u", "5": s + "o", "6": s + "ovi", "7": s + "ou"}
    mut = _mutate(s)
    return {"1": w, "2": gen, "3": mut, "4": s + ("i" if cls.endswith("soft") else "u"), "5": s + "o",
            "6": mut, "7": s + "ou"}


def _o_paradigm(w: str, person: bool) -> dict[str, str]:
    """Names in -o: a man's (Marko) takes -ovi, a place's is a neuter noun (Brno → v Brně, Milevsko → v Milevsku)."""
    s = w[:-1]
    if person:
        return {"1": w, "2": s + "a", "3": s + "ovi", "4": s + "a", "5": w, "6": s + "ovi", "7": s + "em"}
    if s.endswith(("k", "h", "g", "ch")):  # Milevsko → v Milevsku, Trhovo → …, not "Milevske"
        return {"1": w, "2": s + "a", "3": s + "u", "4": w, "5": w, "6": s + "u", "7": s + "em"}
    loc = s + ("ě" if s[-1:] in "dtnbpfvm" else "e")
    return {"1": w, "2": s + "a", "3": s + "u", "4": w, "5": w, "6a": loc, "6b": s + "u", "7": s + "em"}


def _fleeting_paradigm(w: str, person: bool) -> dict[str, str]:
    """Names whose -ek/-ec/-el loses its e (Marek → Marka, Němec → Němce); a person also has the -ovi dative."""
    s = w[:-2] + w[-1]  # Marek → Mark, Němec → Němc, Pavel → Pavl
    voc = {"k": s + "u", "c": w[:-2] + "če", "l": s + "e"}[w[-1].lower()]
    soft = w[-1].lower() == "c"
    a = "e" if soft else "a"
    if not person:
        return {"1": w, "2": s + a, "3": s + ("i" if soft else "u"), "4": w, "5": voc,
                "6": s + ("i" if soft else "u"), "7": s + "em"}
    return {"1": w, "2": s + a, "3a": s + "ovi", "3b": s + ("i" if soft else "u"), "4": s + a, "5": voc,
            "6a": s + "ovi", "6b": s + ("i" if soft else "u"), "7": s + "em"}


def _consonant_paradigm(w: str, cls: str, person: bool) -> dict[str, str]:
    """Names ending in a hard or soft consonant: a person is animate (Novák, Nováka, Novákovi), a place
    inanimate with two genitives and locatives (Kolín, z Kolína, v Kolíně)."""
    soft = cls == "soft"
    if soft:
        voc = w + "i"
    elif cls == "hard_k":
        voc = w + "u"
    elif cls == "hard_r":
        voc = w[:-1] + "ře"
    else:
        voc = w + "e"
    if not person:
        loc = w + ("i" if soft else "u" if cls == "hard_k" else ("ě" if w[-1:] in "dtnbpfvm" else "e"))
        return {"1": w, "2a": w + ("e" if soft else "a"), "2b": w + ("e" if soft else "u"),
                "3": w + ("i" if soft else "u"), "4": w, "5": voc, "6a": loc, "6b": w + ("i" if soft else "u"),
                "7": w + "em"}
    return {"1": w, "2": w + ("e" if soft else "a"), "3a": w + "ovi", "3b": w + ("i" if soft else "u"),
            "4": w + ("e" if soft else "a"), "5": voc, "6a": w + "ovi", "6b": w + ("i" if soft else "u"),
            "7": w + "em"}


_SLOT_PRIOR = {"1": 0, "2": 1, "7": 2, "3a": 3, "3b": 3, "3": 3, "6a": 4, "6b": 4, "6": 4, "4": 5, "2a": 1,
               "2b": 1, "5": 6}
_UNDO = ("", "a", "o", "ý", "á", "í", "e", "ie", "ová", "ek", "ec", "el", "k", "h", "g", "ch", "r")


@dataclass(frozen=True, slots=True)
class Reading:
    lemma: str
    slot: str
    gender: str
    known: bool


def best_readings(ranked: list[tuple[tuple[int, ...], Reading]]) -> tuple[Reading, ...]:
    """The readings by rank (then lemma), each (lemma, slot, gender) once: one order for every paradigm."""
    ranked.sort(key=lambda x: (x[0], x[1].lemma))
    seen: set[tuple[str, str, str]] = set()
    out = []
    for _rank, reading in ranked:
        key = (reading.lemma, reading.slot, reading.gender)
        if key not in seen:
            seen.add(key)
            out.append(reading)
    return tuple(out)


def analyse(form: str, language: str = "cs", gender_hint: str = "", person: bool = True) -> list[Reading]:
    """(lemma, slot) readings of a name form, best first (cached: a name recurs in every mention)."""
    return list(_analyse(form, language, gender_hint, person))


@lru_cache(maxsize=100_000)
def _analyse(form: str, language: str, gender_hint: str, person: bool) -> tuple[Reading, ...]:
    known = known_genders(language, countries=False)
    candidates: set[str] = {form}
    for cut in range(1, min(5, len(form) - 1)):
        stem = form[:-cut]
        for end in _UNDO:
            candidates.add(stem + end)
            if end == "":
                for a, b in (("c", "k"), ("z", "h"), ("ř", "r"), ("š", "ch")):
                    if stem.endswith(a):
                        candidates.add(stem[: -len(a)] + b + "a")
        if stem[-1:] in "kcl" and len(stem) > 2:
            candidates.add(stem[:-1] + "e" + stem[-1])  # fleeting e: Mark → Marek
    readings: list[tuple[tuple[int, int, int, int], Reading]] = []
    for lemma in candidates:
        if len(lemma) < 2:
            continue
        genders = [known[lemma]] if lemma in known else ["m", "f"]
        for g in genders:
            for slot, f in decline(lemma, g, person).items():
                if f != form:
                    continue
                is_known = lemma in known
                rank = (0 if is_known else 1, 0 if not gender_hint or g == gender_hint else 1,
                        _SLOT_PRIOR.get(slot, 9), 0 if lemma == form else 1)
                readings.append((rank, Reading(lemma, slot, g, is_known)))
    return best_readings(readings)


def inflect(lemma: str, slot: str, gender: str, person: bool = True) -> str:
    """``lemma`` in ``slot`` (falls back to the case without variant, then to the lemma)."""
    table = decline(lemma, gender, person)
    if slot in table:
        return table[slot]
    for k, v in table.items():
        if k[0] == slot[0]:
            return v
    return lemma
