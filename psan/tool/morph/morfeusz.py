"""The Morfeusz2 analyser of Polish (an optional dependency), loaded once per process.

Why one loader: the gazetteer, the lemmatizer and the Polish declension share the analyser (it loads a
dictionary).
"""
from __future__ import annotations

from functools import cache
from typing import Any


@cache
def morfeusz() -> Any:
    """The Morfeusz2 analyser (optional dependency), or ``None``."""
    try:
        import morfeusz2
    except ImportError:
        return None
    try:
        return morfeusz2.Morfeusz()
    except Exception:  # noqa: BLE001 - a broken dictionary means "not available"
        return None


def morfeusz_available() -> bool:
    return morfeusz() is not None
