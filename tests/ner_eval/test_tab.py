"""TAB metrics: an entity is masked only if all its mentions are covered."""
from __future__ import annotations

from ner_eval.corpus import CorpusDoc, GoldSpan
from ner_eval.tab import covered_chars, is_covered, tab_scores

TEXT = "Anna Smith met Bob in Paris. Anna left Paris."
#       0    5    10   15  19 22    28   33   38


def _doc() -> CorpusDoc:
    return CorpusDoc("t", "en", TEXT, [
        GoldSpan(0, 10, "PERSON", "anna", "DIRECT"),
        GoldSpan(15, 18, "PERSON", "bob", "QUASI"),
        GoldSpan(22, 27, "LOC", "paris", "QUASI"),
        GoldSpan(29, 33, "PERSON", "anna", "QUASI"),
        GoldSpan(39, 44, "LOC", "paris", "NO_MASK"),
    ])


def test_covered_ignores_whitespace_between_spans() -> None:
    mask = covered_chars(TEXT, [(0, 4), (5, 10)])
    assert is_covered(TEXT, mask, 0, 10)
    assert not is_covered(TEXT, covered_chars(TEXT, [(0, 4), (5, 9)]), 0, 10)


def test_entity_needs_all_mentions() -> None:
    # Anna's first mention covered, second not -> Anna not masked; Paris' NO_MASK mention is ignored
    s = tab_scores(_doc(), [(0, 10), (15, 18), (22, 27)])
    ent = {k: (v.hit, v.total) for k, v in s.entity.items()}
    assert ent == {"ALL": (2, 3), "DIRECT": (0, 1), "QUASI": (2, 2)}
    assert (s.mention_recall.hit, s.mention_recall.total) == (3, 4)
    s2 = tab_scores(_doc(), [(0, 10), (15, 18), (22, 27), (29, 33)])
    assert s2.entity["DIRECT"].value == 1.0 and s2.entity["ALL"].value == 1.0


def test_partial_cover_is_not_masked() -> None:
    s = tab_scores(_doc(), [(0, 4), (15, 18), (22, 27), (29, 33)])
    assert s.entity["DIRECT"].value == 0.0


def test_token_recall_and_precision() -> None:
    # gold tokens: Anna Smith Bob Paris Anna (Paris #2 is NO_MASK) = 5; system marks Anna Smith + "met"
    s = tab_scores(_doc(), [(0, 14)])
    assert (s.token_recall.hit, s.token_recall.total) == (2, 5)
    assert (s.token_precision.hit, s.token_precision.total) == (2, 3)


def test_entity_without_identifier_types() -> None:
    doc = CorpusDoc("e", "en", "Eva and Eva", [GoldSpan(0, 3, "PERSON", "P1"), GoldSpan(8, 11, "PERSON", "P1")])
    s = tab_scores(doc, [(0, 3)])
    assert set(s.entity) == {"ALL"} and s.entity["ALL"].value == 0.0
    assert tab_scores(doc, [(0, 3), (8, 11)]).entity["ALL"].value == 1.0
