"""The plus algorithm: other occurrences on word boundaries only."""
from __future__ import annotations

from ner_eval.metrics import score
from ner_eval.plus import occurrences, plus_spans


def test_word_boundaries() -> None:
    text = "Jan met Jana. Jan left; Janek and Jan."
    assert occurrences(text, "Jan") == [(0, 3), (14, 17), (34, 37)]
    found = plus_spans(text, [(0, 3)])
    assert (8, 12) not in found and all(text[s:e] == "Jan" for s, e in found)
    assert len(found) == 3


def test_multiword_and_punctuation_edges() -> None:
    text = "Dr. Novák (Praha). Praha, Prahou, (Praha)"
    assert occurrences(text, "(Praha)") == [(10, 17), (34, 41)]
    assert occurrences(text, "Praha") == [(11, 16), (19, 24), (35, 40)]
    assert occurrences("Jan Novák a Jan  Novák", "Jan Novák") == [(0, 9)]


def test_unicode_word_characters() -> None:
    assert occurrences("Šárka, Šárky, Šárka", "Šárka") == [(0, 5), (14, 19)]


def test_plus_lifts_recall_not_precision_above_one() -> None:
    text = "Novák came. Later Novák spoke to Smith."
    gold = [(0, 5), (18, 23), (33, 38)]
    std = score(gold, [(0, 5)])
    plus = score(gold, plus_spans(text, [(0, 5)]))
    assert std.recall == 1 / 3 and plus.recall == 2 / 3
    assert plus.precision == 1.0


def test_keeps_original_spans_and_dedupes() -> None:
    assert plus_spans("a b a", [(0, 1), (0, 1), (2, 2)]) == [(0, 1), (4, 5)]
