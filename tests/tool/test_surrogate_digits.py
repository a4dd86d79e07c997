"""Random digits keep a text's shape but never reprint one of its digit runs ("22 Baker Street" → "22 …" was a
house number left as it was, one time in ninety)."""
import random
from itertools import groupby

from hypothesis import given
from hypothesis import strategies as st

from psan.tool.surrogates.shape import digits_random


def _runs(text: str) -> list[tuple[bool, str]]:
    return [(digit, "".join(chars)) for digit, chars in groupby(text, str.isdigit)]


@given(st.text(alphabet="0123456789 -/.abXY²", max_size=30), st.integers(0, 10**9))
def test_digits_change_shape_stays_and_no_digit_run_is_reprinted(text, seed):
    out = digits_random(text, random.Random(seed))
    assert len(out) == len(text)
    for (digit, before), (digit_after, after) in zip(_runs(text), _runs(out), strict=True):
        assert digit == digit_after
        if digit:
            assert after != before and after.isascii() and after.isdigit()
            assert after[0] != "0" or before[0] == "0"  # no new leading zero
        else:
            assert after == before


def test_a_house_number_is_never_drawn_again():
    assert all(digits_random("22 Baker Street", random.Random(seed))[:3] != "22 " for seed in range(2000))
