"""What a QA sample of the unread text certifies: a one-sided 95 % upper bound on the share of missed mentions.

The reviewer reads each sampled sentence in full and counts the mentions nobody had marked.  With ``k`` found
in ``n`` sentences and ``r`` unread sentences left, the bound is on the mentions the release *does* leave in those
``r``, not on their expected number: with misses Poisson at any one rate per sentence, the ``k`` found, given
all ``k + y`` of sample and rest, are binomial with the sample's share ``n / (n + r)`` of the sentences, whatever
the rate; the bound is the largest ``y`` a one-sided test at 5 % does not reject (a prediction bound).  Over all
mentions (masked plus those) it bounds their share.  A bound on the mean was smaller, and a release left a
mention more than it said whenever fewer than one was expected in a short rest.  The sample is stratified by
risk with proportional allocation, so the pooled count estimates the whole population and the riskier sentences
are never left out by chance.

A project may draw again after a sample failed (its routed text read in between).  Each further look is a
further chance of a lucky sample, so the ``k``-th sample is judged at the confidence
:func:`sequential_confidence` gives: the error rates ``α·6/(π²k²)`` of all looks sum to at most ``α``, whatever
the number of samples drawn.
"""
from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from scipy.special import betainc
from scipy.stats import beta, poisson

__all__ = ["CONFIDENCE", "STRATA", "allowed_misses", "missed_share_bound", "missed_upper", "risk_strata",
           "sample_calibration", "sample_plan", "sample_size", "sequential_confidence", "stratified_sample"]

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
    """Upper prediction bound on the mentions still missed in the ``population - sampled`` unread sentences:
    the largest ``y`` for which finding at most ``found`` of ``found + y`` mentions in the sample's share of the
    sentences is still more likely than ``1 - confidence`` (see the module docstring)."""
    rest = max(population - sampled, 0)
    if rest == 0:
        return 0.0
    if sampled <= 0:
        return math.inf
    k, alpha, left = max(int(found), 0), 1.0 - confidence, rest / (sampled + rest)

    def rejected(y: int) -> bool:  # P(X <= k | X ~ Bin(k + y, 1 - left)) <= alpha
        return float(betainc(y, k + 1, left)) <= alpha

    hi = 1
    while not rejected(hi):
        hi *= 2
    lo = hi // 2  # not rejected (0 never is)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if rejected(mid) else (mid, hi)
    return float(lo)


def allowed_misses(mentions: int, target: float) -> int:
    """The whole missed mentions a bound may leave while its share stays within ``target``: ``m`` with
    ``m / (mentions + m) <= target`` (0: a sample certifies only when it leaves almost nothing unread)."""
    if target <= 0:
        return 0
    if target >= 1:
        return sys.maxsize
    return max(math.floor(target / (1 - target) * max(int(mentions), 1) + 1e-9), 0)


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
    """The sample of the ``population`` unread sentences that certifies ``target`` at the least expected reading.

    ``miss_rate``: the misses expected per unread sentence (the project's risk model, or what its last sample
    found).  A sample of ``n`` certifies when it finds at most the ``k`` misses its size allows; with misses
    Poisson at that rate it does so with probability ``P``.  A failed sample is read for nothing but the misses it
    fixes, and another like it follows, so the sentences read until one certifies are ``n / P`` on average: the
    size returned minimises that.  For each ``k`` only the smallest ``n`` allowing it is a candidate (a larger one
    reads more and fails more often), and reading every sentence (bound 0) is one too.  At least
    :data:`PLANNED_MISSES` are allowed for.  With no misses expected this is the smallest sample that certifies
    with :data:`PLANNED_MISSES` found.
    """
    return sample_plan(population, mentions, target, confidence, miss_rate)[0]


def sample_plan(population: int, mentions: int, target: float, confidence: float = CONFIDENCE,
                miss_rate: float = 0.0) -> tuple[int, float]:
    """:func:`sample_size`'s size and the sentences expected to be read until a sample certifies."""
    if population <= 0:
        return 0, 0.0
    if target <= 0:
        return population, float(population)
    allowed = allowed_misses(mentions, target)
    rate = max(float(miss_rate), 0.0)
    expected_all = rate * population
    # beyond this many misses a sample of the whole population would find fewer with certainty (ten deviations)
    found = np.arange(PLANNED_MISSES, PLANNED_MISSES + 2 + int(expected_all + 10 * math.sqrt(expected_all + 1)))
    # the smallest n whose bound (missed_upper) stays within the misses allowed, for each number found
    shares = _certifying_shares(confidence, allowed, len(found))
    sizes = np.clip(np.ceil(shares * population - 1e-9), 1, population).astype(np.int64)
    certifies = poisson.cdf(found, rate * sizes) if rate > 0 else np.ones(len(found))
    cost = np.where((sizes < population) & (certifies > 0), sizes / np.maximum(certifies, 1e-300), np.inf)
    at = int(np.argmin(cost))
    if not math.isfinite(cost[at]) or cost[at] >= population:
        return population, float(population)  # reading every sentence (bound 0) is cheaper
    size = _smallest_allowing(int(found[at]), int(sizes[at]), population, allowed, confidence)
    return size, float(cost[at]) * size / int(sizes[at])


def _certifying_shares(confidence: float, allowed: int, count: int) -> np.ndarray:
    """For ``k`` = :data:`PLANNED_MISSES` … (``count`` of them): the least share of the unread sentences a sample
    must hold so that finding ``k`` bounds the rest's misses by ``allowed`` (``missed_upper`` rejects
    ``allowed + 1``), read-only.

    Why kept: routing plans a sample for dozens of cuts per reading window, and SciPy's quantile costs far more
    than the rest of a plan; the values depend only on the confidence and the misses allowed.
    """
    return _share_table(float(confidence), int(allowed), 1 << max(int(count) - 1, 0).bit_length())[:count]


@lru_cache(maxsize=256)
def _share_table(confidence: float, allowed: int, count: int) -> np.ndarray:
    found = np.arange(PLANNED_MISSES, PLANNED_MISSES + count)
    # rejected: betainc(allowed + 1, k + 1, rest share) <= 1 - confidence, so the rest share is at most its quantile
    table = 1.0 - beta.ppf(1.0 - confidence, max(allowed, 0) + 1, found + 1)
    table.flags.writeable = False
    return table


def _smallest_allowing(found: int, guess: int, population: int, allowed: int, confidence: float) -> int:
    """The smallest sample in which finding ``found`` misses still certifies ``allowed`` (``guess``: the closed
    form's, which floating point may leave one off); the bound as :func:`missed_upper` computes it."""
    def upper(sampled: int) -> float:
        return missed_upper(found, sampled, population, confidence)
    n = min(max(guess, 1), population)
    while n > 1 and upper(n - 1) <= allowed:
        n -= 1
    while n < population and upper(n) > allowed:
        n += 1
    return n


def sample_calibration(found: int, expected: float) -> float:
    """How much the risk model understated the misses of unread text: what the project's QA samples found over
    what the model expected in the same sentences, at least 1.

    Why at least 1: a sample that found fewer than expected says the model is careful, and routing then reads
    no less than the model asks (when in doubt, read); one that found more says the unread text is riskier than
    the model thinks, and routing reads more before the next sample, instead of drawing ever larger samples.
    """
    if expected <= 0 or found <= expected:
        return 1.0
    return min(found / expected, sys.float_info.max)  # finite: a risk of 0 stays 0


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
