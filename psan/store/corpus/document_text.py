"""A recognized document's text, token offsets and sentence segments, cached per process.

Why: every annotation window and every decision needs token texts (the window's display, a word-type
rule's condition, the rule's text search and its verification).  Read as rows plus a ``substr`` of the
document text, that cost four or five statements per decision, each planned and executed by PostgreSQL
on the same two cores that serve 20 annotators.  Tokens and sentences change only with a new
recognition (:func:`psan.store.corpus.documents.save_recognized`), which sets ``recognized_at``; so one
load per process and recognition serves every later request, checked by one primary-key lookup.  The
load reads the text and the packed offset and sentence arrays ``save_recognized`` stores beside the rows
(``document_arrays``: one row, milliseconds, where 10^6 token rows took a second); a document recognized
before those existed is read from the rows.

Memory: the text plus 8 bytes per token (two int32 offsets) plus the segment starts — about 20 MB for a
10^6-token document, 16 MB more once a word-type rule is searched in it (:meth:`DocumentText.occurrences`);
the cache keeps the most recently used documents up to ``CACHE_MAX_TOKENS`` tokens in all (always at
least the last one, so a huge document is not reloaded on every request).
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from psan.runtime import db, sql
from psan.tool.decisions.rules import sentence_segments
from psan.tool.text.document import Sentence

__all__ = ["DocumentText", "document_text", "cached", "segment_starts", "CACHE_MAX_TOKENS", "clear_cache"]

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
    #: the recognized entities in ``first_token, id`` order, read on first use (:meth:`entities_starting_in`):
    #: their first tokens and the columns ``first_token, end_token, type, category, score`` as lists
    _entities: tuple[np.ndarray, list[list[Any]]] | None = field(default=None)
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
            # as columns (arrays), not rows: 10^5 dicts for a large document cost a cold window 0.1 s
            row = db.query_one(_ENTITIES, {"doc": document_id, "stamp": self.stamp}, conn)
            if row is None or row["first_token"] is None:  # none, or recognized again meanwhile: read the table
                return None
            columns = [row[k] for k in _ENTITY_COLUMNS]
            self._entities = (np.asarray(columns[0], dtype=np.int64), columns)
        firsts, columns = self._entities
        lo, hi = (int(np.searchsorted(firsts, x, side="left")) for x in (first, end))
        return [dict(zip(_ENTITY_COLUMNS, values, strict=True))
                for values in zip(*(c[lo:hi] for c in columns), strict=True)]

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
        key = np.uint64(word_hash(wanted))
        return order[int(np.searchsorted(hashes, key, side="left")):int(np.searchsorted(hashes, key, side="right"))]

    def _token_index(self, fold: bool) -> tuple[np.ndarray, np.ndarray]:
        index = self._index.get(fold)
        if index is None:
            with self._index_lock:
                index = self._index.get(fold)
                if index is None:
                    hashes = word_hashes(self.text, self.starts, self.ends, fold)
                    order = np.argsort(hashes, kind="stable")  # stable: equal words stay in text order
                    index = self._index[fold] = (hashes[order], order)
        return index


# --- word hashes: a polynomial hash over code points, computed for all tokens at once with NumPy ---------
_MASK = (1 << 64) - 1
_BASE = 0x100000001B3  # odd, so invertible modulo 2**64
_BASE_INVERSE = pow(_BASE, -1, 1 << 64)
#: tokens hashed per NumPy pass (bounds the temporary arrays: ~50 bytes per character of a chunk)
_CHUNK_TOKENS = 1 << 16


def word_hash(word: str) -> int:
    """``sum((ord(c) + 1) * BASE**k)`` over the word's characters, modulo 2**64 (what :func:`word_hashes` gives)."""
    h, power = 0, 1
    for ch in word:
        h = (h + (ord(ch) + 1) * power) & _MASK
        power = (power * _BASE) & _MASK
    return h


def _powers(base: int, n: int) -> np.ndarray:
    """``base**0 … base**(n-1)`` modulo 2**64."""
    out = np.full(n, base, dtype=np.uint64)
    if n:
        out[0] = 1
    return np.cumprod(out, dtype=np.uint64)


def word_hashes(text: str, starts: np.ndarray, ends: np.ndarray, fold: bool = False) -> np.ndarray:
    """:func:`word_hash` of every token ``text[starts[i]:ends[i]]`` (casefolded with ``fold``), as uint64.

    Why vectorised: a generator of 10^6 slices and ``hash`` calls took seconds in the first request of a
    process that searched a word-type rule in a large document.  Prefix sums of ``(c + 1) * BASE**i`` over
    the text give every token's hash as ``(H[end] - H[start]) * BASE**-start`` (wrapping uint64 arithmetic).
    Casefolding goes character by character when no character of the text folds to several (the usual
    case); the tokens holding such a character are hashed in Python.
    """
    n = len(starts)
    out = np.empty(n, dtype=np.uint64)
    if n == 0:
        return out
    original, expand = text, False
    if fold:
        folded = text.casefold()
        if len(folded) != len(text):  # some character folds to several ("ß" → "ss"): mark those
            several = "".join(sorted(c for c in set(text) if len(c.casefold()) != 1))
            folded = re.sub(f"[{re.escape(several)}]", "\x00", text).casefold()  # re: 10x str.translate
            expand = True
        text = folded
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    starts64, ends64 = starts.astype(np.int64), ends.astype(np.int64)
    for lo in range(0, n, _CHUNK_TOKENS):
        hi = min(lo + _CHUNK_TOKENS, n)
        c0, c1 = int(starts64[lo:hi].min()), int(ends64[lo:hi].max())
        values = codes[c0:c1].astype(np.uint64) + np.uint64(1)
        prefix = np.zeros(c1 - c0 + 1, dtype=np.uint64)
        np.cumsum(values * _powers(_BASE, c1 - c0), out=prefix[1:])
        s, e = starts64[lo:hi] - c0, ends64[lo:hi] - c0
        out[lo:hi] = (prefix[e] - prefix[s]) * _powers(_BASE_INVERSE, c1 - c0)[s]
    if expand:
        marked = np.flatnonzero(codes == 0)
        tokens = np.searchsorted(starts64, marked, side="right") - 1
        for i in np.unique(tokens[(tokens >= 0) & (marked < ends64[np.maximum(tokens, 0)])]).tolist():
            out[i] = word_hash(original[int(starts64[i]):int(ends64[i])].casefold())
    return out


#: every entity of the document, only while its recognition is still the cached one
_ENTITY_COLUMNS = ("first_token", "end_token", "type", "category", "score")
_ENTITIES = ("SELECT array_agg(ne.first_token ORDER BY ne.first_token, ne.id) AS first_token, "
             "array_agg(ne.end_token ORDER BY ne.first_token, ne.id) AS end_token, "
             "array_agg(ne.type ORDER BY ne.first_token, ne.id) AS type, "
             "array_agg(ne.category ORDER BY ne.first_token, ne.id) AS category, "
             "array_agg(ne.score ORDER BY ne.first_token, ne.id) AS score "
             "FROM named_entity ne WHERE ne.document_id = %(doc)s AND EXISTS (SELECT 1 FROM document d "
             "WHERE d.id = %(doc)s AND d.recognized_at = %(stamp)s)")

#: the text and, for documents recognized since they exist, the packed token and sentence arrays
_TEXT_AND_ARRAYS = ("SELECT d.text, a.token_starts, a.token_ends, a.sentence_firsts, a.sentence_ends FROM document d "
                    "LEFT JOIN document_arrays a ON a.document_id = d.id WHERE d.id = %s")

_cache: OrderedDict[int, DocumentText] = OrderedDict()
_cache_lock = threading.Lock()
#: one lock per document being loaded (so concurrent requests wait for one load, not start their own)
_loading: dict[int, threading.Lock] = {}


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def _load(conn, document_id: int, stamp: Any) -> DocumentText | None:
    row = db.query_one(_TEXT_AND_ARRAYS, (document_id,), conn)
    if row is None:
        return None
    if row["token_starts"] is not None:  # packed with the token rows (psan.store.corpus.documents.save_recognized)
        starts, ends, firsts, sentence_ends = (np.frombuffer(row[k], dtype="<i4").astype(np.int32, copy=False)
                                               for k in ("token_starts", "token_ends", "sentence_firsts",
                                                         "sentence_ends"))
    else:  # recognized before the arrays existed: the rows
        offsets = sql.copy_integers(conn, "SELECT start_char, end_char FROM token WHERE document_id = %s "
                                          "ORDER BY idx", (document_id,))
        starts, ends = offsets[0::2].astype(np.int32), offsets[1::2].astype(np.int32)
        bounds = sql.copy_integers(conn, "SELECT first_token, end_token FROM sentence WHERE document_id = %s "
                                         "ORDER BY idx", (document_id,))
        firsts, sentence_ends = bounds[0::2], bounds[1::2]
    firsts, sentence_ends = firsts.astype(np.int64), sentence_ends.astype(np.int64)
    return DocumentText(stamp, row["text"], starts, ends, segment_starts(firsts, sentence_ends, len(starts)),
                        firsts, sentence_ends)


def segment_starts(firsts: np.ndarray, ends: np.ndarray, n: int) -> np.ndarray:
    """First tokens of :func:`psan.tool.decisions.rules.sentence_segments` of ``n`` tokens and these sentences.

    Why not that function: it wants sentence objects, 10^5 of them for a large document (a third of a
    second on a cold load).  Sentences in order, disjoint and inside the document (what recognition
    stores) take the vectorised path; anything else goes through the function itself.
    """
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if len(firsts) == 0:
        return np.zeros(1, dtype=np.int64)
    ordered = (bool(np.all(firsts < ends)) and bool(np.all(firsts[1:] >= ends[:-1]))
               and int(firsts[0]) >= 0 and int(ends[-1]) <= n)
    if not ordered:
        shim = SimpleNamespace(tokens=range(n), sentences=[Sentence(a, b) for a, b in
                                                           zip(firsts.tolist(), ends.tolist(), strict=True)])
        return np.fromiter((first for first, _ in sentence_segments(shim)),  # type: ignore[arg-type]
                           dtype=np.int64)
    gaps_before = np.concatenate(([0], ends[:-1]))  # where the gap before each sentence starts
    gap = firsts > gaps_before
    out = np.empty(2 * len(firsts) + 1, dtype=np.int64)
    # per sentence: [gap start if there is a gap] then the sentence's first token; then the tail gap
    out[0:2 * len(firsts):2] = np.where(gap, gaps_before, -1)
    out[1:2 * len(firsts):2] = firsts
    out[-1] = ends[-1] if ends[-1] < n else -1
    return out[out >= 0]


def cached(document_id: int, stamp: Any) -> DocumentText | None:
    """The cached :class:`DocumentText` of this recognition (``stamp``), or ``None``: no database access.

    Why: a window needs only its own range; a process that has not loaded a large document yet answers
    it from range reads (:mod:`psan.store.annotation.window_content`) and loads the whole document after
    the response, instead of making the annotator wait for it.
    """
    if stamp is None:
        return None
    with _cache_lock:
        hit = _cache.get(document_id)
        if hit is not None and hit.stamp == stamp:
            _cache.move_to_end(document_id)
            return hit
    return None


def document_text(conn, document_id: int, stamp: Any = None) -> DocumentText | None:
    """The document's :class:`DocumentText`, from the cache while its recognition is unchanged.

    ``stamp``: the document's ``recognized_at`` when the caller has just read it (saves a lookup).
    ``None`` for a document that does not exist.  A document never recognized is read, not cached.
    Threads of one process that need the same document at once wait for one load.
    """
    if stamp is None:
        row = db.query_one("SELECT recognized_at FROM document WHERE id = %s", (document_id,), conn)
        if row is None:
            return None
        stamp = row["recognized_at"]
    if stamp is None:
        return _load(conn, document_id, stamp)
    hit = cached(document_id, stamp)
    if hit is not None:
        return hit
    with _cache_lock:
        loading = _loading.setdefault(document_id, threading.Lock())
    with loading:
        hit = cached(document_id, stamp)  # another thread may have loaded it meanwhile
        if hit is not None:
            return hit
        found = _load(conn, document_id, stamp)
        if found is not None:
            with _cache_lock:
                _cache[document_id] = found
                _cache.move_to_end(document_id)
                total = sum(d.token_count for d in _cache.values())
                while total > CACHE_MAX_TOKENS and len(_cache) > 1:
                    _, old = _cache.popitem(last=False)
                    total -= old.token_count
        with _cache_lock:
            _loading.pop(document_id, None)
    return found
