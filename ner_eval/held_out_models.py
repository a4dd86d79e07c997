"""Models folders for measuring a corpus on documents its classifier has not seen: one per fold of the corpus.

Why: the recipe trains a language's classifier on the same shared file its evaluations read where no other gold
exists (Slovak: ``sk-dev``), so those evaluations are optimistic (:mod:`ner_eval.seen`).  This writes the corpus' two
folds (:func:`ner_eval.detection_folds.write_folds`: chunks of one source document stay together) and, per fold, a
models folder holding every file of the given models folder (linked, not copied) except the language's classifier,
which is trained on the *other* fold.  Measure each fold with its folder and report both::

    python -m ner_eval.held_out_models --corpus ../shared/data/sk-dev.jsonl --lang sk --models-dir MODELS --out DIR
    python -m ner_eval release --corpus DIR/sk-dev-fold0.jsonl --models-dir DIR/sk-dev-fold0-models …
    python -m ner_eval release --corpus DIR/sk-dev-fold1.jsonl --models-dir DIR/sk-dev-fold1-models …

The folders are derived models: they stay out of the repository, like the models folder itself.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ner_eval.detection_folds import write_folds

__all__ = ["held_out_models", "main"]


def held_out_models(corpus: Path, language: str, models_dir: Path, out: Path) -> list[tuple[Path, Path]]:
    """(fold corpus, its models folder) for both folds of ``corpus`` (see the module docstring)."""
    from psan.tool.detection.classifier.gold_training import train_on_corpora
    folds = write_folds(corpus, out)
    classifier = f"classifier-{language}.bin"
    pairs = []
    for k, fold in enumerate(folds):
        folder = out / f"{fold.stem}-models"
        folder.mkdir(parents=True, exist_ok=True)
        for entry in sorted(models_dir.iterdir()):
            link = folder / entry.name
            if entry.name == classifier or not entry.is_file() or link.exists() or link.is_symlink():
                continue
            os.symlink(entry.resolve(), link)
        others = [f for j, f in enumerate(folds) if j != k]
        train_on_corpora(others, language).save(str(folder / classifier))
        pairs.append((fold, folder))
    return pairs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, type=Path, help="JSONL corpus in the shared format")
    parser.add_argument("--lang", required=True, help="the corpus' language (the classifier's)")
    parser.add_argument("--models-dir", required=True, type=Path, help="the models folder to derive the folders from")
    parser.add_argument("--out", required=True, type=Path, help="folder for the fold corpora and models folders")
    args = parser.parse_args(argv)
    if not args.models_dir.is_dir():
        parser.error(f"no models folder {args.models_dir}")
    for fold, folder in held_out_models(args.corpus, args.lang, args.models_dir, args.out):
        print(f"python -m ner_eval release --corpus {fold} --models-dir {folder} --workflow psan")
    return 0


if __name__ == "__main__":
    sys.exit(main())
