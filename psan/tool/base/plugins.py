"""A registry of named plugins whose built-in ones live in modules imported on first use.

Why: the file formats (:mod:`psan.tool.formats.files`) and the annotation formats (:mod:`psan.tool.formats.annotations`)
each register one object per module; importing those modules (lxml, pypdf, dkpro-cassis …) only when a format is
first asked for keeps ``import psan.tool`` cheap, and a later registration of the same name replaces the built-in.
"""
from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Generic, Protocol, TypeVar

__all__ = ["Named", "PluginRegistry"]


class Named(Protocol):
    name: str


T = TypeVar("T", bound=Named)


class PluginRegistry(Generic[T]):
    """Name → plugin, in registration order; ``builtins`` are modules of ``package`` that register theirs."""

    def __init__(self, package: str, builtins: Iterable[str]) -> None:
        self._package = package
        self._builtins = tuple(builtins)
        self._items: dict[str, T] = {}
        self._loaded = False

    def register(self, item: T) -> T:
        """Register ``item`` under its name (a later one of the same name replaces it)."""
        self._items[item.name] = item
        return item

    def items(self) -> dict[str, T]:
        """The registered plugins (the built-in modules imported the first time)."""
        if not self._loaded:
            self._loaded = True
            for module in self._builtins:
                importlib.import_module(f"{self._package}.{module}")
        return self._items
