"""psan.tool: the automatic part of psan, usable without the web application.

Recognition (tokens, sentences, named entities, patterns) produces a
:class:`~psan.tool.text.document.Document`; rules vote on spans; decisions and labels
turn a document into pseudonymized output.  Nothing here imports Flask,
Celery or psycopg2, so the library runs from the command line or inside any
other application.

Sub-packages by concern, each importing only those before it (lowest first): ``base`` (the plugin registry),
``text`` (documents, categories, tokens, sections, language), ``words`` (word and name lists), ``morph``,
``entities``, ``decisions`` (rules, voting, suggestions, windows, regions), ``formats``, ``models``, ``risk``,
``detection`` (the pipeline and its components, ``ner``, ``recognizers``, ``classifier``), ``release`` (output
modes, the key, the access log), ``surrogates`` and ``cli`` (``psan-tool``).
"""
from __future__ import annotations

import importlib
from typing import Any

#: the public API: ``from psan.tool import Pipeline, entity_regions, pseudonymize …``, each name from its home
_PUBLIC = {
    "Pipeline": "psan.tool.detection.pipeline",
    "Document": "psan.tool.text.document",
    "Category": "psan.tool.text.document",
    "entity_regions": "psan.tool.decisions.regions",
    "tag": "psan.tool.release.output",
    "remove": "psan.tool.release.output",
    "pseudonymize": "psan.tool.release.output",
    "restore": "psan.tool.release.output",
    "SurrogateReplacer": "psan.tool.surrogates",
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    """Import a public name on first use: ``import psan.tool`` stays cheap for code that needs one sub-package."""
    if name not in _PUBLIC:
        raise AttributeError(f"module 'psan.tool' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value
    return value
