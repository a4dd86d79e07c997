"""What a QA reviewer reads of a sentence: exactly the runs of tokens no window showed."""
from hypothesis import given
from hypothesis import strategies as st

from psan.store.review.risk_review import unseen_stretches


@given(st.lists(st.booleans(), max_size=60), st.data())
def test_stretches_are_the_maximal_unseen_runs_of_the_sentence(seen_flags, data):
    seen = bytearray(seen_flags)
    first = data.draw(st.integers(0, len(seen)))
    end = data.draw(st.integers(first, len(seen)))
    stretches = unseen_stretches(seen, first, end)
    covered = [t for f, e in stretches for t in range(f, e)]
    assert covered == [t for t in range(first, end) if not seen[t]]  # every unseen token once, in order
    assert all(f < e for f, e in stretches)
    for (_, e), (f, _) in zip(stretches, stretches[1:], strict=False):
        assert e < f and seen[e]  # two runs are parted by a seen token: maximal
    assert all(f == first or seen[f - 1] for f, _ in stretches)
    assert all(e == end or seen[e] for _, e in stretches)


def test_a_sentence_read_in_full_has_none_and_one_nobody_saw_is_one_stretch():
    assert unseen_stretches(bytearray(b"\x01" * 5), 0, 5) == ()
    assert unseen_stretches(bytearray(5), 1, 4) == ((1, 4),)
