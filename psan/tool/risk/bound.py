"""What a QA sample of the unread text certifies: a one-sided 95 % upper bound on the share of missed mentions.

The reviewer reads each sampled sentence in full and counts the mentions nobody had marked.  With ``k`` found
in ``n`` sentences, the exact Poisson upper bound of the mean per sentence is ``chi2.ppf(0.95, 2k + 2) / 2n``;
times the unread sentences not sampled it bounds the mentions still missed, and over all mentions (masked plus
those) it bounds their share.  The sample is stratified by risk with proportional allocation, so the pooled
count estimates the whole population and the riskier sentences are never left out by chance.

A project may draw again after a sample failed (its routed text read in between).  Each further look is a
further chance of a lucky sample, so the ``k``-th sample is judged at the confidence
:func:`sequential_confidence` gives: the error rates ``α·6/(π²k²)`` of all looks sum to at most ``α``, whatever
the number of samples drawn.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence

from scipy.stats import chi2

__all__ = ["CONFIDENCE", "STRATA", "missed_share_bound", "missed_upper", "risk_strata", "sample_size",
           "sequential_confidence", "stratified_sample"]

CONFIDENCE = 0.95
#: risk strata of the sample (thirds of the unread sentences by risk)
STRATA = 3
#: misses the default sample size allows for while still reaching the target
PLANNED_MISSES = 1


def sequential_confidence(look: int, confidence: float = CONFIDENCE) -> float:
    """The confidence the ``look``-th sample of one project (1, 2, …) is judged at, so that the chance of any
    false certificate over all the samples it may draw stays within ``1 - confidence``."""
    look = max(int(look), 1)
    return 1 - (1 - confidence) * 6 / (math.pi ** 2 * look * look)


def missed_upper(found: int, sampled: int, population: int, confidence: float = CONFIDENCE) -> float:
    """Upper bound on the mentions still missed in the ``population - sampled`` unread sentences."""
    rest = max(population - sampled, 0)
    if rest == 0:
        return 0.0
    if sampled <= 0:
        return math.inf
    return float(chi2.ppf(confidence, 2 * found + 2) / 2 / sampled * rest)


def missed_share_bound(found: int, sampled: int, population: int, mentions: int,
                       confidence: float = CONFIDENCE) -> float:
    """Upper bound on the share of all mentions that the release still misses (0 when nothing is unread)."""
    upper = missed_upper(found, sampled, population, confidence)
    if upper == 0:
        return 0.0
    if math.isinf(upper) or mentions + upper <= 0:
        return 1.0
    return upper / (mentions + upper)


def sample_size(population: int, mentions: int, target: float, confidence: float = CONFIDENCE,
                miss_rate: float = 0.0) -> int:
    """The smallest sample of the ``population`` unread sentences whose expected misses still certify ``target``.

    ``miss_rate``: the misses expected per unread sentence (the project's risk model, or what its last sample
    found); a sample planned for fewer misses than it then finds fails, and each failed sample is read for
    nothing but the misses it fixed.  At least :data:`PLANNED_MISSES` are planned for (at most all sentences).
    """
    if population <= 0:
        return 0
    allowed = target / (1 - target) * max(mentions, 1)  # missed mentions the target allows

    def certifies(n: int) -> bool:
        expected = max(PLANNED_MISSES, math.ceil(max(miss_rate, 0.0) * n))
        return missed_upper(expected, n, population, confidence) <= allowed
    # the bound of the expected misses falls as the sample grows (their rate times the rest, plus less chance)
    lo, hi = 1, population
    while lo < hi:
        mid = (lo + hi) // 2
        if certifies(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def risk_strata(risks: Sequence[float]) -> list[int]:
    """Each sentence's risk stratum, 0 (lowest third) to ``STRATA - 1``; ties keep their order."""
    n = len(risks)
    out = [0] * n
    for rank, i in enumerate(sorted(range(n), key=lambda i: risks[i])):
        out[i] = rank * STRATA // n
    return out


def stratified_sample(risks: Sequence[float], size: int, rng: random.Random) -> list[int]:
    """``size`` indexes drawn from the :func:`risk_strata` in proportion to their sizes (largest remainders)."""
    n = len(risks)
    size = max(0, min(size, n))
    if size == 0:
        return []
    strata: list[list[int]] = [[] for _ in range(STRATA)]
    for i, k in enumerate(risk_strata(risks)):
        strata[k].append(i)
    quotas = [size * len(s) / n for s in strata]
    takes = [int(q) for q in quotas]
    for k in sorted(range(STRATA), key=lambda k: takes[k] - quotas[k])[:size - sum(takes)]:
        takes[k] += 1
    chosen: list[int] = []
    for stratum, take in zip(strata, takes, strict=True):
        chosen.extend(rng.sample(stratum, min(take, len(stratum))))
    return sorted(chosen)
