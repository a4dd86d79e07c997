"""Cutting an annotation window (psan.store.windows); audit finding 1 (issue 15), the window-size limit."""
from __future__ import annotations

import pytest

from psan.store.windows import cut_window


@pytest.mark.parametrize("centred", [True, False])
def test_finding_01_cut_window_prefers_line_breaks(centred):
    line_starts = list(range(10, 1000, 10))  # lines of 10 tokens
    first, end = cut_window((500, 502), 95, (0, 1000), line_starts, centred)
    assert first <= 500 < 502 <= end and end - first <= 95
    assert first in line_starts and end in line_starts
    # without line breaks: plain token boundaries, exactly the size
    first, end = cut_window((500, 502), 95, (0, 1000), [], centred)
    assert first <= 500 and end >= 502 and end - first == 95
