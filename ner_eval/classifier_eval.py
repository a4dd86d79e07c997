"""Evaluation of the learned-suggestions classifier (issue 7): cross-validation and pipeline gain.

(a) 5-fold cross-validation on cnec-train (document = sentence; a seeded random sample, see --cnec-sample);
(b) 5-fold cross-validation by document on tab-dev (gold = DIRECT+QUASI) and elitr-dev;
(c) acceptance: any-overlap recall/precision of the full default pipeline with vs without the classifier on
    cnec-dtest (classifier trained on cnec-train) and elitr-dev (classifier of the fold that held the document out).

Span metrics use any-overlap matching: a gold span is found when some predicted span overlaps it; a predicted
span is correct when it overlaps some gold span.  Gold: CNEC without the marker labels (nested spans each
count), TAB DIRECT+QUASI, ELITR all spans.  Writes ner_eval/results/classifier/summary.json and README.md
(numbers only).  Usage: ``python ner_eval/classifier_eval.py [--cnec-sample 3000] [--cnec-train-limit N]``.
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

from psan.tool.detection.classifier import TokenClassifier, training_doc_from_gold  # noqa: E402
from psan.tool.detection.classifier.__main__ import evaluate, overlap_counts  # noqa: E402
from psan.tool.detection.classifier.data import gold_private_spans, read_jsonl  # noqa: E402
from psan.tool.detection.defaults import default_config  # noqa: E402
from psan.tool.detection.pipeline import Pipeline  # noqa: E402

SHARED = Path(os.environ.get("PSAN_SHARED_DIR", REPO.parent / "shared"))
DATA = SHARED / "data"
NAMETAG = SHARED / "models" / "nametag"
OUT = REPO / "ner_eval" / "results" / "classifier"


def folds(items: list[Any], k: int = 5) -> list[tuple[list[Any], list[Any]]]:
    """k (train, test) splits; items are pre-shuffled by the caller."""
    return [([x for j, x in enumerate(items) if j % k != f], [x for j, x in enumerate(items) if j % k == f])
            for f in range(k)]


FoldModels = list[tuple[TokenClassifier, list[dict]]]


def cross_validate(docs: list[dict], lang: str, k: int = 5) -> tuple[dict[str, Any], FoldModels]:
    """Mean over the folds of the classifier-alone metrics; also returns the fold models with their test docs."""
    per_fold, models = [], []
    for train, test in folds(docs, k):
        model = TokenClassifier.train([training_doc_from_gold(d) for d in train], lang)
        res = evaluate(model, test)
        res["train_seconds"] = model.train_seconds
        res["train_tokens"] = model.meta["tokens"]
        per_fold.append(res)
        models.append((model, test))
        print(f"  fold: {json.dumps({k_: round(v, 3) for k_, v in res.items()})}", flush=True)
    mean = {key: round(sum(f[key] for f in per_fold) / len(per_fold), 4) for key in per_fold[0]}
    return {"folds": k, "documents": len(docs), "mean": mean}, models


def pipeline_scores(lang: str, docs_models: list[tuple[TokenClassifier | None, list[dict]]]) -> dict[str, Any]:
    """Any-overlap recall/precision of the default pipeline (plus the classifier when a model is given)."""
    models_dir = str(NAMETAG) if lang == "cs" else None
    n_gold = n_pred = found = correct = 0
    started = time.perf_counter()
    for model, docs in docs_models:
        config = default_config(lang, models_dir)
        if model is not None:
            config["recognizers"] = [*config["recognizers"], {"kind": "classifier", "classifier": model}]
        pipeline = Pipeline(config)
        for doc, result in zip(docs, pipeline.process_many([d["text"] for d in docs]), strict=True):
            gold = [(s, e) for s, e, _ in gold_private_spans(doc)]
            pred = [result.char_range(e.first_token, e.end_token) for e in result.entities]
            f, c = overlap_counts(gold, pred)
            n_gold, n_pred, found, correct = n_gold + len(gold), n_pred + len(pred), found + f, correct + c
    return {"recall": round(found / n_gold, 4) if n_gold else 0.0,
            "precision": round(correct / n_pred, 4) if n_pred else 0.0,
            "gold_spans": n_gold, "predicted_spans": n_pred, "seconds": round(time.perf_counter() - started, 1),
            "ner": [e.get("kind") if isinstance(e, dict) else e for e in default_config(lang, models_dir)["ner"]]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cnec-sample", type=int, default=3000, help="sentences of cnec-train for the 5-fold CV")
    parser.add_argument("--cnec-train-limit", type=int, default=None, help="cnec-train sentences for the dtest model")
    parser.add_argument("--skip-tab", action="store_true")
    parser.add_argument("--render", action="store_true", help="only rewrite README.md from summary.json")
    args = parser.parse_args()
    if args.render:
        (OUT / "README.md").write_text(render(json.loads((OUT / "summary.json").read_text("utf-8"))), "utf-8")
        return 0
    if not DATA.is_dir():
        print(f"shared data {DATA} not found (set PSAN_SHARED_DIR)")
        return 1
    rng = random.Random(7)
    summary: dict[str, Any] = {"model": "multinomial logistic regression (saga, C=1, 50 epochs), IO over coarse "
                               "categories, greedy left-to-right; threshold p(private) >= 0.5"}

    print("(a) cnec-train 5-fold CV", flush=True)
    cnec = list(read_jsonl(DATA / "cnec-train.jsonl"))
    sample = rng.sample(cnec, min(args.cnec_sample, len(cnec)))
    summary["cv_cnec_train"], _ = cross_validate(sample, "cs")
    summary["cv_cnec_train"]["note"] = f"seeded random sample of {len(sample)} of {len(cnec)} sentences"

    print("(b) tab-dev / elitr-dev 5-fold CV by document", flush=True)
    if not args.skip_tab:
        tab = list(read_jsonl(DATA / "tab-dev.jsonl"))
        rng.shuffle(tab)
        summary["cv_tab_dev"], _ = cross_validate(tab, "en")
    elitr = list(read_jsonl(DATA / "elitr-dev.jsonl"))
    rng.shuffle(elitr)
    summary["cv_elitr_dev"], elitr_models = cross_validate(elitr, "en")

    print("(c) pipeline with vs without the classifier", flush=True)
    train = cnec if args.cnec_train_limit is None else cnec[:args.cnec_train_limit]
    cnec_model = TokenClassifier.train([training_doc_from_gold(d) for d in train], "cs")
    print(f"  cnec-train model: {cnec_model.meta}", flush=True)
    dtest = list(read_jsonl(DATA / "cnec-dtest.jsonl"))
    acceptance: dict[str, Any] = {}
    for name, lang, without, with_ in (
            ("cnec-dtest", "cs", [(None, dtest)], [(cnec_model, dtest)]),
            ("elitr-dev", "en", [(None, elitr)], elitr_models)):
        base = pipeline_scores(lang, without)
        plus = pipeline_scores(lang, with_)
        acceptance[name] = {"without": base, "with": plus,
                            "recall_gain_points": round(100 * (plus["recall"] - base["recall"]), 1),
                            "precision_loss_points": round(100 * (base["precision"] - plus["precision"]), 1)}
        acceptance[name]["accepted"] = (acceptance[name]["recall_gain_points"] >= 5
                                        and acceptance[name]["precision_loss_points"] <= 10)
        print(f"  {name}: {json.dumps(acceptance[name])}", flush=True)
    acceptance["cnec-dtest"]["classifier_training"] = {
        k: cnec_model.meta[k] for k in ("documents", "tokens", "train_seconds", "converged")}
    acceptance["elitr-dev"]["classifier_training"] = {
        "mean_train_seconds": round(sum(m.train_seconds for m, _ in elitr_models) / len(elitr_models), 2),
        "note": "5-fold by document: each document scored by the model trained on the other folds"}
    summary["acceptance"] = acceptance

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    table = render(summary)
    (OUT / "README.md").write_text(table, encoding="utf-8")
    print(table)
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def render(summary: dict[str, Any]) -> str:
    """Markdown tables of the figures (numbers only)."""
    lines = ["# Learned-suggestions classifier – evaluation", "", summary["model"], "",
             "## Pipeline with vs without the classifier (any-overlap, %)", "",
             "| corpus | R without | P without | R with | P with | ΔR | ΔP | accepted | train s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, a in summary["acceptance"].items():
        t = a["classifier_training"]
        secs = t.get("train_seconds", t.get("mean_train_seconds"))
        lines.append(f"| {name} | {_pct(a['without']['recall'])} | {_pct(a['without']['precision'])} | "
                     f"{_pct(a['with']['recall'])} | {_pct(a['with']['precision'])} | {a['recall_gain_points']:+.1f} | "
                     f"{-a['precision_loss_points']:+.1f} | {'yes' if a['accepted'] else 'no'} | {secs} |")
    lines += ["", "## Classifier alone, 5-fold cross-validation (mean over folds, %)", "",
              "| corpus | docs | token P | token R | token F1 | span R | span P | train s/fold |",
              "|---|---|---|---|---|---|---|---|"]
    for key in ("cv_cnec_train", "cv_tab_dev", "cv_elitr_dev"):
        if key not in summary:
            continue
        m = summary[key]["mean"]
        lines.append(f"| {key[3:]} | {summary[key]['documents']} | {_pct(m['token_precision'])} | "
                     f"{_pct(m['token_recall'])} | {_pct(m['token_f1'])} | {_pct(m['span_recall'])} | "
                     f"{_pct(m['span_precision'])} | {m['train_seconds']} |")
    lines += ["", f"cnec-train CV: {summary['cv_cnec_train']['note']}.",
              "Acceptance target: ΔR ≥ +5 points with ΔP ≥ −10 points. \"train s\": seconds to train the classifier "
              "(cnec-dtest: one model on all of cnec-train; elitr-dev: mean over the 5 document folds), measured on "
              "a shared 2-core machine under load.  Span figures use any-overlap matching; CNEC nested spans count "
              "individually (hence span recall above token recall).", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
