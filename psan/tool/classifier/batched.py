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

from psan.tool.classifier.features import (
    _BOS,
    _EOS,
    BOW_AFTER,
    BOW_BEFORE,
    TokenView,
    _is_punct,
    _norm,
    _token_features,
    hash_features,
    short_shape,
)
from psan.tool.model import Sentence, Token

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
            for p in self.prefixes:
                add = self.lookup([hash_features([f"{p}={v}"]) for v in new])
                self.rows[p] = np.concatenate([self.rows[p], add])
        return out


class BatchScorer:
    """Static-feature logits of a document's tokens, batch by batch (see the module docstring)."""

    def __init__(self, columns: np.ndarray, weights: np.ndarray, lists: dict[str, frozenset[str]]) -> None:
        self.columns, self.weights, self.lists = columns, weights, lists
        self.k = weights.shape[1]
        self._words = _Table(self.lookup, ["bl", "br", *(p for p, _ in _UNIGRAM)], self.k)
        self._shapes = _Table(self.lookup, ["ss-1", "ss+1"], self.k)
        self._own: dict[tuple[str, bool], np.ndarray] = {}
        self._list_ctx: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._pairs: dict[str, np.ndarray] = {}
        self._bos = self._words.encode([_BOS])[0]
        self._eos = self._words.encode([_EOS])[0]
        self._shapes.encode([_BOS, _EOS])
        self._zero = np.zeros(self.k, dtype=np.float32)

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

    # ------------------------------------------------------------------ per-token groups
    def _own_rows(self, views: list[TokenView]) -> np.ndarray:
        """The token's own features (form, shape, affixes, flags, lists): one row per distinct (text, initial)."""
        cache, missing = self._own, {}
        for v in views:
            key = (v.text, v.sentence_initial)
            if key not in cache and key not in missing:
                missing[key] = v
        if missing:
            rows = self.lookup([hash_features(_token_features(v, self.lists)) for v in missing.values()])
            for key, row in zip(missing, rows, strict=True):
                cache[key] = row
        return np.stack([cache[(v.text, v.sentence_initial)] for v in views]) if views else np.zeros((0, self.k))

    def _list_rows(self, views: list[TokenView]) -> tuple[np.ndarray, np.ndarray]:
        """``list-1=…`` (seen from the next token) and ``list+1=…`` (from the previous one) of each token."""
        before, after = [], []
        for v in views:
            got = self._list_ctx.get(v.text)
            if got is None:
                kinds = self.lists.get(v.lower) if v.text[:1].isupper() else None
                if kinds:
                    got = (self.lookup([hash_features([f"list-1={k}" for k in sorted(kinds)])])[0],
                           self.lookup([hash_features([f"list+1={k}" for k in sorted(kinds)])])[0])
                else:
                    got = (self._zero, self._zero)
                self._list_ctx[v.text] = got
            before.append(got[0])
            after.append(got[1])
        return np.stack(before), np.stack(after)

    def _pair_rows(self, prefix: str, a: list[str], b: list[str]) -> np.ndarray:
        """Rows of ``prefix=a|b`` per token; distinct pairs hashed once per call (the cache is cleared by size)."""
        cache = self._pairs
        if len(cache) > 500_000:
            cache.clear()
        keys = [f"{prefix}={x}|{y}" for x, y in zip(a, b, strict=True)]
        missing = [key for key in dict.fromkeys(keys) if key not in cache]
        if missing:
            for key, row in zip(missing, self.lookup([hash_features([key]) for key in missing]), strict=True):
                cache[key] = row
        return np.stack([cache[key] for key in keys])

    def score(self, text: str, tokens: Sequence[Token], sentences: Sequence[Sentence]) -> np.ndarray:
        """Static logits (without intercept) of the tokens of ``sentences`` (consecutive, one batch).

        ``tokens`` are the document's; the rows are those of ``tokens[first:end]`` of the batch.
        """
        first = sentences[0].first_token
        views = _views(text, tokens, sentences)
        n = len(views)
        if not n:
            return np.zeros((0, self.k), dtype=np.float32)
        pos = np.empty(n, dtype=np.int64)  # position in the sentence
        length = np.empty(n, dtype=np.int64)  # that sentence's length
        for s in sentences:
            a, b = s.first_token - first, s.end_token - first
            pos[a:b] = np.arange(b - a)
            length[a:b] = b - a
        word_ids = self._words.encode([_norm(v.text) for v in views])
        shapes = [short_shape(v.text) for v in views]
        shape_ids = self._shapes.encode(shapes)
        idx = np.arange(n)

        def shifted(ids: np.ndarray, d: int, bos: int, eos: int) -> np.ndarray:
            inside = (pos + d >= 0) & (pos + d < length)
            return np.where(inside, ids[np.clip(idx + d, 0, n - 1)], bos if d < 0 else eos)

        out = self._own_rows(views).astype(np.float32, copy=True)
        rows = self._words.rows
        for d in range(1, BOW_BEFORE + 1):
            out += rows["bl"][shifted(word_ids, -d, self._bos, self._eos)]
        for d in range(1, BOW_AFTER + 1):
            out += rows["br"][shifted(word_ids, d, self._bos, self._eos)]
        for prefix, d in _UNIGRAM:
            out += rows[prefix][shifted(word_ids, d, self._bos, self._eos)]
        words = list(self._words.ids)  # id → string (insertion order)
        for prefix, d1, d2 in _PAIRS:
            w1 = shifted(word_ids, d1, self._bos, self._eos) if d1 else word_ids
            w2 = shifted(word_ids, d2, self._bos, self._eos) if d2 else word_ids
            out += self._pair_rows(prefix, [words[i] for i in w1], [words[i] for i in w2])
        sbos, seos = self._shapes.ids[_BOS], self._shapes.ids[_EOS]
        s_prev, s_next = shifted(shape_ids, -1, sbos, seos), shifted(shape_ids, 1, sbos, seos)
        out += self._shapes.rows["ss-1"][s_prev] + self._shapes.rows["ss+1"][s_next]
        shape_names = list(self._shapes.ids)
        out += self._pair_rows("ss-1+1", [shape_names[i] for i in s_prev], [shape_names[i] for i in s_next])
        if self.lists:
            before, after = self._list_rows(views)
            has_prev, has_next = pos > 0, pos < length - 1
            out[has_prev] += before[idx[has_prev] - 1]
            out[has_next] += after[idx[has_next] + 1]
        return out


def _views(text: str, tokens: Sequence[Token], sentences: Sequence[Sentence]) -> list[TokenView]:
    """Token views of one batch, as :func:`~.features.token_views` gives them for the whole document."""
    initial = set()
    for s in sentences:
        i = s.first_token
        while i < s.end_token - 1 and _is_punct(tokens[i].text(text)):
            i += 1
        initial.add(i)
    out = []
    for tok in tokens[sentences[0].first_token:sentences[-1].end_token]:
        word = tok.text(text)
        out.append(TokenView(word, word.lower(), tok.id in initial))
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

