"""What the NER adapters share: the load error, XML-safe text and chunking of long texts.

Why apart from the package: the adapters (:mod:`psan.tool.detection.ner.nametag`,
:mod:`psan.tool.detection.ner.spacy_ner`)
import these, and the package imports the adapters; kept in ``__init__`` they formed an import cycle.
"""
from __future__ import annotations

import re

from psan.tool.text.tokens import XML_FORBIDDEN


class ModelLoadError(RuntimeError):
    """A configured NER model cannot be loaded (missing file, wrong format, package not installed)."""


_FORBIDDEN_RE = re.compile(f"[{XML_FORBIDDEN}]")


def sanitize(text: str) -> str:
    """Replace XML-forbidden characters (incl. lone surrogates) by spaces, keeping every offset.

    Why: native libraries cannot encode lone surrogates and would make tokens of control chars.
    """
    return _FORBIDDEN_RE.sub(" ", text)


def chunks(text: str, limit: int = 100_000) -> list[tuple[int, str]]:
    """Split a long text at line ends into pieces of at most ``limit`` chars: ``(offset, piece)``.

    Why: NER memory grows with the input; spaCy also refuses texts over ``max_length``.
    """
    out: list[tuple[int, str]] = []
    pos = 0
    n = len(text)
    while pos < n:
        end = min(pos + limit, n)
        if end < n:
            cut = text.rfind("\n", pos, end)
            if cut <= pos:
                cut = text.rfind(" ", pos, end)
            end = cut + 1 if cut > pos else end
        out.append((pos, text[pos:end]))
        pos = end
    return out
