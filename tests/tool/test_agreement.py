"""Agreement figures against values computed by hand (psan.tool.decisions.agreement)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from psan.tool.decisions.agreement import ALL, DoubleWindow, PrivateSpan, agreement


def _window(first, end, a, b, document_id=1):
    return DoubleWindow(document_id, first, end, [PrivateSpan(*s) for s in a], [PrivateSpan(*s) for s in b])


def test_one_token_longer_span():
    # tokens 0..9; A private {2,3}, B private {2,3,4}: po = 9/10, p1 = .2, p2 = .3,
    # pe = .2*.3 + .8*.7 = .62, kappa = (.9 - .62) / .38; the spans differ, so F1 = 0
    result = agreement([_window(0, 10, [(2, 4, "PERSON")], [(2, 5, "PERSON")])])
    person = result["PERSON"]
    assert person.kappa == pytest.approx(0.28 / 0.38)
    assert person.f1 == 0.0 and person.spans_matched == 0 and (person.spans_first, person.spans_second) == (1, 1)
    assert person.tokens == 10 and person.tokens_agreed == 9 and person.observed == pytest.approx(0.9)
    assert result[ALL].kappa == pytest.approx(0.28 / 0.38)


def test_categories_are_separate_and_together():
    # tokens 0..7; A: PERSON [0,2), PLACE [5,6); B: PERSON [0,2), PERSON [5,6)
    result = agreement([_window(0, 8, [(0, 2, "PERSON"), (5, 6, "PLACE")], [(0, 2, "PERSON"), (5, 6, "PERSON")])])
    # PERSON: A {0,1}, B {0,1,5}: po = 7/8, pe = .25*.375 + .75*.625 = .5625, kappa = .3125/.4375; F1 = 2*1/3
    assert result["PERSON"].kappa == pytest.approx(0.3125 / 0.4375)
    assert result["PERSON"].f1 == pytest.approx(2 / 3)
    # PLACE: A {5}, B {}: po = 7/8 = pe (p2 = 0), kappa = 0; F1 = 0 / 1
    assert result["PLACE"].kappa == pytest.approx(0.0) and result["PLACE"].f1 == 0.0
    # all categories: both {0,1,5}, spans equal: perfect
    assert result[ALL].kappa == pytest.approx(1.0) and result[ALL].f1 == 1.0


def test_textbook_kappa_over_fifty_tokens():
    # 50 tokens: both private 20, only A 5, only B 10, neither 15: po = .7, pe = .5*.6 + .5*.4 = .5, kappa = .4
    result = agreement([_window(0, 50, [(0, 25, "PERSON")], [(0, 20, "PERSON"), (25, 35, "PERSON")])])
    assert result["PERSON"].kappa == pytest.approx(0.4)
    assert result["PERSON"].f1 == 0.0  # no span is exactly the same


def test_several_windows_pool_tokens_and_spans():
    # window 1 (doc 1, tokens 0..3): both PERSON [1,2); window 2 (doc 2, tokens 10..13): A PERSON [10,11), B none
    # tokens: 8 in all, agreed 7; p1 = 2/8, p2 = 1/8: pe = .25*.125 + .75*.875 = .6875, po = .875,
    # kappa = .1875 / .3125 = .6; spans: A 2, B 1, matched 1: F1 = 2/3
    result = agreement([_window(0, 4, [(1, 2, "PERSON")], [(1, 2, "PERSON")], document_id=1),
                        _window(10, 14, [(10, 11, "PERSON")], [], document_id=2)])
    assert result["PERSON"].kappa == pytest.approx(0.6)
    assert result["PERSON"].f1 == pytest.approx(2 / 3)


def test_nothing_private_anywhere_is_total_agreement():
    result = agreement([_window(0, 5, [], [])])
    assert list(result) == [ALL]
    assert result[ALL].kappa == 1.0 and result[ALL].f1 is None and result[ALL].tokens == 5


def test_no_windows():
    assert agreement([])[ALL].kappa is None


_spans = st.lists(st.tuples(st.integers(0, 11), st.integers(1, 4), st.sampled_from(["PERSON", "PLACE"])),
                  max_size=5).map(lambda xs: [(a, min(12, a + n), c) for a, n, c in xs])


@given(_spans, _spans)
def test_properties(a, b):
    """Symmetric in the two annotators, bounded by 1, and perfect for identical versions."""
    ab = agreement([_window(0, 12, a, b)])
    ba = agreement([_window(0, 12, b, a)])
    for category, x in ab.items():
        y = ba[category]
        assert x.kappa == pytest.approx(y.kappa) and x.f1 == y.f1
        assert x.kappa is None or -1.0 <= x.kappa <= 1.0 + 1e-9
        assert x.f1 is None or 0.0 <= x.f1 <= 1.0
    same = agreement([_window(0, 12, a, a)])
    assert all(x.kappa == pytest.approx(1.0) and x.f1 in (None, 1.0) for x in same.values())
