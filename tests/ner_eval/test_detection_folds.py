"""Two folds of source documents for choosing a rule on one and reporting it on the other (ner_eval.detection_folds)."""
from __future__ import annotations

import json
from pathlib import Path

from ner_eval.corpus import CorpusDoc, GoldSpan
from ner_eval.detection_folds import document_folds, fold_counts, source_documents, summarize, write_folds


def test_chunks_of_one_source_document_share_a_fold() -> None:
    ids = ["uner-sk-dev-batch-0005-01", "uner-sk-dev-batch-0005-02", "uner-sk-dev-batch-0035",
           "bsnlp-pl-val-01-01", "bsnlp-pl-val-01-02", "bsnlp-pl-val-03", "bsnlp-pl-val-04"]
    src = source_documents(ids)
    assert src["uner-sk-dev-batch-0005-02"] == src["uner-sk-dev-batch-0005-01"] == "uner-sk-dev-batch-0005"
    assert src["bsnlp-pl-val-01-02"] == "bsnlp-pl-val-01"
    # an article of one chunk is its own source document, not "bsnlp-pl-val" (there is no "bsnlp-pl-val-01")
    assert src["bsnlp-pl-val-03"] == "bsnlp-pl-val-03" and src["uner-sk-dev-batch-0035"] == "uner-sk-dev-batch-0035"
    folds = document_folds(ids)
    assert folds["bsnlp-pl-val-01-01"] == folds["bsnlp-pl-val-01-02"]
    assert set(folds.values()) <= {0, 1}


def test_counts_any_overlap_mention_recall_and_precision() -> None:
    text = "Jan Novák met Eva Malá in Brno today."
    doc = CorpusDoc("d", "cs", text, [GoldSpan(0, 9, "PER"), GoldSpan(14, 22, "PER"), GoldSpan(26, 30, "LOC")])
    system = [(0, 9), (14, 17), (31, 36)]  # exact, partial, false
    counts = fold_counts(doc, system)
    assert counts == {"gold": 3, "found": 2, "covered": 1, "system": 3, "right": 2}
    s = summarize(counts)
    assert (s["recall_any"], s["mention_recall"], s["precision"]) == (0.6667, 0.3333, 0.6667)


def test_write_folds_keeps_every_line_once(tmp_path: Path) -> None:
    ids = [f"uner-sk-dev-batch-{n:04d}-0{c}" for n in range(6) for c in (1, 2)]
    corpus = tmp_path / "toy.jsonl"
    corpus.write_text("".join(json.dumps({"id": i, "lang": "sk", "text": "x", "spans": []}) + "\n" for i in ids))
    paths = write_folds(corpus, tmp_path / "out")
    written = [json.loads(line)["id"] for p in paths for line in p.read_text().splitlines()]
    assert sorted(written) == sorted(ids)
    folds = document_folds(ids)
    for fold, p in enumerate(paths):
        assert all(folds[json.loads(line)["id"]] == fold for line in p.read_text().splitlines())
