"""Declension of names: the paradigms that render a surrogate in the original's form, and their inverse.

Why one package: every language's declension lives here, beside the analysis that reads a mention's case
(:mod:`psan.tool.morph.analysis`), instead of among the surrogate modules.  Czech has its own rules
(:mod:`.inflect_cs`), Slovak and Slovenian share the suffix machinery of :mod:`.suffix` (:mod:`.lang_sk`,
:mod:`.lang_sl`), Polish asks Morfeusz2 (:mod:`.inflect_pl`).  :func:`declension_for` is the registry of the
suffix-rule languages, so adding one touches no shared code; each entry offers ``analyse``, ``inflect`` and
``word_class`` with the signatures of :mod:`.inflect_cs`.
"""
from __future__ import annotations

from typing import Any

from psan.tool.morph.declension import inflect_cs
from psan.tool.morph.declension.lang_sk import SLOVAK
from psan.tool.morph.declension.lang_sl import SLOVENIAN

DECLENSIONS: dict[str, Any] = {"cs": inflect_cs, "sk": SLOVAK, "sl": SLOVENIAN}


def declension_for(language: str) -> Any | None:
    """The declension rules of ``language`` (None: the language's names are not declined by suffix rules)."""
    return DECLENSIONS.get(language)
