"""The token classifier: multinomial logistic regression with greedy left-to-right decoding.

Why logistic regression and not a CRF (sklearn-crfsuite):

* **partial labels** – the app learns from annotators' decisions, which cover only part of a
  document (see :func:`~psan.tool.detection.classifier.data.examples_from_decisions` with
  ``undecided="exclude"``); LR trains on any subset of tokens, a linear-chain CRF needs every
  label of a sequence;
* **calibrated per-token probabilities** for the suggestion score ("model, p = 0.93") straight from
  the softmax, and a single threshold to trade precision for recall;
* **safe, dependency-light storage and prediction** – the model is a weight matrix, stored as plain
  arrays (no pickle, see :mod:`.serialize`) and applied with NumPy alone; scikit-learn is needed
  only for training;
* it is what Tacita used (91.8 % recall), with the previous-class features standing in for the
  CRF's transitions: trained with the gold classes of the previous three tokens, predicted greedily.

Classes are ``O`` plus the coarse :class:`~psan.tool.text.document.Category` names (IO encoding, no B-/I-):
the app needs "private or not" and a category for display; two different entities of one category
touching without even a comma between them are rare, and merging them costs nothing in masking.
"""
from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from psan.tool.detection.classifier.batched import BATCH_TOKENS, BatchScorer, batches
from psan.tool.detection.classifier.data import SpanLike, TrainingDoc, as_training_doc, category_label
from psan.tool.detection.classifier.features import (
    HISTORY,
    N_FEATURES,
    OUTSIDE,
    hash_features,
    history_features,
    name_list_index,
    static_features,
    token_views,
)
from psan.tool.detection.classifier.serialize import pack, unpack
from psan.tool.text.document import Category, CharSpan, Document, Token
from psan.tool.text.tokens import tokenize

MODEL_TYPE = "MODEL"
#: the source of a project's own model's predictions (the app replaces them whenever that model changes)
MODEL_SOURCE = "model"
#: the source of a pre-trained classifier run as a pipeline recognizer (a detection like any other: it stays)
PRETRAINED_SOURCE = "classifier"
#: every source whose spans a classifier predicted (type :data:`MODEL_TYPE`)
CLASSIFIER_SOURCES = (MODEL_SOURCE, PRETRAINED_SOURCE)


def lemmatizer_for(language: str) -> Callable[[str], str] | None:
    """The language's lemmatizer for lemma features, None where there is none (en, sv …)."""
    from psan.tool.morph.lemma import get_lemmatizer, identity_lemmatizer
    lem = get_lemmatizer(language) if language else identity_lemmatizer
    return None if lem is identity_lemmatizer else lem


@dataclass(slots=True)
class TokenPrediction:
    """Per-token result: the token, the decided class and p(private) = 1 − p(O)."""

    token: Token
    label: str
    p_private: float
    sentence: int = 0


@dataclass(slots=True)
class _Batch:
    """Predictions of one batch: ``index`` into ``tokens`` of the tokens inside sentences, with their
    sentence number, class index and p(private)."""

    tokens: Sequence[Token]
    index: np.ndarray
    sentence: np.ndarray
    label: np.ndarray
    p_private: np.ndarray


def token_labels(text: str, tokens: Sequence[Token], spans: Iterable[tuple[int, int, str]]) -> list[str]:
    """Gold class of every token: the category of the longest span overlapping it, else ``O``.

    Longest first because containers (CNEC ``P`` ⊃ ``pf``) carry the category of the whole mention.
    """
    labels = [OUTSIDE] * len(tokens)
    starts = [t.start for t in tokens]
    import bisect
    for start, end, label in sorted(spans, key=lambda s: -(s[1] - s[0])):
        cat = category_label(label)
        i = max(0, bisect.bisect_right(starts, start) - 1)
        while i < len(tokens) and tokens[i].start < end:
            if tokens[i].end > start and labels[i] == OUTSIDE:
                labels[i] = cat
            i += 1
    return labels


def _included(tokens: Sequence[Token], include: list[tuple[int, int]] | None) -> list[bool]:
    if include is None:
        return [True] * len(tokens)
    return [any(t.start < e and s < t.end for s, e in include) for t in tokens]


@dataclass
class TokenClassifier:
    """A trained model: classes, sparse weights over the hashed feature space, and metadata."""

    language: str
    classes: list[str]
    columns: np.ndarray  # sorted hashed feature ids with a non-zero weight (int32)
    weights: np.ndarray  # (len(columns), len(classes)) float32
    intercept: np.ndarray  # (len(classes),) float32
    threshold: float = 0.5
    meta: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ training
    @classmethod
    def train(cls, docs: Iterable[TrainingDoc | tuple[str, Sequence[SpanLike]]], language: str = "",
              *, c: float = 1.0, max_iter: int = 50, tol: float = 1e-3, threshold: float = 0.5,
              use_lists: bool = True, use_lemmas: bool = True) -> TokenClassifier:
        """Fit a model on documents (``TrainingDoc`` or ``(text, spans)``); records the training time.

        ``c`` is the inverse L2 regularisation strength of :class:`sklearn.linear_model.LogisticRegression`;
        ``use_lemmas`` adds lemma features in languages with a lemmatizer (cs, sk, sl, pl; recorded in
        ``meta`` so that prediction computes the same features; older models have none).
        """
        from scipy.sparse import csr_matrix
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.linear_model import LogisticRegression

        started = time.perf_counter()
        lists = name_list_index(language) if use_lists and language else {}
        lemmatizer = lemmatizer_for(language) if use_lemmas else None
        indptr, indices, labels, weights = [0], [], [], []
        n_docs = 0
        for item in docs:
            doc = as_training_doc(item)
            n_docs += 1
            tokens, sentences = tokenize(doc.text, language or None)
            if not tokens:
                continue
            gold = token_labels(doc.text, tokens, doc.spans)
            rows = _included(tokens, doc.include)
            static = static_features(token_views(doc.text, tokens, sentences, lemmatizer), sentences, lists)
            for sent in sentences:
                for i in range(sent.first_token, sent.end_token):
                    if not rows[i]:
                        continue
                    prev = gold[max(sent.first_token, i - HISTORY):i]
                    indices.extend(hash_features(static[i] + history_features(prev)))
                    indptr.append(len(indices))
                    labels.append(gold[i])
                    weights.append(doc.weight)
        if not labels:
            raise ValueError("no training tokens")
        if OUTSIDE not in labels or len(set(labels)) < 2:
            raise ValueError("training data needs both private and public tokens")
        classes = sorted(set(labels), key=lambda c_: (c_ != OUTSIDE, c_))  # "O" first, then categories
        # fit over the features that occur: a compact column space is several times faster than 2^20 columns
        used, compact = np.unique(np.asarray(indices, dtype=np.int64), return_inverse=True)
        x = csr_matrix((np.ones(len(indices), dtype=np.float64), compact.astype(np.int32),
                        np.asarray(indptr, dtype=np.int64)), shape=(len(labels), len(used)))
        x.sum_duplicates()
        y = np.asarray([classes.index(lab) for lab in labels])
        # SAGA: on these sparse binary features it reaches a usable optimum ~10x faster than L-BFGS
        lr = LogisticRegression(C=c, max_iter=max_iter, tol=tol, solver="saga", random_state=0)  # reproducible
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # recorded in meta["converged"] instead
            lr.fit(x, y, sample_weight=np.asarray(weights, dtype=np.float64))
        coef = lr.coef_  # (k, F), or (1, F) for two classes
        intercept = lr.intercept_
        if coef.shape[0] == 1:  # binary: softmax over (0, z) equals the sigmoid
            coef = np.vstack([np.zeros_like(coef), coef])
            intercept = np.concatenate([[0.0], intercept])
        # lr.classes_ == range(len(classes)): every class occurs in y by construction
        keep = np.abs(coef).max(axis=0) > 1e-6
        cols = used[keep].astype(np.int32)  # sorted, since np.unique sorts
        seconds = time.perf_counter() - started
        meta = {"trained_at": datetime.now(UTC).isoformat(timespec="seconds"), "train_seconds": round(seconds, 2),
                "documents": n_docs, "tokens": len(labels),
                "positive_tokens": int(sum(lab != OUTSIDE for lab in labels)), "c": c, "use_lists": bool(lists),
                "use_lemmas": lemmatizer is not None,
                "n_features": N_FEATURES, "converged": bool(lr.n_iter_.max() < max_iter)}
        return cls(language, classes, cols, coef[:, keep].T.astype(np.float32), intercept.astype(np.float32),
                   threshold, meta)

    @property
    def train_seconds(self) -> float:
        return float(self.meta.get("train_seconds", 0.0))

    # ------------------------------------------------------------------ prediction
    def predict_batches(self, text: str, threshold: float | None = None,
                        batch_tokens: int = BATCH_TOKENS) -> Iterator[_Batch]:
        """Greedy left-to-right classes, one batch of whole sentences at a time (bounded memory).

        Static features are scored vectorised (:class:`~.batched.BatchScorer`); the history features
        are first assumed to be "all previous tokens public" for every token at once, and only the
        (few) tokens within :data:`HISTORY` tokens after a private one are re-decided one by one with
        their real history — the same greedy decoding as before, in a fraction of the time.
        """
        threshold = self.threshold if threshold is None else threshold
        tokens, sentences = tokenize(text, self.language or None)
        if not tokens:
            return
        lists = name_list_index(self.language) if self.meta.get("use_lists", True) and self.language else {}
        lemmatizer = lemmatizer_for(self.language) if self.meta.get("use_lemmas") else None
        scorer = BatchScorer(self.columns, self.weights, lists, lemmatizer)
        outside = self.classes.index(OUTSIDE)
        history: dict[tuple[str, ...], np.ndarray] = {}

        def h(key: tuple[str, ...]) -> np.ndarray:
            row = history.get(key)
            if row is None:
                row = history[key] = scorer.lookup([hash_features(history_features(list(key)))])[0]
            return row

        assumed = np.stack([h((OUTSIDE,) * m) for m in range(HISTORY + 1)])
        for a, b in batches(sentences, batch_tokens):
            sents = [s for s in sentences[a:b] if s.first_token < s.end_token]
            if not sents:
                continue
            first, end = sents[0].first_token, sents[-1].end_token
            base = scorer.score(text, tokens, sents) + self.intercept
            pos = np.zeros(end - first, dtype=np.int64)
            sent_no = np.zeros(end - first, dtype=np.int64)
            inside = np.zeros(end - first, dtype=bool)
            for n_sent, s in zip(range(a, b), sentences[a:b], strict=True):
                pos[s.first_token - first:s.end_token - first] = np.arange(s.end_token - s.first_token)
                sent_no[s.first_token - first:s.end_token - first] = n_sent
                inside[s.first_token - first:s.end_token - first] = True
            z = base + assumed[np.minimum(pos, HISTORY)]
            z = np.exp(z - z.max(axis=1, keepdims=True))
            p = z / z.sum(axis=1, keepdims=True)
            p_private = 1.0 - p[:, outside]
            p[:, outside] = -1.0
            labels = np.where(p_private >= threshold, p.argmax(axis=1), outside)
            lab, pp, positions = labels.tolist(), p_private.tolist(), pos.tolist()
            last = -HISTORY - 1  # batch index of the last private token of the current sentence
            for i, k in enumerate(positions):
                if k == 0:
                    last = -HISTORY - 1
                if i - last <= HISTORY:  # the assumed all-public history is wrong: decide with the real one
                    key = tuple(self.classes[lab[j]] for j in range(max(i - HISTORY, i - k), i))
                    zz = base[i] + h(key)
                    zz = np.exp(zz - zz.max())
                    q = zz / zz.sum()
                    pp[i] = float(1.0 - q[outside])
                    if pp[i] >= threshold:
                        q[outside] = -1.0
                        lab[i] = int(q.argmax())
                    else:
                        lab[i] = outside
                if lab[i] != outside:
                    last = i
            keep = np.flatnonzero(inside)
            yield _Batch(tokens[first:end], keep, sent_no[keep], np.asarray(lab)[keep], np.asarray(pp)[keep])

    def predict_tokens(self, text: str, threshold: float | None = None) -> list[TokenPrediction]:
        """Greedy left-to-right classes of the tokens of ``text`` (previous predictions feed the next)."""
        out: list[TokenPrediction] = []
        for batch in self.predict_batches(text, threshold):
            for j, n_sent, label, p in zip(batch.index.tolist(), batch.sentence.tolist(), batch.label.tolist(),
                                           batch.p_private.tolist(), strict=True):
                out.append(TokenPrediction(batch.tokens[j], self.classes[label], p, n_sent))
        return out

    def predict_spans(self, text: str, doc: Document | None = None, threshold: float | None = None) -> list[CharSpan]:
        """Private spans: runs of adjacent tokens of one predicted category within a sentence.

        ``score`` is the mean p(private) of the run's tokens.  ``doc`` is accepted for the Recognizer
        interface but the model always uses its own tokenization (the one it was trained on).
        Built batch by batch: no per-token objects for the whole document.
        """
        spans: list[CharSpan] = []
        outside = self.classes.index(OUTSIDE)
        for batch in self.predict_batches(text, threshold):
            index, sent, label, prob = (batch.index.tolist(), batch.sentence.tolist(), batch.label.tolist(),
                                        batch.p_private.tolist())
            n = len(index)
            i = 0
            while i < n:
                if label[i] == outside:
                    i += 1
                    continue
                j = i + 1
                while j < n and label[j] == label[i] and sent[j] == sent[i]:
                    j += 1
                score = float(np.mean(prob[i:j]))
                spans.append(CharSpan(batch.tokens[index[i]].start, batch.tokens[index[j - 1]].end, MODEL_TYPE,
                                      Category(self.classes[label[i]]), MODEL_SOURCE, round(score, 4)))
                i = j
        return spans

    # ------------------------------------------------------------------ storage
    def to_bytes(self, key: bytes | None = None) -> bytes:
        """Serialize (no pickle); ``key`` makes the digest an HMAC (see :mod:`.serialize`)."""
        meta = {"kind": "psan.tool.classifier.TokenClassifier", "language": self.language, "classes": self.classes,
                "threshold": self.threshold, "meta": self.meta}
        return pack(meta, {"columns": self.columns, "weights": self.weights, "intercept": self.intercept}, key)

    @classmethod
    def from_bytes(cls, data: bytes, key: bytes | None = None) -> TokenClassifier:
        """Load bytes written by :meth:`to_bytes` (checks magic, version, digest and array shapes)."""
        from psan.tool.detection.classifier.serialize import ModelFormatError
        meta, arrays = unpack(data, key)
        try:
            classes = [str(c) for c in meta["classes"]]
            columns = arrays["columns"].astype(np.int32, copy=False)
            weights = arrays["weights"].astype(np.float32, copy=False)
            intercept = arrays["intercept"].astype(np.float32, copy=False)
        except KeyError as err:
            raise ModelFormatError(f"model lacks {err}") from err
        if (OUTSIDE not in classes or any(c != OUTSIDE and c not in Category.__members__ for c in classes)
                or weights.shape != (len(columns), len(classes)) or intercept.shape != (len(classes),)
                or columns.ndim != 1 or (len(columns) and (columns.min() < 0 or columns.max() >= N_FEATURES))
                or np.any(np.diff(columns) <= 0)):
            raise ModelFormatError("inconsistent model arrays")
        return cls(str(meta.get("language", "")), classes, columns, weights, intercept,
                   float(meta.get("threshold", 0.5)), dict(meta.get("meta", {})))

    def save(self, path: str, key: bytes | None = None) -> None:
        with open(path, "wb") as fh:
            fh.write(self.to_bytes(key))

    @classmethod
    def load(cls, path: str, key: bytes | None = None) -> TokenClassifier:
        with open(path, "rb") as fh:
            return cls.from_bytes(fh.read(), key)
