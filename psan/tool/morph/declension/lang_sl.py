"""Slovenian name declension for surrogates (singular; slots 1 nom, 2 gen, 3 dat, 4 acc, 6 loc, 7 ins).

Why: "z Novakom", "pri Ani", "v Ljubljani" must keep their case.  Classes: -a (feminine, and
masculine persons such as "Luka", which decline the same way: Luke/Luki/Luko), -o (Marko/Marka),
consonant masculine (persons: Novak/Novaka/Novaku/Novakom; places: Maribor/Maribora/v Mariboru, the
instrumental -em after c, č, š, ž, j: Kranjem), with the fleeting e of -ec/-ek/-el (Slovenec/Slovenca,
Pavel/Pavla).  Women's surnames ending in a consonant (gospa Novak) and names in -e/-i/-u do not decline.
"""
from __future__ import annotations

from psan.tool.morph.declension.suffix import Declension

_SOFT = "cčšžj"


def word_class(lemma: str, gender: str) -> str:
    low = lemma.lower()
    if low.endswith("a"):
        return "a"
    if low.endswith("o"):
        return "o"
    if gender == "f" or not low[-1:].isalpha() or low[-1] in "eiu":
        return "indecl"
    if len(low) > 4 and low.endswith(("ec", "ek", "el")) and low[-3] not in "aeiou":
        return "fleeting"
    return "soft" if low[-1] in _SOFT else "hard"


def decline(lemma: str, gender: str = "m", person: bool = True) -> dict[str, str]:
    cls = word_class(lemma, gender)
    w = lemma
    if cls == "a":
        s = w[:-1]
        return {"1": w, "2": s + "e", "3": s + "i", "4": s + "o", "6": s + "i", "7": s + "o"}
    if cls == "indecl":
        return {"1": w}
    s = w[:-1] if cls == "o" else w[:-2] + w[-1] if cls == "fleeting" else w
    ins = s + ("em" if s[-1:].lower() in _SOFT else "om")
    return {"1": w, "2": s + "a", "3": s + "u", "4": s + "a" if person else w, "6": s + "u", "7": ins}


SLOVENIAN = Declension("sl", decline, word_class, undo=("", "a", "o"),
                       fleeting=(("c", "ec"), ("k", "ek"), ("l", "el")))
