"""Precision and recall by category (PERSON, LOCATION) of a language's default pipeline, on two folds.

Why by category: the thesis metrics (:mod:`ner_eval.metrics`) ignore labels, so a town read as a person
("She moved to Manchester") counts as found; the category decides the surrogate, the entity and whether
a span is suggested public.  A system span of category C is right when it overlaps a gold span of C; a
gold span of C is found when a system span of C overlaps it.  Folds: even / odd document index (choose
on fold 0, report fold 1).  Prints numbers only, never corpus text::

    python ner_eval/category_folds.py --data-dir ../shared/data --corpus tab-dev --corpus presidio-synth
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from psan.tool.detection.pipeline import Pipeline
from psan.tool.text.document import Category

#: gold labels of each corpus by psan category
GOLD = {
    "tab-dev": {"PERSON": Category.PERSON, "LOC": Category.LOCATION},
    "presidio-synth": {"PERSON": Category.PERSON, "GPE": Category.LOCATION},
    "elitr-dev": {"PERSON": Category.PERSON, "LOCATION": Category.LOCATION},
}
CATEGORIES = (Category.PERSON, Category.LOCATION)


def _overlaps(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in others)


def evaluate(path: Path, labels: dict[str, Category], limit: int | None = None,
             config: dict | None = None) -> dict[int, dict[str, dict[str, float]]]:
    """Per fold and category: precision, recall and the counts behind them."""
    pipeline = Pipeline(config, language="en")
    counts = {fold: {c: [0, 0, 0, 0] for c in CATEGORIES} for fold in (0, 1)}  # gold, found, system, right
    with open(path, encoding="utf-8") as fh:
        for index, line in enumerate(fh):
            if limit is not None and index >= limit:
                break
            doc = json.loads(line)
            result = pipeline.process(doc["text"])
            tokens = result.tokens
            system = [(e.category, (tokens[e.first_token].start, tokens[e.end_token - 1].end))
                      for e in result.entities]
            for category in CATEGORIES:
                gold = [(s["start"], s["end"]) for s in doc["spans"] if labels.get(s["label"]) is category]
                mine = [span for c, span in system if c is category]
                c = counts[index % 2][category]
                c[0] += len(gold)
                c[1] += sum(_overlaps(g, mine) for g in gold)
                c[2] += len(mine)
                c[3] += sum(_overlaps(m, gold) for m in mine)
    return {fold: {str(category): {"precision": round(c[3] / c[2], 4) if c[2] else 0.0,
                                   "recall": round(c[1] / c[0], 4) if c[0] else 0.0,
                                   "gold": c[0], "system": c[2]}
                   for category, c in by_category.items()}
            for fold, by_category in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    parser.add_argument("--corpus", action="append", choices=sorted(GOLD))
    parser.add_argument("--limit", type=int, default=None, help="first N documents of each corpus")
    parser.add_argument("--config", type=json.loads, default=None, help="pipeline configuration (JSON)")
    args = parser.parse_args()
    for name in args.corpus or ["tab-dev", "presidio-synth"]:
        for fold, numbers in evaluate(args.data_dir / f"{name}.jsonl", GOLD[name], args.limit, args.config).items():
            print(json.dumps({"corpus": name, "fold": fold, **numbers}), flush=True)


if __name__ == "__main__":
    main()
