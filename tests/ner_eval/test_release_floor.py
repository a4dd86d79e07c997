"""The reading floor of a release run (:mod:`ner_eval.release.floor`): what an oracle router would have read."""
from __future__ import annotations

import pytest

from ner_eval.release.floor import reading_floor
from psan.tool.risk import sample_size


def test_every_sentence_with_a_hand_mark_is_read_and_nothing_is_left_to_sample():
    floor = reading_floor([(10, True), (20, True)], mentions=50, target=0.005)
    assert (floor.hit_sentences, floor.hit_tokens, floor.qa_population, floor.qa_sample) == (2, 30, 0, 0)
    assert floor.tokens_read == 30


def test_the_other_sentences_are_read_as_far_as_the_smallest_certifying_sample():
    sentences = [(12, True)] + [(10, False)] * 99 + [(20, False)]
    floor = reading_floor(sentences, mentions=500, target=0.005)
    n = sample_size(100, 500, 0.005)
    assert floor.qa_population == 100 and floor.qa_sample == n and 0 < n < 100
    assert floor.tokens_read == pytest.approx(12 + n * 10.1)


def test_a_project_with_more_mentions_may_leave_more_unread():
    """The bound's room is a share of the mentions: the same sentences need a smaller sample when they hold more."""
    sentences = [(10, False)] * 200
    assert reading_floor(sentences, 5000, 0.005).tokens_read < reading_floor(sentences, 500, 0.005).tokens_read


def test_an_empty_project_reads_nothing():
    assert reading_floor([], mentions=0, target=0.005).to_dict() == {
        "sentences": 0, "hit_sentences": 0, "hit_tokens": 0, "qa_population": 0, "qa_sample": 0, "tokens_read": 0.0}
