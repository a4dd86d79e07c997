"""What a project model may propose and when it serves (psan.tool.classifier.gate)."""
from __future__ import annotations

from psan.tool.classifier.gate import allowed_span, cap_new_spans, f1, split_held_out, verdict


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
    from psan.tool.classifier.gate import only_punctuation
    assert only_punctuation(["."]) and only_punctuation([",", "—", "("]) and not only_punctuation(["E", "."])
