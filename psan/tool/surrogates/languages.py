"""Which declension rules a language's name surrogates use (Czech, Slovak, Slovenian).

Why a registry of its own: the Slovak and Slovenian rules live in their own modules
(:mod:`.lang_sk`, :mod:`.lang_sl`) and :mod:`.names` only asks here, so adding a language touches
no shared code.  Each entry offers ``analyse``, ``inflect`` and ``word_class`` with the signatures of
:mod:`.inflect_cs`.
"""
from __future__ import annotations

from typing import Any

from psan.tool.surrogates import inflect_cs
from psan.tool.surrogates.lang_sk import SLOVAK
from psan.tool.surrogates.lang_sl import SLOVENIAN

DECLENSIONS: dict[str, Any] = {"cs": inflect_cs, "sk": SLOVAK, "sl": SLOVENIAN}


def declension_for(language: str) -> Any | None:
    """The declension rules of ``language`` (None: the language's names are not declined by suffix rules)."""
    return DECLENSIONS.get(language)
