"""A learned reader of a name's case, number and gender from its ending and its neighbours.

Why: the hand-made evidence rules were written on development sentences and generalise worse than a
statistical model (measured: Czech case 0.88 on the sentences they were written on, 0.74 on
unseen ones).  This is a small linear model (scikit-learn's logistic loss) over the word's suffixes and
the words around it, trained on the nouns and proper nouns of the Universal Dependencies treebanks
(names decline like nouns; a feature tells names apart).  It is stored as plain JSON weights
(``cases-<lang>.json`` in the models folder, never in the repository; no pickle is ever loaded) and
scored by hand, so it needs neither scikit-learn nor the tagger at run time.  Its vote enters
:mod:`.analysis` with a weight chosen on one held-out fold of ``ner_eval inflection`` and judged on
the other.
"""
from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from psan.tool.morph.train import training_data

MODEL_NAME = "cases-{lang}.json"
FEATURES = ("Case", "Number", "Gender")
#: the model a language uses (Slovenian is not measured: it uses none)
MODEL_OF = {"cs": "cs", "sk": "sk"}


def model_path(models_dir: str | Path, lang: str) -> Path:
    """Where the name-case model of ``lang`` lives in a models folder."""
    return Path(models_dir) / MODEL_NAME.format(lang=lang)


def features(words: Sequence[str], i: int) -> list[str]:
    """The features of word ``i`` of a sentence: its suffixes, its neighbours and their endings."""
    w = words[i].casefold()
    prev = words[i - 1].casefold() if i > 0 else "<s>"
    prev2 = words[i - 2].casefold() if i > 1 else "<s>"
    nxt = words[i + 1].casefold() if i + 1 < len(words) else "</s>"
    out = [f"s{k}={w[-k:]}" for k in range(1, 5) if len(w) > k] + [
        f"p={prev}", f"p2={prev2}", f"ps2={prev[-2:]}", f"ps3={prev[-3:]}", f"n={nxt}", f"ns2={nxt[-2:]}",
        f"pp={prev2}|{prev}", f"up={words[i][:1].isupper()}"]
    if prev[:1].isupper() and i > 0:
        out.append(f"pcap_s2={prev[-2:]}")  # a first name before a surname agrees with it
    return out


def _samples(conllu: str, limit: int, seed: int) -> list[tuple[list[str], dict[str, str]]]:
    """(features, {Case, Number, Gender}) of nouns and proper nouns of the CoNLL-U text, at most ``limit``."""
    out: list[tuple[list[str], dict[str, str]]] = []
    for block in conllu.split("\n\n"):
        rows = [line.split("\t") for line in block.splitlines() if line and not line.startswith("#")]
        rows = [r for r in rows if len(r) >= 6 and r[0].isdigit()]
        words = [r[1] for r in rows]
        for i, r in enumerate(rows):
            if r[3] not in ("NOUN", "PROPN"):
                continue
            feats = dict(f.split("=", 1) for f in r[5].split("|") if "=" in f)
            if "Case" not in feats:
                continue
            out.append((features(words, i) + [f"propn={r[3] == 'PROPN'}"],
                        {k: feats.get(k, "") for k in FEATURES}))
    rng = random.Random(seed)  # nosec B311 - a reproducible sample, no security use
    rng.shuffle(out)
    return out[:limit]


def train(treebanks: Sequence[str | Path], out: str | Path, exclude: Sequence[str | Path] = (),
          whole_documents: bool = False, limit: int = 120_000, seed: int = 1,
          name_weight: float = 1.0) -> dict[str, object]:
    """Train the three classifiers and write their weights (with a record of the data) as JSON.

    ``name_weight``: how much a proper noun counts against a common noun.  Why: a small treebank (Czech: some
    23,000 nouns, 1,800 of them names) teaches the reader the common nouns' endings; names weighed up
    teach it theirs (Czech, 4-fold cross-validation by document on the treebanks' names read by the whole
    analysis: Case 0.876 with the rules alone, 0.890 with the reader at weight 1, 0.913 at 20)."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import SGDClassifier

    data, counts = training_data(treebanks, exclude, whole_documents)
    samples = _samples(data, limit, seed)
    if not samples:
        raise ValueError("no nouns with a case in the treebanks")
    vec = DictVectorizer()
    x = vec.fit_transform([{f: 1 for f in feats} for feats, _y in samples]).tocsr()
    x.indices, x.indptr = x.indices.astype("int32"), x.indptr.astype("int32")  # SGD takes 32-bit indices only
    names = vec.get_feature_names_out()
    weights_of = [name_weight if "propn=True" in feats else 1.0 for feats, _y in samples]
    model: dict[str, object] = {}
    for feat in FEATURES:
        y = [labels[feat] or "-" for _f, labels in samples]
        if len(set(y)) < 2:  # one value only (a toy treebank): certain, no weights
            model[feat] = {"classes": [y[0]], "intercept": [0.0], "weights": {}}
            continue
        clf = SGDClassifier(loss="log_loss", alpha=2e-6, max_iter=15, tol=None, random_state=seed)
        clf.fit(x, y, sample_weight=weights_of)
        classes = [str(c) for c in clf.classes_]
        coef = clf.coef_ if len(classes) > 2 else [-clf.coef_[0], clf.coef_[0]]
        intercept = clf.intercept_ if len(classes) > 2 else [-clf.intercept_[0], clf.intercept_[0]]
        weights: dict[str, list[float]] = {}
        for j, name in enumerate(names):
            row = [round(float(coef[k][j]), 3) for k in range(len(classes))]
            if any(abs(v) >= 0.01 for v in row):
                weights[str(name)] = row
        model[feat] = {"classes": classes, "intercept": [round(float(v), 3) for v in intercept], "weights": weights}
    record = {"treebanks": [Path(t).name for t in treebanks], "excluded_corpora": [Path(e).name for e in exclude],
              "whole_documents": whole_documents, "sentences": counts, "samples": len(samples),
              "name_weight": name_weight,
              "licence": "derived from Universal Dependencies treebanks (see each treebank's LICENSE; FicTree: "
                         "CC BY-NC-SA 4.0, non-commercial)"}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"record": record, "model": model}, ensure_ascii=False), encoding="utf-8")
    return record


@cache
def _load(path: str) -> dict[str, dict] | None:
    p = Path(path)
    if not p.is_file():
        return None
    try:
        return json.loads(p.read_text(encoding="utf-8"))["model"]
    except (OSError, ValueError, KeyError):
        return None


def model_for(language: str, models_dir: str | None) -> dict[str, dict] | None:
    """The loaded weights of ``language`` (``None`` without a models folder or a model)."""
    lang = MODEL_OF.get(language)
    if lang is None or not models_dir:
        return None
    return _load(str(model_path(models_dir, lang)))


def predict(model: dict[str, dict], words: Sequence[str], i: int) -> dict[str, dict[str, float]]:
    """Probabilities of each case, number and gender of name word ``i`` (a name: ``propn=True``)."""
    feats = features(words, i) + ["propn=True"]
    out: dict[str, dict[str, float]] = {}
    for feat, part in model.items():
        scores = list(part["intercept"])
        for f in feats:
            row = part["weights"].get(f)
            if row is not None:
                scores = [s + v for s, v in zip(scores, row, strict=True)]
        top = max(scores)
        exp = [math.exp(s - top) for s in scores]
        total = sum(exp)
        out[feat] = {c: e / total for c, e in zip(part["classes"], exp, strict=True)}
    return out
