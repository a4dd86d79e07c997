"""Slovak name declension for surrogates (singular; slots 1 nom, 2 gen, 3 dat, 4 acc, 6 loc, 7 ins).

Why not the Czech rules: Slovak endings differ where it shows – "s Novákom" (cs "Novákem"),
"o Novákovej" (cs "Novákové"), "Jane" (dat/loc of Jana, cs "Janě"), "Máriou".  Classes: -ová/-á
(adjectival feminine), -ý / -í (adjectival masculine), -ia, -a (feminine; hard or soft stem; masculine
persons like "Kuba" decline like "hrdina"), -o, consonant (persons: Novák/Nováka/Novákovi; places:
Zvolen/Zvolena/Zvolenu/vo Zvolene, after k/g/h/ch "v Humenku"-type -u; the genitive in -u too: z Popradu),
with the fleeting e of -ek/-ec (Marek/Marka, Hudec/Hudca) and the common Peter/Petra, Pavol/Pavla.
"""
from __future__ import annotations

from psan.tool.morph.declension.suffix import Declension

_SOFT = "ňďťľcčšžj"
_FLEETING = {"Peter": "Petr", "Pavol": "Pavl", "Alexander": "Alexandr"}


def word_class(lemma: str, gender: str) -> str:
    low = lemma.lower()
    if low.endswith("ová"):
        return "ova"
    for end, cls in (("á", "a_adj"), ("ý", "y_adj"), ("í", "i_adj"), ("ia", "ia")):
        if low.endswith(end):
            return cls
    if low.endswith("a"):
        return f"a_{gender or 'f'}" + ("_soft" if low[-2:-1] in _SOFT or low.endswith(("dza", "dža")) else "")
    if low.endswith("o"):
        return "o"
    if gender != "f" and low[-1:] in ("y", "i") and low[-2:-1] not in "aeiouyáéíóúô" and len(low) > 2:
        return "foreign_yi"  # Billy → Billyho, Rákoci → Rákociho (declined like adjectives)
    if gender == "f" or not low[-1:].isalpha() or low[-1] in "eiuyéú":
        return "indecl"
    if lemma in _FLEETING or (len(low) > 4 and low.endswith(("ek", "ec")) and low[-3] not in "aeiouyáéíóúô"):
        return "fleeting"
    if low.endswith(("k", "g", "h", "ch")):
        return "hard_k"
    return "soft" if low[-1] in _SOFT else "hard"


def decline(lemma: str, gender: str = "m", person: bool = True) -> dict[str, str]:
    cls = word_class(lemma, gender)
    w = lemma
    if cls in ("ova", "a_adj"):
        s = w[:-1]
        return {"1": w, "2": s + "ej", "3": s + "ej", "4": s + "ú", "6": s + "ej", "7": s + "ou"}
    if cls == "y_adj":
        s = w[:-1]
        return {"1": w, "2": s + "ého", "3": s + "ému", "4": s + "ého", "6": s + "om", "7": s + "ým"}
    if cls == "i_adj":
        if gender == "f":
            return {"1": w}
        s = w[:-1]
        return {"1": w, "2": w + "ho", "3": w + "mu", "4": w + "ho", "6": s + "om", "7": w + "m"}
    if cls == "ia":
        s = w[:-1]
        return {"1": w, "2": s + "e", "3": s + "i", "4": s + "u", "6": s + "i", "7": s + "ou"}
    if cls.startswith("a_"):
        s = w[:-1]
        if cls.startswith("a_m") and person:
            return {"1": w, "2": s + "u", "3": s + "ovi", "4": s + "u", "6": s + "ovi", "7": s + "om"}
        soft = cls.endswith("soft")
        return {"1": w, "2": s + ("e" if soft else "y"), "3": s + ("i" if soft else "e"), "4": s + "u",
                "6": s + ("i" if soft else "e"), "7": s + "ou"}
    if cls == "o":
        s = w[:-1]
        if person:
            return {"1": w, "2": s + "a", "3": s + "ovi", "4": s + "a", "6": s + "ovi", "7": s + "om"}
        return {"1": w, "2": s + "a", "3": s + "u", "4": w, "6": s + "e", "7": s + "om"}
    if cls == "indecl":
        return {"1": w}
    if cls == "foreign_yi":
        return {"1": w, "2": w + "ho", "3": w + "mu", "4": w + "ho", "6": w + "m", "7": w + "m"}
    s = _FLEETING.get(w) or (w[:-2] + w[-1] if cls == "fleeting" else w)
    if person:
        return {"1": w, "2": s + "a", "3": s + "ovi", "4": s + "a", "6": s + "ovi", "7": s + "om"}
    loc = s + ("u" if cls in ("hard_k", "fleeting") and s[-1:] in "kgh" else "i" if cls == "soft" else "e")
    # inanimate genitives end in -a (zo Zvolena) or -u (z Popradu, do Egyptu, z Pekingu): "2b" for the analysis,
    # a surrogate is rendered with "2"
    return {"1": w, "2": s + "a", "2b": s + "u", "3": s + "u", "4": w, "6": loc, "7": s + "om"}


SLOVAK = Declension("sk", decline, word_class,
                    undo=("", "a", "o", "ý", "á", "í", "ia", "ová", "k", "h", "g", "ch"),
                    fleeting=(("k", "ek"), ("c", "ec"), ("Petr", "Peter"), ("Pavl", "Pavol")))
