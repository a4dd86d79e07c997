"""A recognized document's text, token offsets and sentence segments, cached per process.

Why: every annotation window and every decision needs token texts (the window's display, a word-type
rule's condition, the rule's text search and its verification).  Read as rows plus a ``substr`` of the
document text, that cost four or five statements per decision, each planned and executed by PostgreSQL
on the same two cores that serve 20 annotators.  Tokens and sentences change only with a new
recognition (:func:`psan.store.documents.save_recognized`), which sets ``recognized_at``; so one
``COPY`` per process and recognition serves every later request, checked by one primary-key lookup.

Memory: the text plus 8 bytes per token (two int32 offsets) plus the segment starts — about 20 MB for a
10^6-token document; the cache keeps the most recently used documents up to ``CACHE_MAX_TOKENS`` tokens
in all (always at least the last one, so a huge document is not reloaded on every request).
"""
from __future__ import annotations

import itertools
import threading
from array import array
from collections import OrderedDict
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from psan import db
from psan.store import sql
from psan.tool.document import Sentence
from psan.tool.rules import sentence_segments

__all__ = ["DocumentText", "document_text", "CACHE_MAX_TOKENS", "clear_cache"]

#: most tokens all cached documents of one process may hold together
CACHE_MAX_TOKENS = 3_000_000


@dataclass(slots=True)
class DocumentText:
    """Text and token offsets of one recognition of a document (``stamp`` = its ``recognized_at``)."""

    stamp: Any
    text: str
    #: character offsets of token ``i``: ``text[starts[i]:ends[i]]``
    starts: np.ndarray
    ends: np.ndarray
    #: sorted token indexes where a segment (a sentence or a gap between sentences) starts
    segment_starts: np.ndarray
    _folded: str | None = field(default=None)
    #: folded position -> original position, -1 inside a character folded to several (only when lengths differ)
    _fold_map: array | None = field(default=None)

    @property
    def token_count(self) -> int:
        return len(self.starts)

    def token(self, i: int) -> str:
        return self.text[self.starts[i]:self.ends[i]]

    def token_texts(self, first: int, end: int) -> list[str]:
        """Texts of tokens ``[first, end)`` (clipped to the document)."""
        text = self.text
        lo, hi = max(first, 0), min(end, self.token_count)
        return [text[s:e] for s, e in zip(self.starts[lo:hi].tolist(), self.ends[lo:hi].tolist(), strict=True)]

    def same_segment(self, first: int, end: int) -> bool:
        """Whether ``[first, end)`` crosses no segment boundary (a rule match never does)."""
        i = int(np.searchsorted(self.segment_starts, first, side="right"))
        return i >= len(self.segment_starts) or int(self.segment_starts[i]) >= end

    def tokens_at(self, positions: list[int]) -> list[int]:
        """Indexes of the tokens starting exactly at the given character offsets (others are dropped)."""
        if not positions or not self.token_count:
            return []
        wanted = np.asarray(positions, dtype=np.int64)
        idx = np.searchsorted(self.starts, wanted)
        inside = idx < self.token_count
        idx, wanted = idx[inside], wanted[inside]
        return idx[self.starts[idx] == wanted].tolist()

    def folded(self) -> tuple[str, array | None]:
        """The casefolded text and, if folding changed its length, the map back to original offsets."""
        if self._folded is None:
            folded = self.text.casefold()
            if len(folded) != len(self.text):
                # casefold is per character (no context), so every character's folding is contiguous
                fold_map = array("l", [-1]) * len(folded)
                for orig, pos in enumerate(itertools.accumulate((len(ch.casefold()) for ch in self.text),
                                                                initial=0)):
                    if orig < len(self.text):
                        fold_map[pos] = orig
                self._fold_map = fold_map
            self._folded = folded
        return self._folded, self._fold_map


_cache: OrderedDict[int, DocumentText] = OrderedDict()
_cache_lock = threading.Lock()


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def _load(conn, document_id: int, stamp: Any) -> DocumentText | None:
    row = db.query_one("SELECT text FROM document WHERE id = %s", (document_id,), conn)
    if row is None:
        return None
    offsets = sql.copy_integers(conn, "SELECT start_char, end_char FROM token WHERE document_id = %s ORDER BY idx",
                                (document_id,))
    starts = offsets[0::2].astype(np.int32)
    ends = offsets[1::2].astype(np.int32)
    bounds = sql.copy_integers(conn, "SELECT first_token, end_token FROM sentence WHERE document_id = %s "
                                     "ORDER BY idx", (document_id,)).tolist()
    sentences = [Sentence(a, b) for a, b in zip(bounds[0::2], bounds[1::2], strict=True)]
    # exactly the segments the rule matcher uses; it only needs the token count and the sentences
    shim = SimpleNamespace(tokens=range(len(starts)), sentences=sentences)
    segments = np.fromiter((first for first, _ in sentence_segments(shim)), dtype=np.int64)  # type: ignore[arg-type]
    return DocumentText(stamp, row["text"], starts, ends, segments)


def document_text(conn, document_id: int, stamp: Any = None) -> DocumentText | None:
    """The document's :class:`DocumentText`, from the cache while its recognition is unchanged.

    ``stamp``: the document's ``recognized_at`` when the caller has just read it (saves a lookup).
    ``None`` for a document that does not exist.  A document never recognized is read, not cached.
    """
    if stamp is None:
        row = db.query_one("SELECT recognized_at FROM document WHERE id = %s", (document_id,), conn)
        if row is None:
            return None
        stamp = row["recognized_at"]
    if stamp is not None:
        with _cache_lock:
            hit = _cache.get(document_id)
            if hit is not None and hit.stamp == stamp:
                _cache.move_to_end(document_id)
                return hit
    found = _load(conn, document_id, stamp)
    if found is not None and stamp is not None:
        with _cache_lock:
            _cache[document_id] = found
            _cache.move_to_end(document_id)
            total = sum(d.token_count for d in _cache.values())
            while total > CACHE_MAX_TOKENS and len(_cache) > 1:
                _, old = _cache.popitem(last=False)
                total -= old.token_count
    return found
