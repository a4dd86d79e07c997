"""A classifier trained on gold corpora records which texts it saw, and says how many of a corpus it has seen."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("sklearn")

from psan.tool.detection.classifier.gold_training import train_on_corpora  # noqa: E402
from psan.tool.detection.classifier.model import TokenClassifier  # noqa: E402
from psan.tool.detection.classifier.provenance import (  # noqa: E402
    DIGESTS_KEY,
    seen_texts,
    text_digest,
    training_digests,
)

NAMES = ["Jan Novák", "Eva Malá", "Petr Dvořák", "Marie Černá", "Karel Horák"]
CITIES = ["Brno", "Zlín", "Opava"]


def write_corpus(path: Path, n: int, seed: int) -> list[str]:
    """A toy gold corpus of ``n`` one-sentence documents; returns their texts."""
    rng = random.Random(seed)
    texts = []
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            name, city = rng.choice(NAMES), rng.choice(CITIES)
            text = f"Svědek {name} bydlí v {city} od roku {1000 * seed + i} ."
            spans = [{"start": 7, "end": 7 + len(name), "label": "PER"},
                     {"start": text.index(city), "end": text.index(city) + len(city), "label": "LOC"}]
            fh.write(json.dumps({"id": f"d{seed}-{i}", "lang": "cs", "text": text, "spans": spans}) + "\n")
            texts.append(text)
    return texts


def test_digest_names_a_text_without_holding_it() -> None:
    digest = text_digest("Jan Novák bydlí v Brně.")
    assert len(digest) == 16 and int(digest, 16) >= 0
    assert "Novák" not in digest and digest != text_digest("Jan Novák bydlí v Brně!")
    assert training_digests(["b", "a", "b"]) == sorted({text_digest("a"), text_digest("b")})


def test_trained_model_counts_the_corpus_texts_it_saw_after_a_round_trip(tmp_path: Path) -> None:
    seen = write_corpus(tmp_path / "train.jsonl", 30, seed=1)
    unseen = write_corpus(tmp_path / "other.jsonl", 10, seed=2)
    model = train_on_corpora([tmp_path / "train.jsonl"], "cs")
    model.save(str(tmp_path / "m.bin"))
    meta = TokenClassifier.load(str(tmp_path / "m.bin")).meta
    assert len(meta[DIGESTS_KEY]) == len(set(seen))
    assert seen_texts(meta, seen[:7] + unseen) == 7
    assert seen_texts(meta, unseen) == 0


def test_a_model_without_digests_does_not_say() -> None:
    assert seen_texts({"documents": 71}, ["any text"]) is None
