"""What a project model may propose and when it serves (psan.tool.detection.classifier.gate)."""
from __future__ import annotations

from psan.tool.detection.classifier.gate import (
    allowed_span,
    cap_new_spans,
    drop_redrawn_spans,
    f1,
    split_held_out,
    verdict,
)


def test_spans_of_punctuation_stop_words_or_too_long_are_never_proposed():
    longest = {"PERSON": 3, "OTHER": 2}
    for words in (["The"], ["."], ["On"], [",", "and", "the"], ["also"], ["Mr", "."]):
        assert not allowed_span(words, "PERSON", "en", longest), words
    assert not allowed_span(["a", "že"], "OTHER", "cs", longest)
    assert allowed_span(["Mr", "E.", "Cinmen"], "PERSON", "en", longest)
    assert not allowed_span(["Mr", "E.", "Cinmen", "said"], "PERSON", "en", longest)  # longer than decided
    assert allowed_span(["12"], "ID", "en", longest)  # a digit is not a stop word; ID: the longest of any (3)
    assert not allowed_span(["Kestrel"], "OTHER", "en", {})  # nothing decided private yet: nothing proposed


def test_cap_of_new_spans_per_window():
    spans = [(i, i + 1, i / 100) for i in range(0, 20)] + [(400, 401, 0.9)]
    kept = cap_new_spans(spans, known={(0, 1)}, cap=3, window=300)
    assert kept == [(0, 1, 0.0), (17, 18, 0.17), (18, 19, 0.18), (19, 20, 0.19), (400, 401, 0.9)]


def test_a_new_span_that_only_redraws_a_recognizers_span_is_not_proposed():
    known = {(10, 11), (20, 23), (40, 42)}
    spans = [(10, 11, 0.9),  # exactly a recognizer's span: the model's vote on it
             (10, 12, 0.8),  # "Izmir ." over "Izmir"
             (19, 30, 0.7),  # a clause around a recognizer's span
             (21, 22, 0.6),  # inside one
             (41, 45, 0.6),  # across the end of one
             (30, 33, 0.95),  # apart from every recognizer's span: what the model adds
             (42, 44, 0.5)]  # touching, not overlapping
    assert drop_redrawn_spans(spans, known) == [(10, 11, 0.9), (30, 33, 0.95), (42, 44, 0.5)]
    assert drop_redrawn_spans(spans, set()) == spans
    # after the cap: a dropped proposal never lets a less probable one in
    capped = cap_new_spans([(0, 2, 0.9), (5, 6, 0.4)], known={(1, 2)}, cap=1)
    assert drop_redrawn_spans(capped, {(1, 2)}) == []


def test_verdict_needs_data_and_must_beat_the_rules():
    gold = [True] * 10 + [False] * 90
    good = gold[:]
    weak = [False] * 100
    assert f1(gold, good) == 1.0 and f1(gold, weak) == 0.0
    assert not verdict(130, gold, good, weak).serves
    assert "130" in verdict(130, gold, good, weak).reason
    assert not verdict(1000, gold[:20], good[:20], weak[:20]).serves  # too few held-out tokens
    assert not verdict(1000, gold, weak, good).serves  # worse than the rule-based suggestions
    assert not verdict(1000, gold, good, good).serves  # a tie does not earn its place
    assert verdict(1000, gold, good, weak).serves
    train, held = split_held_out(list(range(8)))
    assert held == [3, 7] and train == [0, 1, 2, 4, 5, 6]
    assert split_held_out([1]) == ([1], [])


def test_only_punctuation():
    from psan.tool.detection.classifier.gate import only_punctuation
    assert only_punctuation(["."]) and only_punctuation([",", "—", "("]) and not only_punctuation(["E", "."])


def test_new_spans_stop_only_on_clear_evidence_that_they_do_not_pay():
    from psan.tool.detection.classifier.gate import NEW_SPAN_EVIDENCE, proposes_new_spans
    assert proposes_new_spans(0, NEW_SPAN_EVIDENCE - 1)  # too few verdicts to judge
    assert not proposes_new_spans(0, NEW_SPAN_EVIDENCE)
    assert not proposes_new_spans(2, 40)  # one in twenty: even the upper bound is below one in four
    assert proposes_new_spans(5, 25)  # one in six, but one in four is not excluded yet
    assert proposes_new_spans(10, 30)
