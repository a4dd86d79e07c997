"""``python -m ner_eval inflection-fit --corpus inflect-cs-dev.jsonl --fold a``: how much each model counts.

Why: the analysis adds the readings of several models (the tagger's case, number and gender of the name,
the parser's relation, the verb table, the learned reader) to the rules' own score, each with a weight
(:data:`psan.tool.morph.analysis.DEFAULT_MODEL_WEIGHTS`).  Hand-set weights were written on the sentences
they were measured on; here they are fitted on one held-out fold only, by coordinate search over a fixed
grid: each weight in turn takes the grid value that reads the fold's Case, Gender (persons) and Number
best (summed counts; a tie keeps the value nearer the default), for a few passes.  The other fold is
printed beside it, never used: it is the held-out figure.  The fit runs the same replacer as
``psan-tool pseudonymize`` in this process (many evaluations); the chosen weights go into
``MODEL_WEIGHTS`` and the figures are then measured again through the command (``ner_eval inflection``).
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ner_eval.inflection import FOLDS, _resolve, score_spans, span_results

#: the values each weight may take
GRID = (0.0, 0.3, 0.6, 1.0, 1.5, 2.5)
#: the weights fitted (the rest keep their defaults)
KEYS = ("tagger_case", "tagger_number", "tagger_gender", "syntax", "verb", "learned_case", "learned_number",
        "learned_gender")


def evaluate(docs: list[dict[str, Any]], language: str, weights: dict[str, float]) -> dict[str, dict[str, Any]]:
    """The fold figures of ``docs`` pseudonymized with ``weights`` as the language's model weights."""
    from psan.tool.cli.pseudonymize import pseudonymize_corpus
    from psan.tool.morph import analysis
    saved = analysis.MODEL_WEIGHTS.get(language)
    analysis.MODEL_WEIGHTS[language] = dict(weights)
    try:
        results = span_results(docs, pseudonymize_corpus(docs, None, "pseudonymize", "1"))
    finally:
        if saved is None:
            analysis.MODEL_WEIGHTS.pop(language, None)
        else:
            analysis.MODEL_WEIGHTS[language] = saved
    return {"fold_all": score_spans(results), **{f"fold_{f}": score_spans([s for s in results if s["fold"] == f])
                                                   for f in FOLDS}}


def _objective(fold: dict[str, Any]) -> float:
    """Correct Case, Gender (persons) and Number readings of a fold, summed."""
    total = 0.0
    for key, count in (("case", "spans"), ("gender_persons", "persons_with_gender"), ("number", "spans")):
        if fold[key] is not None:
            total += fold[key] * fold[count]
    return round(total, 3)


def fit(docs: list[dict[str, Any]], language: str, fold: str, keys: Sequence[str] = KEYS,
        grid: Sequence[float] = GRID, passes: int = 2,
        start: dict[str, float] | None = None) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Coordinate search of the model weights on ``fold`` of ``docs`` (``all``: every document, for a corpus
    other than the one measured, such as a treebank's names): the chosen weights and a trace."""
    from psan.tool.morph import analysis
    default = analysis.model_weights(language)
    weights = dict(start or default)
    trace: list[dict[str, Any]] = []
    fitted = docs if fold == "all" else [d for d in docs if _fold(d) == fold]
    best = _objective(evaluate(fitted, language, weights)[f"fold_{fold}"])
    for _ in range(passes):
        changed = False
        for key in keys:
            options = []
            for value in sorted({*grid, default[key]}):  # the default is always a candidate
                trial = {**weights, key: value}
                got = _objective(evaluate(fitted, language, trial)[f"fold_{fold}"])
                options.append((got, -abs(value - default[key]), value))
            got, _closeness, value = max(options)
            trace.append({"weight": key, "scores": {str(v): o for o, _c, v in options}, "chosen": value})
            if value != weights[key]:
                weights[key], changed = value, True
            best = got
        if not changed:
            break
    trace.append({"objective": best})
    return weights, trace


def _fold(doc: dict[str, Any]) -> str:
    from ner_eval.inflection import fold_of
    return fold_of(str(doc["id"]))


def main(corpus: str, fold: str, morph_models: str | None = None, data_dir: str | None = None,
         lang: str | None = None, passes: int = 2) -> int:
    """Fit on ``fold``, print the chosen weights and both folds' figures (default and fitted) as JSON."""
    path = _resolve(corpus, data_dir)
    if not path.is_file():
        print(f"error: corpus file {path} not found", file=sys.stderr)
        return 2
    if morph_models:
        os.environ["PSAN_NAMETAG_MODELS"] = morph_models
    docs = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    language = lang or str(docs[0].get("lang", ""))
    from psan.tool.morph import analysis
    before = evaluate(docs, language, analysis.model_weights(language))
    weights, trace = fit(docs, language, fold, passes=passes)
    after = evaluate(docs, language, weights)
    print(json.dumps({"corpus": path.name, "language": language, "fitted_on": f"fold_{fold}",
                      "morph_models": os.environ.get("PSAN_NAMETAG_MODELS"), "weights": weights,
                      "before": before, "after": after, "trace": trace}, ensure_ascii=False))
    return 0
