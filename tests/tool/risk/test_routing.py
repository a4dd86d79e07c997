"""Routing reads the sentences with most expected misses per token first, up to the cut where reading plus the QA
sample expected until it certifies read least."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.risk import route
from psan.tool.risk.bound import CONFIDENCE, sample_plan


def _expected_reading(risks, costs, read, mentions, target) -> float:
    """Tokens read by the routing plus the tokens the QA sample of the rest is expected to read."""
    rest = [i for i in range(len(risks)) if i not in set(read)]
    done = sum(costs[i] for i in read)
    if not rest:
        return done
    _, sentences = sample_plan(len(rest), mentions, target, CONFIDENCE, sum(risks[i] for i in rest) / len(rest))
    return done + sentences * sum(costs[i] for i in rest) / len(rest)


def test_reads_the_riskiest_first():
    routing = route([0.001, 0.9, 0.002, 0.5] + [0.001] * 400, mentions=1000, target=0.005)
    assert {1, 3} <= set(routing.read) and len(routing.read) < 100
    assert routing.expected_missed < 0.5


def test_sentences_certain_to_hide_a_miss_are_all_read():
    assert route([1.0] * 5, mentions=100, target=0.005).read == (0, 1, 2, 3, 4)


def test_text_without_risk_is_left_to_the_sample_and_nothing_is_left_to_route():
    assert route([0.0] * 50, mentions=100, target=0.005).read == ()
    assert route([], mentions=100, target=0.005).read == ()


def test_of_two_equally_risky_sentences_the_shorter_is_read():
    routing = route([0.3, 0.3] + [0.0] * 200, mentions=50, target=0.005, costs=[40, 5] + [20] * 200)
    assert 1 in routing.read and (0 not in routing.read or len(routing.read) >= 2)


@settings(deadline=None, max_examples=40)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(1, 60)), max_size=150), st.integers(0, 3000),
       st.sampled_from([0.001, 0.005, 0.05]))
def test_the_cut_reads_the_densest_risk_and_beats_reading_nothing_or_everything(sentences, mentions, target):
    risks = [r for r, _ in sentences]
    costs = [c for _, c in sentences]
    routing = route(risks, mentions, target, costs=costs)
    read = set(routing.read)
    assert routing.expected_missed == __import__("pytest").approx(
        sum(r for i, r in enumerate(risks) if i not in read), abs=1e-6)
    if read and len(read) < len(risks):  # nothing read has less risk per token than something left unread
        assert min(risks[i] / costs[i] for i in read) >= max(risks[i] / costs[i] for i in range(len(risks))
                                                             if i not in read) - 1e-12
    chosen = _expected_reading(risks, costs, routing.read, mentions, target)
    for other in ((), tuple(range(len(risks)))):
        assert chosen <= _expected_reading(risks, costs, other, mentions, target) * (1 + 1e-9) + 1e-9


def test_route_is_fast_on_a_large_project():
    import time
    rng = np.random.default_rng(0)
    risks = list(rng.beta(0.3, 30, 50_000))
    started = time.perf_counter()
    route(risks, mentions=40_000, target=0.005, costs=list(rng.integers(5, 40, 50_000)))
    assert time.perf_counter() - started < 2.0
