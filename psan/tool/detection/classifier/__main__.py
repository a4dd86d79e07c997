"""CLI: ``python -m psan.tool.detection.classifier train|evaluate``.

``train --corpus X.jsonl [--corpus Y.jsonl] --lang cs --out model.bin [--limit N]`` fits a model on gold
corpora in the shared JSONL format; ``evaluate --model model.bin --corpus Z.jsonl`` prints token-level and
any-overlap span precision/recall of the classifier alone (the pipeline comparison is
``ner_eval/classifier_eval.py``).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from psan.tool.detection.classifier.data import gold_private_spans, read_jsonl
from psan.tool.detection.classifier.features import OUTSIDE
from psan.tool.detection.classifier.gold_training import train_on_corpora
from psan.tool.detection.classifier.model import TokenClassifier, token_labels
from psan.tool.detection.classifier.provenance import DIGESTS_KEY


def overlap_counts(gold: Sequence[tuple[int, int]], predicted: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """(gold spans overlapped by a prediction, predictions overlapping a gold span) – any-overlap matching."""
    found = sum(any(ps < ge and gs < pe for ps, pe in predicted) for gs, ge in gold)
    correct = sum(any(ps < ge and gs < pe for gs, ge in gold) for ps, pe in predicted)
    return found, correct


def evaluate(model: TokenClassifier, docs: Sequence[dict], threshold: float | None = None) -> dict[str, float]:
    """Token-level (private vs not) and any-overlap span recall/precision of the classifier alone."""
    tp = fp = fn = 0
    n_gold = n_pred = found = correct = 0
    for doc in docs:
        text = doc["text"]
        gold = gold_private_spans(doc)
        preds = model.predict_tokens(text, threshold)
        labels = token_labels(text, [p.token for p in preds], gold)
        for p, g in zip(preds, labels, strict=True):
            tp += p.label != OUTSIDE and g != OUTSIDE
            fp += p.label != OUTSIDE and g == OUTSIDE
            fn += p.label == OUTSIDE and g != OUTSIDE
        spans = [(s.start, s.end) for s in model.predict_spans(text, threshold=threshold)]
        g_spans = [(s, e) for s, e, _ in gold]
        f, c = overlap_counts(g_spans, spans)
        n_gold, n_pred, found, correct = n_gold + len(g_spans), n_pred + len(spans), found + f, correct + c
    p_tok = tp / (tp + fp) if tp + fp else 0.0
    r_tok = tp / (tp + fn) if tp + fn else 0.0
    return {"token_precision": p_tok, "token_recall": r_tok,
            "token_f1": 2 * p_tok * r_tok / (p_tok + r_tok) if p_tok + r_tok else 0.0,
            "span_recall": found / n_gold if n_gold else 0.0, "span_precision": correct / n_pred if n_pred else 0.0,
            "gold_spans": n_gold, "predicted_spans": n_pred}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m psan.tool.detection.classifier",
                                     description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train a model on gold JSONL corpora")
    tr.add_argument("--corpus", action="append", required=True, help="JSONL corpus (repeatable)")
    tr.add_argument("--lang", default="", help="language code (enables the name lists of the language)")
    tr.add_argument("--out", required=True, help="model file to write")
    tr.add_argument("--limit", type=int, default=None, help="use at most N documents of each corpus")
    tr.add_argument("--c", type=float, default=1.0, help="inverse L2 regularisation strength")
    tr.add_argument("--max-iter", type=int, default=50)
    ev = sub.add_parser("evaluate", help="evaluate a model on a gold JSONL corpus")
    ev.add_argument("--model", required=True)
    ev.add_argument("--corpus", action="append", required=True)
    ev.add_argument("--limit", type=int, default=None)
    ev.add_argument("--threshold", type=float, default=None, help="p(private) threshold (default: the model's)")
    args = parser.parse_args(argv)
    if args.command == "train":
        model = train_on_corpora(args.corpus, args.lang, args.limit, c=args.c, max_iter=args.max_iter)
        model.save(args.out)
        print(json.dumps({k: v for k, v in model.meta.items() if k != DIGESTS_KEY}, indent=2))
        return 0
    model = TokenClassifier.load(args.model)
    started = time.perf_counter()
    docs = [d for path in args.corpus for d in read_jsonl(path, args.limit)]
    result = evaluate(model, docs, args.threshold)
    result["seconds"] = round(time.perf_counter() - started, 2)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
