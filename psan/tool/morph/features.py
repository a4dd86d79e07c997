"""UD morphological features of a mention (the last word of a name), as the surrogate is rendered with them."""
from __future__ import annotations

from dataclasses import dataclass

#: UD case values in the traditional order of the Czech cases (1 nominative … 7 instrumental)
CASES = ("Nom", "Gen", "Dat", "Acc", "Voc", "Loc", "Ins")
#: paradigm slot (case number of :mod:`psan.tool.morph.declension.inflect_cs`) ↔ UD case
CASE_OF_SLOT = {str(i + 1): c for i, c in enumerate(CASES)}
SLOT_OF_CASE = {c: s for s, c in CASE_OF_SLOT.items()}
#: Morfeusz2 (NKJP) tag values ↔ UD
PL_CASE = {"nom": "Nom", "gen": "Gen", "dat": "Dat", "acc": "Acc", "voc": "Voc", "loc": "Loc", "inst": "Ins"}
PL_CASE_OF = {v: k for k, v in PL_CASE.items()}
PL_NUMBER = {"sg": "Sing", "pl": "Plur"}


@dataclass(frozen=True, slots=True)
class Features:
    """Case, gender, number and animacy in UD values ("" where unknown)."""

    case: str = ""
    gender: str = ""
    number: str = ""
    animacy: str = ""

    def as_dict(self) -> dict[str, str | None]:
        """The UD feature names and values (``None`` where unknown), as the CLI and the key record them."""
        return {"Case": self.case or None, "Gender": self.gender or None, "Number": self.number or None,
                "Animacy": self.animacy or None}

    @property
    def slot(self) -> str:
        """The paradigm slot of the case ("" when the case is unknown)."""
        return SLOT_OF_CASE.get(self.case, "")

    @property
    def short_gender(self) -> str:
        """'m'/'f' (or '') as the surrogate modules spell gender."""
        return {"Masc": "m", "Fem": "f"}.get(self.gender, "")


def ud_gender(short: str) -> str:
    """'m'/'f' → Masc/Fem ('' otherwise)."""
    return {"m": "Masc", "f": "Fem", "n": "Neut"}.get(short, "")
