"""Deterministic random streams for surrogates.

Why: a project must map one entity to the same surrogate in every run and
every process, so the stream is seeded from a SHA-256 digest of the project
seed and the entity key — never from Python's per-process salted ``hash()``.
Surrogates are not secrets (the key is what must be protected), so
``random.Random`` is adequate here.
"""
from __future__ import annotations

import hashlib
import random


def digest(*parts: object) -> int:
    """Stable 64-bit integer from the parts (process independent)."""
    h = hashlib.sha256("\x1f".join(repr(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(h[:8], "big")


def stream(*parts: object) -> random.Random:
    """A ``random.Random`` seeded from ``digest(*parts)``."""
    return random.Random(digest(*parts))  # nosec B311
