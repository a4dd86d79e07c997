"""The project's risk model: the probability that a sentence hides a mention a person had to mark by hand.

Why learned per project, and only once the project has shown enough: what hides a personal mention depends on
the kind of text (a profession in a court case, a town in a meeting), and a model trained on too few hand marks
would route text away from reading on no evidence.  Until the project has read :data:`MIN_READ_SENTENCES`
sentences, :meth:`RiskModel.predict` says 1 for every sentence: everything is read.  A project that has read them
but found fewer than :data:`MIN_HIT_SENTENCES` sentences with a hand mark (its recognizers miss almost nothing: a
meeting's 2,000 sentences with 5 hand marks) has too few hits to learn *where* they hide, but its reading shows
*how rarely*: every unread sentence gets the hit rate per read sentence, the same for all.  Either way the QA
sample of the unread text certifies the release.

Why the rate's estimate and not an upper bound of it: routing weighs the misses it *expects* in unread text
against the reading that finds them (:func:`psan.tool.risk.route`), as it does with the learned model's
probabilities, which are estimates too; the certainty comes from the QA sample's bound, and a sample that finds
more than expected raises every risk after it (:func:`psan.tool.risk.sample_calibration`).  A 95 % bound used as
the expectation made meetings read 23,000 tokens of routed text to find 2 hand marks.  The estimate is the
posterior mean under Jeffreys' prior, ``(hits + 1/2) / read``, which is not 0 when no hit was found yet.

Why calibrated by cross-validation: the model learns single words ("w=novak"), so on the sentences it was fitted on
it is surer than anywhere else, and its fitted intercept makes every sentence it has not seen look safer than it
is (on court decisions the unread text held two to four times the misses it predicted).  Routing reads until the
*expected* misses left fit a budget, so the probabilities must mean what they say: they are mapped by a sigmoid
fitted on predictions for sentences each fold's model did not learn from (scikit-learn's
``CalibratedClassifierCV``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from psan.tool.risk.features import SentenceView, sentence_features

__all__ = ["MIN_HIT_SENTENCES", "MIN_READ_SENTENCES", "RiskModel"]

#: sentences read before the model may route anything away from reading ...
MIN_READ_SENTENCES = 200
#: ... of which at least this many held a mention marked by hand
MIN_HIT_SENTENCES = 10
#: hashed feature space (words of any vocabulary)
FEATURES = 2 ** 18
#: folds of the cross-validation that calibrates the probabilities (see :meth:`RiskModel.fit`)
CALIBRATION_FOLDS = 5


class UsedColumns(TransformerMixin, BaseEstimator):
    """Keeps the hashed feature columns that any training sentence uses, drops the others.

    Why: the solver's cost grows with the columns, and of the 2^18 hashed ones a project's sentences use a few
    thousand; a column no training sentence uses gets weight 0 under the L2 penalty, so dropping it changes no
    prediction (the fit is 30-50 times faster, the probabilities the same to the solver's tolerance).
    """

    def fit(self, x: Any, y: Any = None) -> UsedColumns:  # noqa: ARG002 - scikit-learn's signature
        self.columns_ = np.flatnonzero(x.getnnz(axis=0))
        return self

    def transform(self, x: Any) -> Any:
        return x[:, self.columns_]


class RiskModel:
    """Logistic regression on :func:`sentence_features`, or "read everything" while it has too little data."""

    def __init__(self) -> None:
        self._model = None
        #: the risk of every sentence while hits are too rare to learn from (see the module docstring)
        self._rate: float | None = None
        self.trained_on = 0
        self.hits = 0

    @property
    def ready(self) -> bool:
        return self._model is not None or self._rate is not None

    def fit(self, sentences: Sequence[SentenceView], hit: Sequence[bool]) -> RiskModel:
        """Learn from read sentences; ``hit``: the sentence held a mention a person marked by hand."""
        self.trained_on, self.hits = len(sentences), sum(map(bool, hit))
        self._model, self._rate = None, None
        if self.trained_on < MIN_READ_SENTENCES or self.hits == self.trained_on:
            return self
        if self.hits < MIN_HIT_SENTENCES:
            self._rate = min(1.0, (self.hits + 0.5) / self.trained_on)
            return self
        from sklearn.calibration import CalibratedClassifierCV
        from sklearn.feature_extraction import FeatureHasher
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        model = make_pipeline(FeatureHasher(n_features=FEATURES, alternate_sign=False), UsedColumns(),
                              CalibratedClassifierCV(LogisticRegression(solver="liblinear", max_iter=1000),
                                                     method="sigmoid", cv=CALIBRATION_FOLDS, ensemble=False))
        model.fit([sentence_features(s) for s in sentences], [bool(h) for h in hit])
        self._model = model
        return self

    def explain(self, sentence: SentenceView, limit: int = 3) -> list[str]:
        """The features that raise this sentence's risk most (names of :func:`sentence_features`), strongest first.

        Why: a person shown a sentence to read should see why ("the word 'Novak12' no span covers"), and an
        admin why the model routes what it routes.  Empty while the model is not ready (then everything is read).
        """
        if self._model is None:
            return []
        hasher, used = self._model[0], self._model[1]
        regression = self._model[-1].calibrated_classifiers_[0].estimator
        feats = sentence_features(sentence)
        names = [n for n in feats if n not in ("bias",)]
        if not names:
            return []
        columns = used.transform(hasher.transform([{n: feats[n]} for n in names]))
        weights = columns @ regression.coef_[0]
        ranked = sorted(zip(weights, names, strict=True), key=lambda wn: -wn[0])
        return [name for weight, name in ranked[:limit] if weight > 0]

    def predict(self, sentences: Sequence[SentenceView]) -> list[float]:
        """Per sentence, the probability that it hides a hand-marked mention (1.0 while not ready; the hit rate,
        the same for all, while hits are too rare to learn from)."""
        if self._model is None:
            return [1.0 if self._rate is None else self._rate] * len(sentences)
        if not sentences:
            return []
        probabilities = self._model.predict_proba([sentence_features(s) for s in sentences])[:, 1]
        return [float(p) for p in probabilities]
