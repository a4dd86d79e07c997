"""Batched, vectorised scoring of the static features: the classifier's prediction in bounded memory.

Why: holding ~27 hashed feature ids per token as Python lists took 3.3 GB for a 1M-token document
and hashing every feature string of every token ran at ~21k tokens/s.  The model is linear, so a
token's logits are the *sum* of its features' weight rows and each group of features can be summed
separately.  Every group depends on few distinct values — the token's own text, one context word,
one pair of context words, one pair of word shapes — so each distinct value is hashed and looked up
once (per batch of sentences, or once per call for the word tables) and the per-token sums are
NumPy gathers.  The feature strings are exactly those of :mod:`.features`, so models trained
before keep working and give the same logits (up to float32 summation order).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from psan.tool.detection.classifier.features import (
    BOS,
    BOW_AFTER,
    BOW_BEFORE,
    EOS,
    TokenView,
    hash_features,
    is_punct,
    norm,
    short_shape,
    token_features,
    token_lemma,
)
from psan.tool.text.document import Sentence, Token

#: tokens scored at once (a batch ends at a sentence end): bounds the arrays to a few MB
BATCH_TOKENS = 16_384

#: unigram context features: prefix → offset of the context word (``bl``/``br`` are bags over offsets)
_UNIGRAM = (("w-1", -1), ("w+1", 1), ("w-2", -2), ("w+2", 2))
#: word-pair context features: prefix → offsets of the two words joined by ``|``
_PAIRS = (("b-", -2, -1), ("b+", 1, 2), ("b0-", -1, 0), ("b0+", 0, 1))


class _Table:
    """Distinct strings → a row id, with one weight-sum row per (prefix, string) computed on first sight."""

    def __init__(self, lookup: Callable[[list[list[int]]], np.ndarray], prefixes: Sequence[str], k: int) -> None:
        self.lookup, self.prefixes, self.k = lookup, tuple(prefixes), k
        self.ids: dict[str, int] = {}
        self.names: list[str] = []  # id → string
        self.rows = {p: np.zeros((0, k), dtype=np.float32) for p in self.prefixes}

    def encode(self, values: Sequence[str]) -> np.ndarray:
        ids, new = self.ids, []
        out = np.empty(len(values), dtype=np.int64)
        for j, v in enumerate(values):
            i = ids.get(v)
            if i is None:
                i = ids[v] = len(ids)
                new.append(v)
            out[j] = i
        if new:
            self.names.extend(new)
            for p in self.prefixes:
                add = self.lookup([hash_features([f"{p}={v}"]) for v in new])
                self.rows[p] = np.concatenate([self.rows[p], add])
        return out


class BatchScorer:
    """Static-feature logits of a document's tokens, batch by batch (see the module docstring).

    Per distinct token text (``tid``) the scorer keeps: its context-word id, its short-shape id, the
    weight rows of its own features (not sentence-initial / initial) and of the ``list±1`` features
    its neighbours see.  Per token only the text's id is looked up in Python; the rest is NumPy.
    """

    def __init__(self, columns: np.ndarray, weights: np.ndarray, lists: dict[str, frozenset[str]],
                 lemmatizer: Callable[[str], str] | None = None) -> None:
        self.columns, self.weights, self.lists = columns, weights, lists
        #: the lemma features of models trained with ``use_lemmas`` (see features.token_views)
        self.lemmatizer = lemmatizer
        self.k = k = weights.shape[1]
        self._words = _Table(self.lookup, ["bl", "br", *(p for p, _ in _UNIGRAM)], k)
        self._shapes = _Table(self.lookup, ["ss-1", "ss+1"], k)
        self._bos, self._eos = (int(x) for x in self._words.encode([BOS, EOS]))
        self._sbos, self._seos = (int(x) for x in self._shapes.encode([BOS, EOS]))
        self._text_ids: dict[str, int] = {}
        self._norm = np.zeros(0, dtype=np.int64)
        self._shape = np.zeros(0, dtype=np.int64)
        self._own = np.zeros((0, 2, k), dtype=np.float32)
        self._list_before = np.zeros((0, k), dtype=np.float32)
        self._list_after = np.zeros((0, k), dtype=np.float32)
        self._pairs: dict[str, tuple[dict[int, int], list[np.ndarray]]] = {}

    def lookup(self, feature_ids: list[list[int]]) -> np.ndarray:
        """Summed weight rows of each list of hashed feature ids (unknown ids weigh nothing)."""
        out = np.zeros((len(feature_ids), self.k), dtype=np.float32)
        if not len(self.columns):
            return out
        lengths = np.fromiter((len(f) for f in feature_ids), dtype=np.int64, count=len(feature_ids))
        if not lengths.sum():
            return out
        flat = np.fromiter((i for f in feature_ids for i in f), dtype=np.int64, count=int(lengths.sum()))
        pos = np.minimum(np.searchsorted(self.columns, flat), len(self.columns) - 1)
        hit = self.columns[pos] == flat
        row = np.repeat(np.arange(len(feature_ids)), lengths)
        np.add.at(out, row[hit], self.weights[pos[hit]])
        return out

    def _encode_texts(self, texts: Sequence[str]) -> np.ndarray:
        """Token texts → tids, computing the per-text rows of texts not seen before."""
        ids, new = self._text_ids, []
        out = np.empty(len(texts), dtype=np.int64)
        for j, t in enumerate(texts):
            i = ids.get(t)
            if i is None:
                i = ids[t] = len(ids)
                new.append(t)
            out[j] = i
        if new:
            self._norm = np.concatenate([self._norm, self._words.encode([norm(t) for t in new])])
            self._shape = np.concatenate([self._shape, self._shapes.encode([short_shape(t) for t in new])])
            lemmas = [token_lemma(t, self.lemmatizer) for t in new]
            own = [self.lookup([hash_features(token_features(TokenView(t, t.lower(), initial, lemma), self.lists))
                                for t, lemma in zip(new, lemmas, strict=True)]) for initial in (False, True)]
            self._own = np.concatenate([self._own, np.stack(own, axis=1)])
            before, after = [], []
            for t in new:
                kinds = self.lists.get(t.lower()) if t[:1].isupper() else None
                before.append(hash_features([f"list-1={kind}" for kind in sorted(kinds)]) if kinds else [])
                after.append(hash_features([f"list+1={kind}" for kind in sorted(kinds)]) if kinds else [])
            self._list_before = np.concatenate([self._list_before, self.lookup(before)])
            self._list_after = np.concatenate([self._list_after, self.lookup(after)])
        return out

    def _pair_rows(self, prefix: str, a: np.ndarray, b: np.ndarray, names: list[str]) -> np.ndarray:
        """Rows of ``prefix=a|b`` per token; each distinct pair (of ids into ``names``) is hashed once."""
        ids, chunks = self._pairs.setdefault(prefix, ({}, []))
        if len(ids) > 1_000_000:  # bound the memory of very varied documents
            ids.clear()
            chunks.clear()
        keys = a * (1 << 32) + b
        distinct, inverse = np.unique(keys, return_inverse=True)
        rows = np.empty(len(distinct), dtype=np.int64)
        new_keys, new_pos = [], []
        for j, key in enumerate(distinct.tolist()):
            i = ids.get(key)
            if i is None:
                new_keys.append(key)
                new_pos.append(j)
            else:
                rows[j] = i
        if new_keys:
            base = sum(len(c) for c in chunks)
            feats = [hash_features([f"{prefix}={names[key >> 32]}|{names[key & 0xFFFFFFFF]}"]) for key in new_keys]
            chunks.append(self.lookup(feats))
            for n, (key, j) in enumerate(zip(new_keys, new_pos, strict=True)):
                ids[key] = rows[j] = base + n
            if len(chunks) > 1:
                chunks[:] = [np.concatenate(chunks)]
        return chunks[0][rows[inverse]]

    def score(self, text: str, tokens: Sequence[Token], sentences: Sequence[Sentence]) -> np.ndarray:
        """Static logits (without intercept) of the tokens of ``sentences`` (consecutive, one batch).

        ``tokens`` are the document's; the rows are those of ``tokens[first:end]`` of the batch.
        """
        first, end = sentences[0].first_token, sentences[-1].end_token
        n = end - first
        if n <= 0:
            return np.zeros((0, self.k), dtype=np.float32)
        texts = [text[t.start:t.end] for t in tokens[first:end]]
        tids = self._encode_texts(texts)
        pos = np.zeros(n, dtype=np.int64)  # position in the sentence
        length = np.ones(n, dtype=np.int64)  # that sentence's length
        initial = np.zeros(n, dtype=np.int64)
        for s in sentences:
            a, b = s.first_token - first, s.end_token - first
            pos[a:b] = np.arange(b - a)
            length[a:b] = b - a
            i = a
            while i < b - 1 and is_punct(texts[i]):
                i += 1
            if a < b:
                initial[i] = 1
        idx = np.arange(n)

        def shifted(ids: np.ndarray, d: int, bos: int, eos: int) -> np.ndarray:
            inside = (pos + d >= 0) & (pos + d < length)
            return np.where(inside, ids[np.clip(idx + d, 0, n - 1)], bos if d < 0 else eos)

        out = self._own[tids, initial]
        word_ids, shape_ids = self._norm[tids], self._shape[tids]
        rows = self._words.rows
        for d in range(1, BOW_BEFORE + 1):
            out += rows["bl"][shifted(word_ids, -d, self._bos, self._eos)]
        for d in range(1, BOW_AFTER + 1):
            out += rows["br"][shifted(word_ids, d, self._bos, self._eos)]
        for prefix, d in _UNIGRAM:
            out += rows[prefix][shifted(word_ids, d, self._bos, self._eos)]
        words = self._words.names
        for prefix, d1, d2 in _PAIRS:
            w1 = shifted(word_ids, d1, self._bos, self._eos) if d1 else word_ids
            w2 = shifted(word_ids, d2, self._bos, self._eos) if d2 else word_ids
            out += self._pair_rows(prefix, w1, w2, words)
        s_prev = shifted(shape_ids, -1, self._sbos, self._seos)
        s_next = shifted(shape_ids, 1, self._sbos, self._seos)
        out += self._shapes.rows["ss-1"][s_prev] + self._shapes.rows["ss+1"][s_next]
        out += self._pair_rows("ss-1+1", s_prev, s_next, self._shapes.names)
        if self.lists:
            has_prev, has_next = pos > 0, pos < length - 1
            out[has_prev] += self._list_before[tids[idx[has_prev] - 1]]
            out[has_next] += self._list_after[tids[idx[has_next] + 1]]
        return out


def batches(sentences: Sequence[Sentence], size: int = BATCH_TOKENS) -> list[tuple[int, int]]:
    """Ranges ``[i, j)`` of sentence indexes holding about ``size`` tokens each (whole sentences)."""
    out, start, count = [], 0, 0
    for i, s in enumerate(sentences):
        count += s.end_token - s.first_token
        if count >= size:
            out.append((start, i + 1))
            start, count = i + 1, 0
    if start < len(sentences):
        out.append((start, len(sentences)))
    return out

