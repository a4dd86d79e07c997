"""Held-out models folders: per fold, the other models linked and a classifier trained on the other fold only."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("sklearn")

from ner_eval.held_out_models import held_out_models  # noqa: E402
from ner_eval.seen import seen_documents, warning  # noqa: E402
from psan.tool.detection.classifier.model import TokenClassifier  # noqa: E402
from psan.tool.detection.classifier.provenance import seen_texts  # noqa: E402


def toy_corpus(path: Path) -> None:
    lines = []
    for n in range(12):
        for chunk in (1, 2):
            name = ["Jan Novák", "Eva Malá", "Petr Dvořák"][n % 3]
            text = f"Svedok {name} býva v Brne od roku {1990 + n} , kapitola {chunk} ."
            lines.append({"id": f"uner-sk-dev-batch-{n:04d}-0{chunk}", "lang": "sk", "text": text,
                          "spans": [{"start": 7, "end": 7 + len(name), "label": "PER"}]})
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")


def texts(path: Path) -> list[str]:
    return [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines()]


def test_each_fold_gets_the_other_folds_classifier_and_the_other_models(tmp_path: Path) -> None:
    corpus = tmp_path / "sk-dev.jsonl"
    toy_corpus(corpus)
    models = tmp_path / "models"
    models.mkdir()
    (models / "slovak-uner-trivial.ner").write_bytes(b"model")
    (models / "classifier-sk.bin").write_bytes(b"the recipe's model, trained on everything")
    pairs = held_out_models(corpus, "sk", models, tmp_path / "out")
    assert [fold.name for fold, _ in pairs] == ["sk-dev-fold0.jsonl", "sk-dev-fold1.jsonl"]
    for k, (fold, folder) in enumerate(pairs):
        other = pairs[1 - k][0]
        assert (folder / "slovak-uner-trivial.ner").resolve() == (models / "slovak-uner-trivial.ner").resolve()
        assert not (folder / "classifier-sk.bin").is_symlink()
        meta = TokenClassifier.load(str(folder / "classifier-sk.bin")).meta
        assert seen_texts(meta, texts(fold)) == 0
        assert seen_texts(meta, texts(other)) == len(texts(other))


def test_an_evaluation_on_seen_documents_is_flagged(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    toy_corpus(corpus)
    from psan.tool.detection.classifier.gold_training import train_on_corpora
    train_on_corpora([corpus], "sk").save(str(tmp_path / "classifier-sk.bin"))
    config = {"recognizers": ["patterns", {"kind": "classifier", "model_path": str(tmp_path / "classifier-sk.bin")}]}
    seen = seen_documents(config, texts(corpus)[:5] + ["a text it never saw"])
    assert seen == [{"model": "classifier-sk.bin", "seen": 5, "documents": 6}]
    assert "trained on 5 of its 6 documents" in (warning(seen) or "")
    assert warning([{"model": "classifier-sk.bin", "seen": 0, "documents": 6}]) is None
    assert warning([{"model": "classifier-sk.bin", "seen": None, "documents": 6}]) is None
