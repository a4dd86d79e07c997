"""Which texts a pre-trained classifier has seen: digests of its training documents, kept in its metadata.

Why: a classifier trained on a corpus finds nearly every name of that corpus (the Slovak recipe's model, trained on
sk-dev, reached recall 1.0 on sk-dev and 0.96 on documents it had not seen), so an evaluation on the same documents
is optimistic without saying so.  The training command records a digest of each training text; an evaluation asks
how many of its documents the model has seen and reports it.  A digest is the first 16 hex digits of the text's
SHA-256: it names a text without holding any of it.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["DIGESTS_KEY", "text_digest", "training_digests", "seen_texts"]

#: the metadata key of the sorted digests of the training texts
DIGESTS_KEY = "document_digests"


def text_digest(text: str) -> str:
    """The digest of one text (see the module docstring)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def training_digests(texts: Iterable[str]) -> list[str]:
    """The sorted, distinct digests of training texts, as :data:`DIGESTS_KEY` stores them."""
    return sorted({text_digest(t) for t in texts})


def seen_texts(meta: Mapping[str, Any], texts: Iterable[str]) -> int | None:
    """How many of ``texts`` a model with metadata ``meta`` was trained on; ``None``: the model does not say (it was
    trained before digests were recorded, or not by the training command)."""
    digests = meta.get(DIGESTS_KEY)
    if not isinstance(digests, list):
        return None
    known = set(digests)
    return sum(text_digest(t) in known for t in texts)
