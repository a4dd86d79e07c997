"""The pure window choice shared by the app and the simulated annotator."""
from __future__ import annotations

from psan.tool.decisions.windows import first_anchor, plan_window, span_context, span_review_window


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


def test_a_short_sentence_is_one_span_review_whatever_its_spans() -> None:
    sentence = (100, 115)
    assert span_review_window(sentence, [(102, 104), (110, 111), (113, 114)], 300, 20) == sentence


def test_a_long_sentence_shows_each_span_with_twenty_tokens_once() -> None:
    sentence = (0, 100)
    assert span_context((50, 52), sentence, 20) == (41, 61)
    assert span_context((2, 3), sentence, 20) == (0, 20)
    assert span_context((98, 99), sentence, 20) == (80, 100)
    # spans close together: one window from the first span's context to the last one's
    first, end = span_review_window(sentence, [(10, 11), (20, 22), (30, 31)], 300, 20)
    assert (first, end) == (0, 40)
    # every waiting span of the sentence is in the one window
    waiting = [(5, 6), (40, 42), (90, 91)]
    first, end = span_review_window(sentence, waiting, 300, 20)
    assert all(first <= a < b <= end for a, b in waiting)


def test_a_span_review_stays_within_the_account_window_and_keeps_its_anchor() -> None:
    sentence = (0, 500)
    first, end = span_review_window(sentence, [(10, 11), (200, 201), (450, 451)], 100, 20)
    assert first <= 10 and 11 <= end and end - first <= 100
    # a span outside the sentence is not pulled in
    assert span_review_window((0, 10), [(2, 3), (12, 13)], 300, 20) == (0, 10)
