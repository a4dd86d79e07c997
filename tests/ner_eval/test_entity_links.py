"""Pairwise entity-link metric on hand-made cases, and psan's linking on the TAB dev set."""
from __future__ import annotations

from pathlib import Path

import pytest

from ner_eval.entity_links import LinkCounts, _read, baseline, evaluate, link_counts, main, system


def test_link_counts_by_hand() -> None:
    # gold: {0,1,2} {3}; predicted: {0,1} {2,3}
    c = link_counts(["a", "a", "a", "b"], ["x", "x", "y", "y"])
    assert (c.tp, c.fp, c.fn) == (1, 1, 2)
    assert c.precision == pytest.approx(0.5)
    assert c.recall == pytest.approx(1 / 3)
    assert c.f1 == pytest.approx(0.4)


def test_perfect_and_empty_cases() -> None:
    c = link_counts(["a", "b", "a"], ["1", "2", "1"])
    assert (c.tp, c.fp, c.fn, c.f1) == (1, 0, 0, 1.0)
    empty = LinkCounts()
    assert empty.precision == 1.0 and empty.recall == 1.0
    with pytest.raises(ValueError):
        link_counts(["a"], [])


def test_only_direct_and_quasi_mentions_count() -> None:
    text = "Anna Berg met Berg and Anna Berg."
    doc = {"id": "d", "lang": "en", "text": text, "spans": [
        {"start": 0, "end": 9, "label": "PERSON", "entity": "e1", "identifier": "DIRECT"},
        {"start": 14, "end": 18, "label": "PERSON", "entity": "e1", "identifier": "QUASI"},
        {"start": 23, "end": 32, "label": "PERSON", "entity": "e1", "identifier": "NO_MASK"},
    ]}
    base = evaluate([doc], baseline)
    assert (base["PERSON"].tp, base["PERSON"].fn) == (0, 1)  # NO_MASK pair not scored
    ours = evaluate([doc], system)
    assert (ours["ALL"].tp, ours["ALL"].fp, ours["ALL"].fn) == (1, 0, 0)


def test_tab_dev_targets(shared_data: Path, capsys: pytest.CaptureFixture) -> None:
    docs = _read(str(shared_data / "tab-dev.jsonl"))
    ours = evaluate(docs, system)
    assert ours["PERSON"].f1 >= 0.95
    assert ours["ALL"].f1 >= 0.97
    base = evaluate(docs, baseline)
    assert ours["ALL"].f1 > base["ALL"].f1 and ours["PERSON"].f1 > base["PERSON"].f1
    assert main([str(shared_data / "tab-dev.jsonl")]) == 0
    assert "psan entities" in capsys.readouterr().out
