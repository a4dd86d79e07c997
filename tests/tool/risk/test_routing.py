"""Routing reads the riskiest sentences until the expected misses of the rest fit half the target."""
from hypothesis import given
from hypothesis import strategies as st

from psan.tool.risk import route
from psan.tool.risk.routing import EXPECTED_SHARE_OF_TARGET


def test_reads_the_riskiest_first():
    routing = route([0.01, 0.9, 0.02, 0.5], mentions=10, target=0.05)
    assert routing.read == (1, 3)
    assert routing.expected_missed <= EXPECTED_SHARE_OF_TARGET * 0.05 * 10


def test_small_budget_reads_everything():
    assert route([1.0] * 5, mentions=100, target=0.005).read == (0, 1, 2, 3, 4)


@given(st.lists(st.floats(0, 1), max_size=200), st.integers(0, 5000), st.sampled_from([0.001, 0.005, 0.05]))
def test_what_is_left_unread_fits_the_budget(risks, mentions, target):
    routing = route(risks, mentions, target)
    left = sum(r for i, r in enumerate(risks) if i not in set(routing.read))
    assert left <= EXPECTED_SHARE_OF_TARGET * target * mentions + 1e-9 or len(routing.read) == len(risks)
    # nothing read is less risky than something left unread
    if routing.read and len(routing.read) < len(risks):
        assert min(risks[i] for i in routing.read) >= max(r for i, r in enumerate(risks) if i not in routing.read)
