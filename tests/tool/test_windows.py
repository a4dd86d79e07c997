"""The pure window choice shared by the app and the simulated annotator."""
from __future__ import annotations

from psan.tool.windows import first_anchor, plan_window


def test_first_anchor_prefers_suspicious_then_unlabelled_private() -> None:
    assert first_anchor([(5, 6), (2, 3), (2, 4)], [(0, 1)]) == (2, 4)  # first token, longest first
    assert first_anchor([], [(7, 9), (3, 4)]) == (3, 4)
    assert first_anchor([], []) is None


def test_plan_window_keeps_whole_sentences_around_the_anchor() -> None:
    sentences = [(0, 10), (10, 20), (20, 30), (30, 40)]
    assert plan_window(sentences, (22, 23), 20, (0, 40)) == (20, 30)
    assert plan_window(sentences, (22, 23), 25, (0, 40)) == (10, 30)
    assert plan_window(sentences, (5, 6), 4, (0, 40)) == (0, 10)  # the anchor's sentence always whole
    assert plan_window(sentences, (12, 13), 20, (0, 40), centred=False) == (10, 30)
