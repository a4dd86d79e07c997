"""Detection of a language's default pipeline on two folds of source documents, and the folds as corpus files.

Why: a rule is chosen on one fold and reported on the other.  The shared sk-dev, sv-dev and pl-dev files cut
one source document (a UD document, a BSNLP article) into chunks ``…-01``, ``…-02``; a fold keeps a source
document's chunks together (pl-dev's gold of one chunk names the forms of the others, see
:func:`ner_eval.corpus.complete_first_mentions`), by a hash of the source document's id
(:func:`ner_eval.consistency.fold_of` of :func:`source_documents`).  Per fold: gold spans, any-overlap
recall (a system span overlaps the gold span), mention recall (every non-blank character of it covered,
:mod:`ner_eval.tab`), system spans and their precision (a system span overlapping a gold span).  Numbers
only, never corpus text::

    python -m ner_eval.detection_folds --corpus ../shared/data/sk-dev.jsonl [--write-folds DIR] [--json]

``--write-folds DIR`` also writes ``<corpus>-fold0.jsonl`` and ``-fold1.jsonl`` (the source lines as they
are), so that ``python -m ner_eval release --corpus DIR/sk-dev-fold1.jsonl`` measures one fold end to end.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ner_eval.consistency import fold_of
from ner_eval.corpus import CorpusDoc, gold_spans, read_jsonl
from ner_eval.pipelines import entity_spans
from ner_eval.tab import covered_chars, is_covered

_CHUNK = re.compile(r"-\d{2}$")


def source_documents(doc_ids: Iterable[str]) -> dict[str, str]:
    """Each document id → its source document: the id without a chunk suffix ``-NN`` where the corpus has that
    source document's first chunk ``-01`` ("uner-sk-dev-batch-0005-02" → "uner-sk-dev-batch-0005"; "bsnlp-pl-val-03",
    an article of one chunk, stays: there is no "bsnlp-pl-val-01")."""
    ids = set(doc_ids)
    out = {}
    for doc_id in ids:
        m = _CHUNK.search(doc_id)
        stem = doc_id[:m.start()] if m else doc_id
        out[doc_id] = stem if m and f"{stem}-01" in ids else doc_id
    return out


def document_folds(doc_ids: Iterable[str]) -> dict[str, int]:
    """Each document id → 0 or 1, the same for every chunk of one source document."""
    return {d: fold_of(src) for d, src in source_documents(doc_ids).items()}


def fold_counts(doc: CorpusDoc, system: Sequence[tuple[int, int]]) -> dict[str, int]:
    """Gold spans, found (any overlap), covered (mention recall), system spans and right system spans of a document."""
    gold = [(g.start, g.end) for g in gold_spans(doc)]
    mask = covered_chars(doc.text, system)
    return {"gold": len(gold),
            "found": sum(any(s < e2 and s2 < e for s2, e2 in system) for s, e in gold),
            "covered": sum(is_covered(doc.text, mask, s, e) for s, e in gold),
            "system": len(system),
            "right": sum(any(s < e2 and s2 < e for s2, e2 in gold) for s, e in system)}


def summarize(counts: dict[str, int]) -> dict[str, Any]:
    """Recall (any overlap), mention recall and precision with the counts behind them."""
    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None
    return {**counts, "recall_any": ratio(counts["found"], counts["gold"]),
            "mention_recall": ratio(counts["covered"], counts["gold"]),
            "precision": ratio(counts["right"], counts["system"])}


def measure(docs: Sequence[CorpusDoc], models_dir: str | None = None) -> dict[str, dict[str, Any]]:
    """Both folds of ``docs`` through the default pipeline of their language."""
    from psan.tool.detection.defaults import default_config
    from psan.tool.detection.pipeline import Pipeline
    pipelines: dict[str, Pipeline] = {}
    totals = {f: dict.fromkeys(("gold", "found", "covered", "system", "right"), 0) for f in (0, 1)}
    folds = document_folds(d.id for d in docs)
    for doc in docs:
        if doc.lang not in pipelines:
            pipelines[doc.lang] = Pipeline(default_config(doc.lang, models_dir), language=doc.lang)
        system = entity_spans(pipelines[doc.lang].process(doc.text))
        for k, v in fold_counts(doc, system).items():
            totals[folds[doc.id]][k] += v
    return {f"fold{f}": summarize(c) for f, c in totals.items()}


def write_folds(corpus: Path, out: Path) -> list[Path]:
    """The corpus' lines split into ``<name>-fold0.jsonl`` and ``<name>-fold1.jsonl`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{corpus.stem}-fold{f}.jsonl" for f in (0, 1)]
    with open(corpus, encoding="utf-8") as fh:
        rows = [(str(json.loads(line)["id"]), line.rstrip("\n") + "\n") for line in fh if line.strip()]
    folds = document_folds(doc_id for doc_id, _ in rows)
    lines: list[list[str]] = [[], []]
    for doc_id, line in rows:
        lines[folds[doc_id]].append(line)
    for path, chunk in zip(paths, lines, strict=True):
        path.write_text("".join(chunk), encoding="utf-8")
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, type=Path, help="JSONL corpus in the shared format")
    parser.add_argument("--models-dir", help="NameTag models (default $PSAN_NAMETAG_MODELS)")
    parser.add_argument("--limit", type=int, help="only the first N documents")
    parser.add_argument("--write-folds", type=Path, metavar="DIR", help="also write the two folds as corpus files")
    parser.add_argument("--no-detection", action="store_true", help="only write the folds")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    if args.write_folds:
        for path in write_folds(args.corpus, args.write_folds):
            print(path, file=sys.stderr)
    if args.no_detection:
        return 0
    result = {"corpus": args.corpus.stem, **measure(read_jsonl(args.corpus, args.limit), args.models_dir)}
    if args.json:
        print(json.dumps(result))
    else:
        for fold in ("fold0", "fold1"):
            r = result[fold]
            print(f"{result['corpus']} {fold}: recall (any) {r['recall_any']}  mention recall {r['mention_recall']}  "
                  f"precision {r['precision']}  ({r['found']}/{r['covered']} of {r['gold']} gold, "
                  f"{r['right']} of {r['system']} system spans)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
