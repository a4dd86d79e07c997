"""Thesis metrics on hand-made cases."""
from __future__ import annotations

from ner_eval.corpus import CorpusDoc, GoldSpan, data_dir, gold_spans, read_jsonl
from ner_eval.metrics import EXACT, INSIDE, MISSED, PARTIAL, MatchCounts, match_kinds, per_doc_summary, score, total


def test_match_kinds() -> None:
    gold = [(0, 5), (10, 15), (20, 25), (30, 35)]
    system = [(0, 5), (9, 16), (22, 28)]
    assert match_kinds(gold, system) == [EXACT, INSIDE, PARTIAL, MISSED]


def test_exact_wins_over_inside_and_partial() -> None:
    assert match_kinds([(10, 15)], [(5, 20), (12, 18), (10, 15)]) == [EXACT]
    assert match_kinds([(10, 15)], [(12, 18), (5, 20)]) == [INSIDE]


def test_touching_is_not_overlap() -> None:
    assert match_kinds([(10, 15)], [(5, 10), (15, 20)]) == [MISSED]


def test_recall_and_precision() -> None:
    c = score([(0, 5), (10, 15), (20, 25), (30, 35)], [(0, 5), (9, 16), (22, 28), (40, 45)])
    assert (c.gold, c.exact, c.inside, c.partial, c.missed) == (4, 1, 1, 1, 1)
    assert c.recall == 0.75
    assert c.recall_exact == 0.25
    assert c.system == 4 and c.system_hit == 3
    assert c.precision == 0.75


def test_precision_never_above_one() -> None:
    # one system span covering three gold spans: the thesis counted 3 matches / 1 span
    c = score([(0, 3), (4, 7), (8, 11)], [(0, 11)])
    assert c.recall == 1.0
    assert c.precision == 1.0
    assert c.inside == 3


def test_duplicates_and_empty_spans_count_once() -> None:
    c = score([(0, 3), (0, 3), (5, 5)], [(0, 3), (0, 3)])
    assert (c.gold, c.system, c.exact) == (1, 1, 1)


def test_no_spans_gives_none() -> None:
    c = score([], [])
    assert c.recall is None and c.precision is None and c.f1 is None


def test_global_is_sum_and_per_doc_skips_undefined() -> None:
    a = score([(0, 3)], [(0, 3)])
    b = score([(0, 3), (5, 8)], [])
    g = total([a, b])
    assert (g.gold, g.exact, g.missed, g.system) == (3, 1, 2, 1)
    assert abs(g.recall - 1 / 3) < 1e-9
    s = per_doc_summary([a, b, MatchCounts()])
    assert s["recall"]["n"] == 2 and s["recall"]["mean"] == 0.5
    assert s["precision"]["n"] == 1 and s["precision"]["mean"] == 1.0


def test_marker_labels_and_no_mask_are_not_gold() -> None:
    doc = CorpusDoc("d", "cs", "Jan Novák , ČR .", [
        GoldSpan(0, 9, "P"), GoldSpan(0, 3, "pf"), GoldSpan(0, 3, "cap"), GoldSpan(4, 9, "ps"),
        GoldSpan(12, 14, "s"), GoldSpan(12, 14, "gc"), GoldSpan(12, 14, "gu"), GoldSpan(10, 11, "segm"),
    ])
    assert [(g.start, g.end, g.label) for g in gold_spans(doc)] == [(0, 9, "P"), (0, 3, "pf"), (4, 9, "ps"),
                                                                    (12, 14, "gc")]
    tab = CorpusDoc("t", "en", "x" * 30, [GoldSpan(0, 5, "PERSON", "e1", "DIRECT"),
                                          GoldSpan(6, 9, "ORG", "e2", "NO_MASK"),
                                          GoldSpan(10, 15, "LOC", "e3", "QUASI")])
    assert [g.entity for g in gold_spans(tab)] == ["e1", "e3"]


def test_read_jsonl(tmp_path) -> None:
    p = tmp_path / "c.jsonl"
    p.write_text('{"id": "a", "lang": "en", "source": "x:y", "text": "Hi Bob", '
                 '"spans": [{"start": 3, "end": 6, "label": "PERSON", "entity": null, "identifier": null}]}\n\n'
                 '{"id": "b", "lang": "en", "text": "", "spans": []}\n', encoding="utf-8")
    docs = read_jsonl(p)
    assert [d.id for d in docs] == ["a", "b"]
    assert docs[0].spans[0] == GoldSpan(3, 6, "PERSON")
    assert len(read_jsonl(p, limit=1)) == 1


def test_missing_data_dir_is_a_clear_error(tmp_path) -> None:
    import pytest
    with pytest.raises(FileNotFoundError, match="--data-dir"):
        data_dir(tmp_path / "nope")


def test_real_corpus_gold_offsets(shared_data) -> None:
    docs = read_jsonl(shared_data / "cnec-dtest.jsonl", limit=50)
    for d in docs:
        for g in gold_spans(d):
            assert 0 <= g.start < g.end <= len(d.text)
            assert g.label not in {"s", "f", "?", "segm", "cap", "lower", "upper"}
