"""The consistency measure on hand-made standoffs, and the real psan-tool run on a slice of ELITR."""
from __future__ import annotations

from pathlib import Path

from ner_eval.consistency import failure_line, fold_of, measure, score_document
from ner_eval.corpus import CorpusDoc, GoldSpan, models_dir, read_jsonl


def entry(text: str, piece: str, replacement: str, occurrence: int = 0) -> dict:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(piece, start + 1)
    return {"original_start": start, "original_end": start + len(piece), "replacement": replacement}


TEXT = "Keith Walker: Mhm\nAnna: Keith Walker came. Keith Walker's car."


def doc() -> CorpusDoc:
    spans = []
    pos = -1
    for _ in range(3):
        pos = TEXT.index("Keith Walker", pos + 1)
        spans.append(GoldSpan(pos, pos + len("Keith Walker"), "PERSON", "P1"))
    return CorpusDoc("d", "en", TEXT, spans)


def test_one_replacement_per_form_is_consistent_and_a_kept_possessive_counts_as_the_same() -> None:
    entries = [entry(TEXT, "Keith Walker", "Tom Hardy"), entry(TEXT, "Keith Walker", "Tom Hardy", 1),
               entry(TEXT, "Keith Walker's", "Tom Hardy's")]
    (result,) = score_document(doc(), entries)
    assert result.ok and result.mentions == 3


def test_a_swallowed_neighbour_or_a_missed_mention_fails() -> None:
    glued = [entry(TEXT, "Keith Walker: Mhm", "Chase Carlos: Cobb"), entry(TEXT, "Keith Walker", "Tom Hardy", 1),
             entry(TEXT, "Keith Walker", "Tom Hardy", 2)]
    (result,) = score_document(doc(), glued)
    assert result.covered and not result.consistent
    missed = [entry(TEXT, "Keith Walker", "Tom Hardy"), entry(TEXT, "Keith Walker", "Tom Hardy", 1)]
    (result,) = score_document(doc(), missed)
    assert not result.covered


def test_a_failure_is_listed_with_its_fold_and_each_forms_renderings() -> None:
    glued = [entry(TEXT, "Keith Walker: Mhm", "Chase Carlos: Cobb"), entry(TEXT, "Keith Walker", "Tom Hardy", 1)]
    (result,) = score_document(doc(), glued)
    line = failure_line(result)
    assert line.startswith(f"  fold{fold_of('d')} d P1: 'Keith Walker' → ")
    assert "'∅'" in line and "'⟨Chase Carlos: Cobb⟩'" in line and "'Tom Hardy'" in line


def test_folds_are_stable_and_both_used() -> None:
    ids = [f"doc-{i}" for i in range(40)]
    assert {fold_of(i) for i in ids} == {0, 1}
    assert [fold_of(i) for i in ids] == [fold_of(i) for i in ids]


def test_the_real_cli_on_two_meetings(shared_data: Path) -> None:
    docs = read_jsonl(shared_data / "elitr-dev.jsonl", limit=2)
    summary, results = measure(docs, None, models_dir(None))
    assert summary["all"]["entities"] == len(results) > 0
    assert summary["all"]["consistent_share"] >= 0.8


def test_a_category_tag_is_the_same_tag_in_a_longer_region() -> None:
    text = "a dancer and later a ballet dancer"
    spans = [GoldSpan(text.index("dancer"), text.index("dancer") + 6, "DEM", "E1"),
             GoldSpan(text.rindex("dancer"), text.rindex("dancer") + 6, "DEM", "E1")]
    entries = [entry(text, "dancer", "[DEMOGRAPHIC]"), entry(text, "ballet dancer", "[DEMOGRAPHIC]")]
    (result,) = score_document(CorpusDoc("t", "en", text, spans), entries)
    assert result.ok
