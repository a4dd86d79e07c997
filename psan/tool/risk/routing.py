"""Which unread sentences a person reads in full, and which are left to the QA sample.

Why a cost and not a threshold: every sentence left unread must be certified by the QA sample, and the misses it
may hide make that sample larger and likelier to fail.  Reading the riskiest sentences first (most expected
misses per token read) lowers the misses left; the cut is where the tokens read plus the tokens the QA sample is
expected to read until it certifies (:func:`psan.tool.risk.bound.sample_plan`) are fewest.  Nothing is tuned:
the risks, the target and the sentences' lengths are the project's own.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from psan.tool.risk.bound import CONFIDENCE, sample_plan

__all__ = ["CUTS", "Routing", "route"]

#: cuts tried on a first, even grid, then again between the best one's neighbours (a cost to compute, not a tuning)
CUTS = 48


@dataclass(frozen=True, slots=True)
class Routing:
    """Indexes of the sentences to read, and the expected misses left in the others."""

    read: tuple[int, ...]
    expected_missed: float


def route(risks: Sequence[float], mentions: int, target: float, confidence: float = CONFIDENCE,
          costs: Sequence[float] | None = None) -> Routing:
    """Read the sentences with most expected misses per token first, as far as that lowers the expected reading.

    ``risks``: per unread sentence, the misses it is expected to hide; ``mentions``: the project's masked
    mentions; ``confidence``: what the next QA sample is judged at; ``costs``: tokens a person reads of each
    (default: 1 each).
    """
    n = len(risks)
    if n == 0:
        return Routing((), 0.0)
    risk = np.clip(np.asarray(risks, dtype=float), 0.0, None)
    cost = np.ones(n) if costs is None else np.maximum(np.asarray(costs, dtype=float), 1.0)
    order = np.lexsort((np.arange(n), -risk, -risk / cost))  # ties: riskier, then earlier
    left = np.concatenate(([float(risk.sum())], float(risk.sum()) - np.cumsum(risk[order])))
    read_tokens = np.concatenate(([0.0], np.cumsum(cost[order])))
    total_tokens = float(cost.sum())

    @cache  # the finer grid shares cuts with the first
    def expected(k: int) -> float:
        rest = n - k
        if rest == 0:
            return read_tokens[k]
        rate = max(float(left[k]), 0.0) / rest
        _, sentences = sample_plan(rest, mentions, target, confidence, rate)
        return read_tokens[k] + sentences * (total_tokens - read_tokens[k]) / rest

    cuts = np.unique(np.linspace(0, n, min(n + 1, CUTS)).round().astype(int))
    def rank(k: int) -> tuple[float, bool, int]:
        # a sample as costly as reading everything left is read instead: a person sees it in context
        return expected(int(k)), k != n, k

    best = min(cuts, key=rank)
    at = int(np.searchsorted(cuts, best))
    lo, hi = int(cuts[max(at - 1, 0)]), int(cuts[min(at + 1, len(cuts) - 1)])
    finer = np.unique(np.linspace(lo, hi, min(hi - lo + 1, CUTS)).round().astype(int))
    best = int(min(finer, key=rank))
    return Routing(tuple(sorted(int(i) for i in order[:best])), max(float(left[best]), 0.0))
