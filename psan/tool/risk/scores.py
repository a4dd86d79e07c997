"""A risk model's scores of sentence views, kept between plans of one project.

Why: a project that reviews by risk is planned again on every reading window a person asks for, and scoring
every unread sentence of a large project (its features, then the model) cost seconds each time.  Between two
plans few sentences change (a decision, a window shown); a sentence whose *key* (what its view depends on) is
unchanged gets the same score from the same model, so only new keys are scored.
"""
from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence

from psan.tool.risk.features import SentenceView
from psan.tool.risk.model import RiskModel

__all__ = ["ScoreMemo"]


class ScoreMemo:
    """Scores of one model by key; a different model starts afresh.  Safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._model: RiskModel | None = None
        self._scores: dict[Hashable, float] = {}

    def scores(self, model: RiskModel, views: Sequence[SentenceView], keys: Sequence[Hashable | None]) -> list[float]:
        """``model.predict(views)``, scoring only the views whose key this model has not scored (a key of ``None``
        is scored every time).  Keys no longer asked for are dropped once they outnumber the ones asked for."""
        with self._lock:
            known = self._scores if self._model is model else {}
        todo = [i for i, key in enumerate(keys) if key is None or key not in known]
        fresh = dict(zip(todo, model.predict([views[i] for i in todo]), strict=True))
        out = [fresh[i] if i in fresh else known[key] for i, key in enumerate(keys)]
        with self._lock:
            if self._model is not model:
                self._model, self._scores = model, {}
            kept = self._scores
            kept.update((keys[i], score) for i, score in fresh.items() if keys[i] is not None)
            if len(kept) > 2 * len(keys) + 1024:
                self._scores = {key: score for key, score in zip(keys, out, strict=True) if key is not None}
        return out
