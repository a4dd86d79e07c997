"""Precision and recall of the ADDRESS recognizer on two folds of the shared corpora.

Why folds: the street words, number shapes and town rules of :mod:`psan.tool.detection.recognizers.addresses`
were chosen while reading fold 0 (even document index); fold 1 (odd index) is reported as data the
rules were not chosen on.  Corpora: ``presidio-synth`` (English, gold ``STREET_ADDRESS``) and the
Czech ``cnec-train`` + ``cnec-dtest`` (gold: CNEC's address container ``A``).

Word-level: recall = the words of gold addresses that an ADDRESS span covers; precision = the words
of ADDRESS spans inside a gold address or one of its parts (Presidio's ``ZIP_CODE`` and town/country
``GPE``; CNEC's street, town and postcode codes).  Prints numbers only, never corpus text::

    python ner_eval/address_folds.py --data-dir ../shared/data
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from psan.tool.detection.recognizers import patterns

WORD = re.compile(r"\w+")
CORPORA = {
    "presidio-synth": ("en", ("presidio-synth.jsonl",), {"STREET_ADDRESS"}, {"STREET_ADDRESS", "ZIP_CODE", "GPE"}),
    "cnec": ("cs", ("cnec-train.jsonl", "cnec-dtest.jsonl"), {"A"}, {"A", "ah", "az", "gs", "gu", "gq", "gc"}),
}


def _words(text: str, spans: list[tuple[int, int]]) -> set[int]:
    """Start offsets of the words inside the spans."""
    out: set[int] = set()
    for start, end in spans:
        out.update(m.start() for m in WORD.finditer(text, start, end))
    return out


def evaluate(data_dir: Path) -> dict[str, dict[int, dict[str, float]]]:
    """Per corpus and fold: precision, recall and the word counts behind them."""
    results: dict[str, dict[int, dict[str, float]]] = {}
    for name, (language, files, gold_labels, part_labels) in CORPORA.items():
        counts = {fold: [0, 0, 0, 0, 0] for fold in (0, 1)}  # gold, gold found, predicted, predicted right, docs
        for file in files:
            with open(data_dir / file, encoding="utf-8") as fh:
                for index, line in enumerate(fh):
                    doc = json.loads(line)
                    fold = index % 2
                    text = doc["text"]
                    gold = _words(text, [(s["start"], s["end"]) for s in doc["spans"] if s["label"] in gold_labels])
                    parts = _words(text, [(s["start"], s["end"]) for s in doc["spans"] if s["label"] in part_labels])
                    found = _words(text, [(s.start, s.end) for s in patterns.analyze(text, language)
                                          if s.type == "ADDRESS"])
                    c = counts[fold]
                    c[0] += len(gold)
                    c[1] += len(gold & found)
                    c[2] += len(found)
                    c[3] += len(found & parts)
                    c[4] += 1
        results[name] = {fold: {"precision": round(c[3] / c[2], 3) if c[2] else 0.0,
                                "recall": round(c[1] / c[0], 3) if c[0] else 0.0,
                                "gold_words": c[0], "predicted_words": c[2], "documents": c[4]}
                         for fold, c in counts.items()}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    args = parser.parse_args()
    for name, folds in evaluate(args.data_dir).items():
        for fold, numbers in folds.items():
            print(json.dumps({"corpus": name, "fold": fold, **numbers}))


if __name__ == "__main__":
    main()
