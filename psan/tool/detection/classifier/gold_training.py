"""Training a pre-trained classifier on gold corpora, with the digests of the texts it saw in its metadata.

Why one function: the training command and the held-out models of ``ner_eval`` must train the same way and record
the same provenance (:mod:`psan.tool.detection.classifier.provenance`).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from psan.tool.detection.classifier.data import read_jsonl, training_doc_from_gold
from psan.tool.detection.classifier.model import TokenClassifier
from psan.tool.detection.classifier.provenance import DIGESTS_KEY, training_digests

__all__ = ["train_on_corpora"]


def train_on_corpora(corpora: Sequence[str | Path], language: str, limit: int | None = None, c: float = 1.0,
                     max_iter: int = 50) -> TokenClassifier:
    """A classifier fitted on the gold of JSONL ``corpora`` (at most ``limit`` documents of each)."""
    gold = [d for path in corpora for d in read_jsonl(path, limit)]
    model = TokenClassifier.train([training_doc_from_gold(d) for d in gold], language, c=c, max_iter=max_iter)
    model.meta[DIGESTS_KEY] = training_digests(d["text"] for d in gold)
    return model
