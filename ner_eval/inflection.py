"""``python -m ner_eval inflection --corpus inflect-cs-dev.jsonl``: do surrogates stand in the original's form?

Why through the CLI: the figure must describe what users run, so this runs
``psan-tool pseudonymize`` (a subprocess, the stable contract) on a corpus whose spans carry gold UD
``features`` (``inflect-{cs,sk,pl}-dev.jsonl``) and compares the features every surrogate was rendered
with to the gold ones: Case accuracy (all spans, and oblique ones), Gender accuracy on persons, Number
accuracy, how many spans got no analysis, and how many surrogates equal their original.  A span
without rendered features counts as wrong.  ``--morph-models DIR`` sets the models folder the CLI
reads the tagger from (``$PSAN_NAMETAG_MODELS``); say which model it holds and what it was trained on.
Every run reports two **held-out folds**, ``fold_a`` and ``fold_b``: the corpus's source documents
(CAC ``a10w``, SNK ``sme:1357``; a sentence without a document id is its own document) split by a
stable hash of the document id, so the mentions of one text never fall into both.  A rule, threshold or
list entry is chosen looking at fold A only and judged on fold B (``--fold-spans a`` lists fold A's
spans alone for that error analysis).  ``--halves`` adds the older even/odd-line figures.
``--spans`` lists every span (gold and rendered features, original and surrogate) for error analysis.
"""
from __future__ import annotations

import json
import os
import re
import subprocess  # nosec B404 - runs psan's own CLI with fixed arguments
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

PERSONS = {"PERSON", "PER"}


def _resolve(corpus: str, data_dir: str | None) -> Path:
    path = Path(corpus)
    if path.is_file() or data_dir is None and path.parent != Path():
        return path
    if data_dir is None:
        from ner_eval.corpus import data_dir as default_data
        try:
            folder = default_data(None)
        except FileNotFoundError:
            return path
    else:
        folder = Path(data_dir)
    return folder / corpus


def run_cli(corpus: Path, lang: str | None, seed: str, morph_models: str | None) -> list[dict[str, Any]]:
    """The output records of ``psan-tool pseudonymize`` on ``corpus``."""
    cmd = [sys.executable, "-m", "psan.tool.cli", "pseudonymize", str(corpus), "--seed", seed]
    if lang:
        cmd += ["--lang", lang]
    env = dict(os.environ)
    if morph_models:
        env["PSAN_NAMETAG_MODELS"] = morph_models
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)  # nosec B603
    if done.returncode != 0:
        raise RuntimeError(f"psan-tool pseudonymize failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    if done.stderr.strip():
        print(done.stderr.strip(), file=sys.stderr)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


#: the sentence ids of a source document: CAC ``a10w-s1`` (not PDB's ``dev-s217``, a split, not a document)
_CAC_ID = re.compile(r"^(?!(?:dev|test|train)-)([a-z0-9]+)-s\d+$")
FOLDS = ("a", "b")


def document_of(doc_id: str) -> str:
    """The source document of a sentence id (SNK ``sme:1357:.d.`` → ``sme:1357``; no document → the id)."""
    if ":" in doc_id:
        return doc_id.rsplit(":", 1)[0]
    m = _CAC_ID.match(doc_id)
    return m.group(1) if m else doc_id


def fold_of(doc_id: str) -> str:
    """``a`` or ``b``: the held-out fold of a sentence, by a stable hash of its document."""
    return FOLDS[zlib.crc32(document_of(doc_id).encode("utf-8")) % 2]


def span_results(docs: list[dict[str, Any]], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every gold span with its rendered replacement: id, line index, original, surrogate, gold and
    rendered features."""
    by_id = {str(r["id"]): r for r in records}
    out = []
    for line, doc in enumerate(docs):
        rec = by_id.get(str(doc["id"]), {"replacements": []})
        fold = fold_of(str(doc["id"]))
        reps = {(r["start"], r["end"]): r for r in rec["replacements"]}
        for span in doc["spans"]:
            rep = reps.get((span["start"], span["end"]))
            out.append({"id": doc["id"], "line": line, "fold": fold, "label": span.get("label"),
                        "original": doc["text"][span["start"]:span["end"]],
                        "surrogate": None if rep is None else rep["surrogate"],
                        "gold": span.get("features") or {}, "got": None if rep is None else rep.get("features"),
                        "context": doc["text"][max(0, span["start"] - 40):span["end"] + 25]})
    return out


def score(docs: list[dict[str, Any]], records: list[dict[str, Any]]) -> dict[str, Any]:
    """Feature accuracies of the rendered surrogates against the gold features."""
    return score_spans(span_results(docs, records))


def score_spans(spans: list[dict[str, Any]]) -> dict[str, Any]:
    """Feature accuracies of :func:`span_results`' spans."""
    c: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for span in spans:
        gold, got = span["gold"], span["got"] or {}
        c["spans"] += 1
        if span["surrogate"] is None or not any(got.values()):
            c["unanalysed"] += 1
        if span["surrogate"] is not None and span["surrogate"].casefold() == span["original"].casefold():
            c["equal_to_original"] += 1
        if gold.get("Case"):
            c["case_total"] += 1
            ok = got.get("Case") == gold["Case"]
            c["case_ok"] += ok
            if gold["Case"] != "Nom":
                c["oblique_total"] += 1
                c["oblique_ok"] += ok
            if not ok:
                errors[f"{gold['Case']}->{got.get('Case')}"] += 1
        if gold.get("Gender") and span.get("label") in PERSONS:
            c["gender_total"] += 1
            c["gender_ok"] += got.get("Gender") == gold["Gender"]
        if gold.get("Number"):
            c["number_total"] += 1
            c["number_ok"] += got.get("Number") == gold["Number"]

    def ratio(ok: str, total: str) -> float | None:
        return round(c[ok] / c[total], 4) if c[total] else None

    return {"spans": c["spans"], "case": ratio("case_ok", "case_total"),
            "case_oblique": ratio("oblique_ok", "oblique_total"), "gender_persons": ratio("gender_ok", "gender_total"),
            "number": ratio("number_ok", "number_total"), "persons_with_gender": c["gender_total"],
            "unanalysed": c["unanalysed"], "equal_to_original": c["equal_to_original"],
            "case_errors": dict(errors.most_common(8))}


def main(corpus: str, lang: str | None = None, seed: str = "1", morph_models: str | None = None,
         data_dir: str | None = None, as_json: bool = False, halves: bool = False, spans: bool = False,
         fold_spans: str | None = None) -> int:
    """Print the figures of one corpus (one JSON line with ``as_json``)."""
    path = _resolve(corpus, data_dir)
    if not path.is_file():
        print(f"error: corpus file {path} not found", file=sys.stderr)
        return 2
    docs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        records = run_cli(path, lang, seed, morph_models)
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    results = span_results(docs, records)
    result = {"corpus": path.name, "morph_models": morph_models or os.environ.get("PSAN_NAMETAG_MODELS"),
              **score_spans(results)}
    for fold in FOLDS:
        result[f"fold_{fold}"] = score_spans([s for s in results if s["fold"] == fold])
    if halves:
        result["even_lines"] = score_spans([s for s in results if s["line"] % 2 == 0])
        result["odd_lines"] = score_spans([s for s in results if s["line"] % 2 == 1])
    if spans or fold_spans:
        result["span_results"] = [s for s in results if fold_spans in (None, s["fold"])]
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for key, value in result.items():
            print(f"{key:20} {value}")
    return 0
