"""Run the honest session on a corpus file: process it with the workflow's pipeline, then simulate.

Why separate from :mod:`ner_eval.session`: the session works on processed documents (tests give
it tiny hand-made ones); this module owns the pipeline choice of each workflow.
"""
from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from ner_eval.corpus import corpus_name, read_jsonl
from ner_eval.pipelines import SIMULATION_NER, Runner
from ner_eval.session import WORKFLOWS, SessionResult, run_session


def pipeline_for(workflow: str, lang: str) -> str:
    """``thesis``: the language's NER alone; ``psan``: psan's default pipeline."""
    kind = WORKFLOWS[workflow][0]
    return SIMULATION_NER.get(lang, "spacy-en") if kind == "ner" else "default"


def simulate_corpus(path: str | os.PathLike[str], workflow: str, levers: list[str] | None = None,
                    limit: int | None = None, models: Path | None = None) -> SessionResult:
    if workflow not in WORKFLOWS:
        raise ValueError(f"unknown workflow {workflow!r}; known: {', '.join(WORKFLOWS)}")
    docs = read_jsonl(path, limit)
    if not docs:
        raise ValueError(f"{path}: no documents")
    lang = Counter(d.lang for d in docs).most_common(1)[0][0]
    _, processed = Runner(pipeline_for(workflow, lang), lang, models).run([d.text for d in docs])
    assert processed is not None  # nosec B101 - psan pipelines always return documents
    return run_session(corpus_name(path), workflow, docs, processed, levers)
