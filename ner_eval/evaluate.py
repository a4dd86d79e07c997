"""Evaluate named pipelines on one corpus: thesis metrics, plus, TAB metrics, simulated session.

Why one function per corpus: the report of a corpus must come from one run
with one set of pipelines, so every table in it is comparable.  The result is
a JSON-serializable summary that contains only numbers and labels, never
corpus text (ELITR, CNEC and BSNLP must not be republished).
"""
from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

from ner_eval.corpus import CorpusDoc, corpus_name, gold_spans, has_entities, has_identifiers, read_jsonl
from ner_eval.metrics import MatchCounts, per_doc_summary, score, total
from ner_eval.pipelines import (
    PIPELINES,
    SIMULATION_NER,
    Runner,
    Unavailable,
    cross_lingual,
    labelled_spans,
    pipelines_for,
)
from ner_eval.plus import plus_spans
from ner_eval.semantics import document_level, repeat_counts
from ner_eval.simulate import simulate
from ner_eval.tab import TabScores, tab_scores
from psan.tool.text.tokens import tokenize

#: licence notes from shared/data/README.md (the results may be committed, the data may not)
LICENCES: dict[str, str] = {
    "tab-dev": "TAB (Pilán et al. 2022), MIT",
    "elitr-dev": "ELITR meetings (UTTER-MS9-meetingdata), CC BY 4.0; keep the data out of public repositories",
    "cnec-dtest": "Czech Named Entity Corpus 2.0, CC BY-NC-SA 3.0 (non-commercial)",
    "cnec-train": "Czech Named Entity Corpus 2.0, CC BY-NC-SA 3.0 (non-commercial)",
    "presidio-synth": "presidio-research synth_dataset_v2, MIT (synthetic)",
    "sv-dev": "UNER Swedish-Talbanken, CC BY-SA 4.0",
    "sk-dev": "UNER Slovak-SNK, CC BY-SA 4.0",
    "pl-dev": "BSNLP 2017 via Babelscape/wikineural, shared-task terms (CC BY-NC-SA 4.0 repository)",
}


def _portable(config: dict[str, Any]) -> dict[str, Any]:
    """The config with model paths reduced to file names (no machine paths in committed reports)."""
    def fix(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: (os.path.basename(x) if k == "model" and isinstance(x, str) and os.sep in x else fix(x))
                    for k, x in v.items()}
        if isinstance(v, list):
            return [fix(x) for x in v]
        return v
    return fix(config)


def _counts_block(per_doc: list[MatchCounts]) -> dict[str, Any]:
    glob = total(per_doc)
    return {"global": glob.to_dict(), "per_doc": per_doc_summary(per_doc),
            "recall_per_doc": [c.recall for c in per_doc if c.recall is not None],
            "recall_exact_per_doc": [c.recall_exact for c in per_doc if c.recall_exact is not None],
            "precision_per_doc": [c.precision for c in per_doc if c.precision is not None]}


def _tab_block(docs: list[CorpusDoc], spans: list[list[tuple[int, int]]],
               tokens: list[list[tuple[int, int]]]) -> dict[str, Any]:
    acc = TabScores()
    for d, s, t in zip(docs, spans, tokens, strict=True):
        acc.merge(tab_scores(d, s, t))
    return acc.to_dict()


def evaluate_corpus(path: str | os.PathLike[str], pipelines: list[str] | None = None, limit: int | None = None,
                    models: Path | None = None, run_simulation: bool = True, log: Any = print) -> dict[str, Any]:
    """Run every requested pipeline on the corpus and return the summary (see module docstring)."""
    name = corpus_name(path)
    docs = read_jsonl(path, limit)
    if not docs:
        raise ValueError(f"{path}: no documents")
    lang = Counter(d.lang for d in docs).most_common(1)[0][0]
    names = pipelines or list(pipelines_for(lang))
    texts = [d.text for d in docs]
    gold = [[(g.start, g.end) for g in gold_spans(d)] for d in docs]
    with_tab = has_entities(docs)
    per_article = document_level(docs)
    tokens = [[(t.start, t.end) for t in tokenize(d.text, d.lang)[0]] for d in docs]
    summary: dict[str, Any] = {
        "corpus": name, "file": Path(path).name, "language": lang, "licence": LICENCES.get(name, "see the data README"),
        "documents": len(docs), "limit": limit, "characters": sum(map(len, texts)),
        "tokens": sum(map(len, tokens)), "gold_spans": sum(map(len, gold)),
        "gold_labels": dict(Counter(s.label for d in docs for s in gold_spans(d)).most_common()),
        "tab_metrics": with_tab, "identifier_types": has_identifiers(docs), "document_level_gold": per_article,
        "pipelines": {}, "skipped": {}, "simulation": {}, "simulation_skipped": {},
    }
    processed: dict[str, Any] = {}
    for pname in names:
        t0 = time.perf_counter()
        try:
            runner = Runner(pname, lang, models)
            spans, pdocs = runner.run(texts)
        except Unavailable as err:
            summary["skipped"][pname] = str(err)
            log(f"  {name}: skip {pname}: {err}")
            continue
        seconds = time.perf_counter() - t0
        plus = [plus_spans(t, s) for t, s in zip(texts, spans, strict=True)]
        entry: dict[str, Any] = {
            "description": PIPELINES[pname].description, "config": _portable(runner.config),
            "cross_lingual": cross_lingual(pname, lang), "seconds": round(seconds, 2),
            "types": dict(Counter(e.type for d in (pdocs or []) for e in d.entities).most_common()),
            "standard": _counts_block([score(g, s) for g, s in zip(gold, spans, strict=True)]),
            "plus": _counts_block([score(g, s) for g, s in zip(gold, plus, strict=True)]),
        }
        if per_article:
            labelled = ([labelled_spans(d) for d in pdocs] if pdocs is not None
                        else [[(a, b, None) for a, b in s] for s in spans])
            entry["corpus_semantics"] = repeat_counts(docs, labelled).to_dict()
        if with_tab:
            entry["tab"] = {"standard": _tab_block(docs, spans, tokens), "plus": _tab_block(docs, plus, tokens)}
        summary["pipelines"][pname] = entry
        if pdocs is not None:
            processed[pname] = pdocs
        g = entry["standard"]["global"]
        sem = entry.get("corpus_semantics")
        extra = (f", corpus semantics {_fmt(sem['precision'])} (label-blind {_fmt(sem['precision_any_label'])})"
                 if sem else "")
        log(f"  {name}: {pname}: recall {g['recall']:.3f} precision {_fmt(g['precision'])}{extra} ({seconds:.1f} s)")
    if run_simulation:
        _simulate_all(summary, docs, processed, lang, models, log)
    return summary


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def _simulate_all(summary: dict[str, Any], docs: list[CorpusDoc], processed: dict[str, Any], lang: str,
                  models: Path | None, log: Any) -> None:
    """Simulated sessions: default pipeline, its NER alone, and that NER + plus."""
    ner = SIMULATION_NER.get(lang, "spacy-en")
    if ner not in processed:
        try:
            processed[ner] = Runner(ner, lang, models).run([d.text for d in docs])[1]
        except Unavailable as err:
            summary["simulation_skipped"][ner] = str(err)
    runs = [("default", "default", False), (ner, ner, False), (f"{ner}+plus", ner, True)]
    for label, pname, plus in runs:
        if processed.get(pname) is None:
            summary["simulation_skipped"].setdefault(label, f"pipeline {pname} did not run")
            continue
        t0 = time.perf_counter()
        res = simulate(label, docs, processed[pname], plus=plus)
        out = res.to_dict()
        out["seconds"] = round(time.perf_counter() - t0, 2)
        summary["simulation"][label] = out
        log(f"  {summary['corpus']}: simulated {label}: {res.per_1k_tokens:.1f} decisions/1k tokens, "
            f"{_fmt(res.hand_share)} of gold by hand, recall {res.recall}")


__all__ = ["evaluate_corpus", "LICENCES"]
