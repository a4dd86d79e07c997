"""A recognized document's text, token offsets and sentence segments, cached per process.

Why: every annotation window and every decision needs token texts (the window's display, a word-type
rule's condition, the rule's text search and its verification).  Read as rows plus a ``substr`` of the
document text, that cost four or five statements per decision, each planned and executed by PostgreSQL
on the same two cores that serve 20 annotators.  Tokens and sentences change only with a new
recognition (:func:`psan.store.corpus.documents.save_recognized`), which sets ``recognized_at``; so one
``COPY`` per process and recognition serves every later request, checked by one primary-key lookup.

Memory: the text plus 8 bytes per token (two int32 offsets) plus the segment starts — about 20 MB for a
10^6-token document, 16 MB more once a word-type rule is searched in it (:meth:`DocumentText.occurrences`);
the cache keeps the most recently used documents up to ``CACHE_MAX_TOKENS`` tokens in all (always at
least the last one, so a huge document is not reloaded on every request).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from psan.runtime import db, sql
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
    #: the sentences' first and end tokens, in order
    sentence_firsts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sentence_ends: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: the recognized entities (``first_token, end_token, type, category, score`` in ``first_token, id``
    #: order) and their first tokens, read on first use (:meth:`entities_starting_in`)
    _entities: tuple[np.ndarray, list[dict[str, Any]]] | None = field(default=None)
    #: by case folding: (token text hashes sorted, the token indexes in that order), built on first use
    _index: dict[bool, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    _index_lock: threading.Lock = field(default_factory=threading.Lock)

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

    def sentences_overlapping(self, first: int, end: int) -> list[tuple[int, int]]:
        """Sentences from the one holding ``first`` (or the last one starting before it) up to ``end``."""
        lo = max(int(np.searchsorted(self.sentence_firsts, first, side="right")) - 1, 0)
        hi = int(np.searchsorted(self.sentence_firsts, end, side="left"))
        return list(zip(self.sentence_firsts[lo:hi].tolist(), self.sentence_ends[lo:hi].tolist(), strict=True))

    def entities_starting_in(self, conn, document_id: int, first: int, end: int) -> list[dict[str, Any]] | None:
        """Entities starting in ``[first, end)`` from this recognition; ``None`` if it is no longer current.

        Why cached: every window and every decision's answer shows them; ``named_entity`` changes only
        with a new recognition or new model predictions, which both set a new ``recognized_at``.
        """
        if self._entities is None:
            rows = db.query(_ENTITIES, {"doc": document_id, "stamp": self.stamp}, conn)
            if not rows:  # no entities, or recognized again meanwhile: the caller reads the table
                return None
            self._entities = (np.asarray([r["first_token"] for r in rows], dtype=np.int64), rows)
        firsts, rows = self._entities
        lo, hi = (int(np.searchsorted(firsts, x, side="left")) for x in (first, end))
        return [dict(r) for r in rows[lo:hi]]

    def same_segment(self, first: int, end: int) -> bool:
        """Whether ``[first, end)`` crosses no segment boundary (a rule match never does)."""
        i = int(np.searchsorted(self.segment_starts, first, side="right"))
        return i >= len(self.segment_starts) or int(self.segment_starts[i]) >= end

    def occurrences(self, word: str, fold: bool = False) -> list[int]:
        """Ascending indexes of the tokens whose text is ``word`` (both casefolded with ``fold``).

        Why an index: a word-type rule's search scanned the whole text (3 ms for 10^6 tokens, on every
        decision); the index (16 bytes per token, built once per document and process, lazily) answers
        in microseconds, whatever the document's length.  Hash collisions are filtered out here.
        """
        wanted = word.casefold() if fold else word
        return [i for i in self._same_hash(wanted, fold).tolist()
                if (self.token(i).casefold() if fold else self.token(i)) == wanted]

    def count(self, word: str, fold: bool = False) -> int:
        """How many tokens may be ``word`` (an upper bound, collisions included: for choosing the rarest)."""
        return len(self._same_hash(word.casefold() if fold else word, fold))

    def _same_hash(self, wanted: str, fold: bool) -> np.ndarray:
        """Indexes (ascending) of the tokens whose (folded) text hashes like ``wanted``."""
        hashes, order = self._token_index(fold)
        key = hash(wanted)
        return order[int(np.searchsorted(hashes, key, side="left")):int(np.searchsorted(hashes, key, side="right"))]

    def _token_index(self, fold: bool) -> tuple[np.ndarray, np.ndarray]:
        index = self._index.get(fold)
        if index is None:
            with self._index_lock:
                index = self._index.get(fold)
                if index is None:
                    text = self.text
                    words = (text[a:b] for a, b in zip(self.starts.tolist(), self.ends.tolist(), strict=True))
                    hashes = np.fromiter((hash(w.casefold() if fold else w) for w in words), dtype=np.int64,
                                         count=self.token_count)
                    order = np.argsort(hashes, kind="stable")  # stable: equal words stay in text order
                    index = self._index[fold] = (hashes[order], order)
        return index


#: every entity of the document, only while its recognition is still the cached one
_ENTITIES = ("SELECT ne.first_token, ne.end_token, ne.type, ne.category, ne.score FROM named_entity ne "
             "WHERE ne.document_id = %(doc)s AND EXISTS (SELECT 1 FROM document d WHERE d.id = %(doc)s "
             "AND d.recognized_at = %(stamp)s) ORDER BY ne.first_token, ne.id")

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
    return DocumentText(stamp, row["text"], starts, ends, segments,
                        np.asarray(bounds[0::2], dtype=np.int64), np.asarray(bounds[1::2], dtype=np.int64))


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
