"""Pipeline components by name: recognizers (incl. NER) and tokenizers register a factory once.

Why a registry: a project stores its pipeline as JSON that names components (``"patterns"``,
``{"kind": "nametag", "model": …}``, ``{"kind": "classifier", …}``); the pipeline looks the names
up here and never imports a concrete recognizer, NER adapter or the classifier itself.  A new
component plugs in with a decorator (spaCy style)::

    @register_recognizer("mine")
    def make_mine(entry: dict, language: str) -> Recognizer: ...

A component that loads data lazily at its first text (name lists, metadata) loads it in its
``warm_up()`` instead, which the pipeline calls on every component it builds.

The built-in components register themselves in one place, :mod:`psan.tool.detection.components`, which is
imported before the first registration or lookup (so a user's component of the same name,
registered later, replaces the built-in one and not vice versa).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from psan.tool.text.document import Recognizer, Sentence, Token

#: the module that registers the built-in components
BUILTINS_MODULE = "psan.tool.detection.components"


class Tokenizer(Protocol):
    """What a tokenizer component returns: an object with ``tokenize(text)``.

    One that sets ``tokens_clean = True`` promises tokens without whitespace or control
    characters, so the pipeline skips :func:`psan.tool.text.tokens.clean_tokens` for it.  One with a
    ``warm_up()`` method has it called when the pipeline is built, like a recognizer's
    (:meth:`psan.tool.text.document.Recognizer.warm_up`).
    """

    def tokenize(self, text: str) -> tuple[list[Token], list[Sentence]]: ...


class ComponentError(ValueError):
    """A pipeline config names an unknown or unavailable component."""


RecognizerFactory = Callable[[dict[str, Any], str], "Recognizer | list[Recognizer]"]
TokenizerFactory = Callable[[dict[str, Any], dict[str, Any]], Tokenizer]

_RECOGNIZERS: dict[str, RecognizerFactory] = {}
_TOKENIZERS: dict[str, TokenizerFactory] = {}
_builtins_loaded = False


def _load_builtins() -> None:
    """Import :data:`BUILTINS_MODULE` once (it calls the ``register_*`` functions below)."""
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True  # first: the module's own registrations come back here
        importlib.import_module(BUILTINS_MODULE)


def register_recognizer(name: str, factory: RecognizerFactory | None = None):  # noqa: ANN201 - decorator or factory
    """Register ``factory(entry, language) -> Recognizer | list[Recognizer]`` under a kind name.

    Usable directly or as a decorator (``@register_recognizer("mine")``); NER adapters are
    recognizers too (the config's ``ner`` and ``recognizers`` lists share these names).
    """
    _load_builtins()

    def deco(f: RecognizerFactory) -> RecognizerFactory:
        _RECOGNIZERS[name] = f
        return f
    return deco(factory) if factory is not None else deco


def register_tokenizer(name: str, factory: TokenizerFactory | None = None):  # noqa: ANN201 - decorator or factory
    """Register ``factory(entry, config) -> Tokenizer`` (an object with ``tokenize(text)``)."""
    _load_builtins()

    def deco(f: TokenizerFactory) -> TokenizerFactory:
        _TOKENIZERS[name] = f
        return f
    return deco(factory) if factory is not None else deco


def as_entry(entry: str | dict[str, Any]) -> dict[str, Any]:
    """A config entry as a dict: a bare name ``"patterns"`` means ``{"kind": "patterns"}``."""
    return {"kind": entry} if isinstance(entry, str) else dict(entry)


def _known(names: dict[str, Any]) -> str:
    return ", ".join(sorted(names)) or "(none)"


def recognizer_factory(name: object) -> RecognizerFactory:
    """The factory registered as recognizer kind ``name``; ComponentError listing the known kinds if none."""
    _load_builtins()
    if not isinstance(name, str) or name not in _RECOGNIZERS:
        raise ComponentError(f"unknown recognizer kind {name!r}; known: {_known(_RECOGNIZERS)}")
    return _RECOGNIZERS[name]


def tokenizer_factory(name: object) -> TokenizerFactory:
    """The factory registered as tokenizer ``name``; ComponentError listing the known tokenizers if none."""
    _load_builtins()
    if not isinstance(name, str) or name not in _TOKENIZERS:
        raise ComponentError(f"unknown tokenizer {name!r}; known: {_known(_TOKENIZERS)}")
    return _TOKENIZERS[name]


def registered() -> dict[str, list[str]]:
    """Names of the registered component kinds (for UIs and error messages)."""
    _load_builtins()
    return {"recognizers": sorted(_RECOGNIZERS), "tokenizers": sorted(_TOKENIZERS)}
