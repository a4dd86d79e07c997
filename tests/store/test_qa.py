"""The QA sample's Clopper–Pearson upper bound (psan.store.publish.qa)."""
from __future__ import annotations

import pytest

from psan.store.publish.qa import upper_bound


def test_clopper_pearson_upper_bound():
    assert upper_bound(200, 0) == pytest.approx(0.01487, abs=1e-4)  # the "rule of three" region: ≈ 3/200
    assert upper_bound(0, 0) is None and upper_bound(5, 5) == 1.0
    assert upper_bound(200, 2) > upper_bound(200, 1) > upper_bound(200, 0)
