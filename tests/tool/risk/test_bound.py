"""The QA bound certifies what it says: exact prediction bounds, a sample size that reaches the target, strata."""
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, poisson

from psan.tool.risk import allowed_misses, missed_share_bound, risk_strata, sample_size, stratified_sample
from psan.tool.risk.bound import STRATA, missed_upper


@given(st.integers(0, 10**6), st.sampled_from([0.0, 0.001, 0.005, 0.02, 0.5, 0.99]))
def test_room_is_the_most_whole_misses_within_the_target(mentions, target):
    room = allowed_misses(mentions, target)
    base = max(mentions, 1)
    assert room >= 0
    assert room / (base + room) <= target + 1e-12  # within the target ...
    assert (room + 1) / (base + room + 1) > target - 1e-12  # ... and one more is not


def test_nothing_unread_is_bound_zero():
    assert missed_share_bound(0, 0, 0, 100) == 0.0
    assert missed_share_bound(2, 50, 50, 100) == 0.0  # every unread sentence was reviewed


def test_unread_text_without_a_sample_is_bounded_by_nothing():
    assert missed_share_bound(0, 0, 10, 100) == 1.0


@given(st.integers(0, 30), st.integers(1, 2000), st.integers(1, 5000))
def test_upper_bound_is_the_exact_prediction_bound(found, sampled, rest):
    """The bound is the largest number of misses left that finding ``found`` in the sample does not rule out at 5 %:
    given all misses of sample and rest, those in the sample are binomial with the sample's share of sentences."""
    upper = missed_upper(found, sampled, sampled + rest)
    assert upper == int(upper) >= 0
    share = sampled / (sampled + rest)
    assert binom.cdf(found, found + int(upper) + 1, share) <= 0.05 + 1e-12
    if upper > 0:
        assert binom.cdf(found, found + int(upper), share) > 0.05 - 1e-12


@pytest.mark.parametrize(("population", "sampled", "rate"), [(150, 135, 0.03), (1160, 486, 0.004), (1082, 306, 0.01),
                                                              (400, 100, 0.2), (5000, 300, 0.001)])
def test_the_release_leaves_no_more_than_the_bound_in_95_percent_of_samples(population, sampled, rate):
    """What the report certifies is what the release leaves: over many projects whose unread sentences hide misses
    at ``rate`` each (clustered: some sentences hide two), the mentions left in the sentences nobody sampled exceed
    the bound in at most 5 % of them — also where less than one is expected in a short rest."""
    rng = np.random.default_rng(7)
    trials, exceeded = 4000, 0
    for _ in range(trials):
        misses = rng.poisson(rate, population)
        chosen = rng.choice(population, sampled, replace=False)
        found = int(misses[chosen].sum())
        left = int(misses.sum()) - found
        exceeded += left > missed_upper(found, sampled, population)
    assert exceeded / trials <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / trials)


@given(st.integers(0, 20), st.integers(1, 500), st.integers(0, 2000), st.integers(1, 5000))
def test_bound_grows_with_misses_found_and_shrinks_with_mentions(found, sampled, extra, mentions):
    population = sampled + extra
    bound = missed_share_bound(found, sampled, population, mentions)
    assert 0.0 <= bound <= 1.0
    assert missed_share_bound(found + 1, sampled, population, mentions) >= bound
    assert missed_share_bound(found, sampled, population, mentions + 1) <= bound


@given(st.integers(1, 20000), st.integers(0, 10000), st.sampled_from([0.001, 0.005, 0.02]))
def test_default_sample_certifies_the_target_with_one_miss(population, mentions, target):
    n = sample_size(population, mentions, target)
    assert 1 <= n <= population
    assert missed_share_bound(1, n, population, max(mentions, 1)) <= target + 1e-12
    if n > 1:  # and it is the smallest such sample
        assert missed_share_bound(1, n - 1, population, max(mentions, 1)) > target


@given(st.lists(st.floats(0, 1), min_size=1, max_size=300), st.integers(0, 300), st.integers(0, 10**6))
def test_stratified_sample_is_proportional_and_distinct(risks, size, seed):
    chosen = stratified_sample(risks, size, random.Random(seed))
    assert len(chosen) == min(size, len(risks)) == len(set(chosen))
    strata = risk_strata(risks)
    for k in range(STRATA):
        members = strata.count(k)
        drawn = sum(1 for i in chosen if strata[i] == k)
        assert abs(drawn - len(chosen) * members / len(risks)) < 1 + 1e-9


def test_strata_follow_risk():
    strata = risk_strata([0.9, 0.1, 0.5, 0.2, 0.8, 0.3])
    assert strata[1] == 0 and strata[0] == STRATA - 1


def test_later_samples_are_judged_stricter_and_all_looks_together_keep_the_confidence() -> None:
    """A project that draws again after a failed sample gets no free second chance at a lucky sample."""
    from psan.tool.risk import sequential_confidence

    levels = [sequential_confidence(k) for k in range(1, 10_000)]
    assert all(a < b for a, b in zip(levels, levels[1:], strict=False))
    assert sum(1 - c for c in levels) <= 0.05
    assert missed_share_bound(0, 500, 5000, 1000, levels[1]) > missed_share_bound(0, 500, 5000, 1000, levels[0])
    assert sample_size(5000, 1000, 0.005, levels[1]) > sample_size(5000, 1000, 0.005, levels[0])


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 200), st.integers(0, 3000), st.sampled_from([0.001, 0.005, 0.02]), st.floats(0, 0.3))
def test_a_sample_is_sized_for_the_least_expected_reading_until_one_certifies(population, mentions, target, rate):
    """Of every size (and reading all of it), the one chosen reads the fewest sentences on average until a sample
    certifies, when misses come at ``rate`` per sentence and each failed sample is followed by one like it; it
    always certifies the target if it finds no more than one miss (or it is the whole population)."""
    from psan.tool.risk.bound import PLANNED_MISSES
    n = sample_size(population, mentions, target, miss_rate=rate)
    assert 1 <= n <= population
    allowed = target / (1 - target) * max(mentions, 1)

    def expected_reading(size: int) -> float:
        if size == population:
            return float(size)
        most = -1
        while missed_upper(most + 1, size, population) <= allowed and most < 10 * population:
            most += 1
        if most < PLANNED_MISSES:
            return float("inf")
        certifies = poisson.cdf(most, rate * size) if rate > 0 else 1.0
        return size / certifies if certifies > 0 else float("inf")

    best = min(expected_reading(size) for size in range(1, population + 1))
    assert expected_reading(n) <= best * (1 + 1e-9)
    if n < population:
        assert missed_share_bound(PLANNED_MISSES, n, population, max(mentions, 1)) <= target + 1e-12


@given(st.integers(0, 50), st.one_of(st.just(0.0), st.floats(1e-6, 50)))
def test_samples_that_found_more_than_expected_scale_the_risks_up_never_down(found, expected):
    from psan.tool.risk import sample_calibration
    factor = sample_calibration(found, expected)
    assert factor >= 1.0
    if expected > 0 and found > expected:
        assert factor * expected == pytest.approx(found)  # the scaled model expects what the samples found
    else:
        assert factor == 1.0
