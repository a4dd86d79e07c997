"""Does a per-language pre-trained classifier help the sk / pl / sv default pipelines?  (issue 12, item 3)

Only dev files exist for these languages in ../shared/data, so the classifier is scored by 5-fold
cross-validation **by document**: each document is recognized by the default pipeline (NameTag models
from ../shared) plus the classifier trained on the other four folds, never on itself.  The baseline is the
same default pipeline without the classifier on the same documents.  Any-overlap recall/precision as in
``ner_eval`` (gold: every span).  Writes ``ner_eval/results/classifier/languages.json`` and ``languages.md``
(numbers only).  Usage: ``python ner_eval/languages_classifier.py [--corpora sk-dev,pl-dev,sv-dev]``.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ner_eval.classifier_eval import folds  # noqa: E402
from ner_eval.pipelines import entity_spans  # noqa: E402
from psan.tool.detection.classifier import TokenClassifier, training_doc_from_gold  # noqa: E402
from psan.tool.detection.classifier.__main__ import overlap_counts  # noqa: E402
from psan.tool.detection.classifier.data import read_jsonl  # noqa: E402
from psan.tool.detection.defaults import default_config  # noqa: E402
from psan.tool.detection.pipeline import Pipeline  # noqa: E402

SHARED = Path(os.environ.get("PSAN_SHARED_DIR", REPO.parent / "shared"))
NAMETAG = SHARED / "models" / "nametag"
OUT = REPO / "ner_eval" / "results" / "classifier"
LANGS = {"sk-dev": "sk", "pl-dev": "pl", "sv-dev": "sv"}


def _score(config: dict[str, Any], docs: list[dict]) -> tuple[int, int, int, int]:
    pipeline = Pipeline(config)
    n_gold = n_pred = found = correct = 0
    for doc, result in zip(docs, pipeline.process_many([d["text"] for d in docs]), strict=True):
        gold = [(s["start"], s["end"]) for s in doc["spans"]]
        pred = entity_spans(result)
        f, c = overlap_counts(gold, pred)
        n_gold, n_pred, found, correct = n_gold + len(gold), n_pred + len(pred), found + f, correct + c
    return n_gold, n_pred, found, correct


def evaluate_language(name: str, lang: str) -> dict[str, Any]:
    docs = list(read_jsonl(SHARED / "data" / f"{name}.jsonl"))
    random.Random(7).shuffle(docs)
    totals = {"without": [0, 0, 0, 0], "with": [0, 0, 0, 0]}
    seconds = []
    for train, test in folds(docs):
        model = TokenClassifier.train([training_doc_from_gold(d) for d in train], lang)
        seconds.append(model.train_seconds)
        base = default_config(lang, str(NAMETAG))
        plus = json.loads(json.dumps(base))
        plus["recognizers"].append({"kind": "classifier", "classifier": model})
        for key, config in (("without", base), ("with", plus)):
            totals[key] = [a + b for a, b in zip(totals[key], _score(config, test), strict=True)]
    out: dict[str, Any] = {"documents": len(docs), "mean_train_seconds": round(sum(seconds) / len(seconds), 2)}
    for key, (n_gold, n_pred, found, correct) in totals.items():
        out[key] = {"recall": round(found / n_gold, 4), "precision": round(correct / n_pred, 4) if n_pred else 0.0,
                    "gold_spans": n_gold, "predicted_spans": n_pred}
    return out


def render(summary: dict[str, Any]) -> str:
    lines = ["# Per-language classifier in the default pipeline (5-fold CV by document)", "",
             "| corpus | docs | R without | P without | R with | P with | ΔR | ΔP | train s/fold |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, r in summary.items():
        a, b = r["without"], r["with"]
        lines.append(f"| {name} | {r['documents']} | {a['recall']:.3f} | {a['precision']:.3f} | {b['recall']:.3f} | "
                     f"{b['precision']:.3f} | {100 * (b['recall'] - a['recall']):+.1f} | "
                     f"{100 * (b['precision'] - a['precision']):+.1f} | {r['mean_train_seconds']} |")
    lines += ["", "Each document is scored by the classifier trained on the other folds (never on itself). "
              "Reproduce: `python ner_eval/languages_classifier.py`.", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default=",".join(LANGS))
    args = parser.parse_args()
    summary = {}
    for name in args.corpora.split(","):
        started = time.perf_counter()
        summary[name] = evaluate_language(name, LANGS[name])
        print(f"{name}: {json.dumps(summary[name])} ({time.perf_counter() - started:.0f} s)", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "languages.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    (OUT / "languages.md").write_text(render(summary), encoding="utf-8")
    print(render(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
