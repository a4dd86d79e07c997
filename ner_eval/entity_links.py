"""Pairwise entity-link precision/recall/F1 of :mod:`psan.tool.entities.grouping` against a corpus' entity ids.

Why pairwise links: a pseudonym is consistent exactly when every two mentions
of one entity get the same surrogate and mentions of different entities do
not; counting pairs of mentions (within a document) scores precisely that.

* gold link: two mentions of a document with the same gold ``entity``;
* system link: two mentions with the same predicted entity id;
* P = correct system links / system links, R = correct / gold links, F1.

Mentions are the corpus' gold spans with identifier DIRECT or QUASI (TAB: the
ones that must be masked; corpora without identifier types use every span that
has an entity id).  The "PERSON" row keeps only mentions whose label maps to
PERSON, linking is still computed on all of the document's spans.  Baseline:
exact-string linking (same category, same text).

Run: ``python -m ner_eval.entity_links ../shared/data/tab-dev.jsonl`` (or
``--predictions OUT.jsonl`` to score the output of ``psan-tool entities``).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from psan.tool.entities.grouping import Mention, group_document
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category

SCORED_IDENTIFIERS = frozenset(("DIRECT", "QUASI"))


@dataclass(slots=True)
class LinkCounts:
    """Counts of correct, predicted-only and gold-only links (they add up over documents)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: LinkCounts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def link_counts(gold: Sequence[str], predicted: Sequence[str]) -> LinkCounts:
    """Pairwise link counts of one document's mentions (``gold[i]``/``predicted[i]`` = entity of mention i)."""
    if len(gold) != len(predicted):
        raise ValueError("gold and predicted entity lists differ in length")
    c = LinkCounts()
    for a, b in combinations(range(len(gold)), 2):
        g, p = gold[a] == gold[b], predicted[a] == predicted[b]
        c.tp += g and p
        c.fp += p and not g
        c.fn += g and not p
    return c


def scored(span: dict[str, Any], has_identifiers: bool) -> bool:
    """Whether a gold span takes part in the scoring (see module docstring)."""
    if span.get("entity") is None:
        return False
    return span.get("identifier") in SCORED_IDENTIFIERS if has_identifiers else True


def baseline(doc: dict[str, Any]) -> list[str]:
    """Exact-string linking: same category and same text."""
    return [f"{category_of(s['label']).value}\x1f{doc['text'][s['start']:s['end']]}" for s in doc["spans"]]


def system(doc: dict[str, Any], language: str | None = None) -> list[str]:
    """psan's entity ids of the document's gold spans."""
    mentions = [Mention(s["start"], s["end"], s["label"], doc["text"][s["start"]:s["end"]]) for s in doc["spans"]]
    return group_document(mentions, language or doc.get("lang") or "en")


def evaluate(docs: Iterable[dict[str, Any]], predict: Any) -> dict[str, LinkCounts]:
    """Link counts for PERSON and for all categories; ``predict(doc)`` → entity per span."""
    docs = list(docs)
    has_identifiers = any(s.get("identifier") for d in docs for s in d["spans"])
    totals = {"PERSON": LinkCounts(), "ALL": LinkCounts()}
    for doc in docs:
        predicted = predict(doc)
        keep = [i for i, s in enumerate(doc["spans"]) if scored(s, has_identifiers)]
        persons = [i for i in keep if category_of(doc["spans"][i]["label"]) is Category.PERSON]
        for name, idx in (("ALL", keep), ("PERSON", persons)):
            totals[name].add(link_counts([doc["spans"][i]["entity"] for i in idx], [predicted[i] for i in idx]))
    return totals


def _read(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _from_predictions(path: str) -> Any:
    by_id: dict[str, dict[tuple[int, int], list[str]]] = {}
    for rec in _read(path):
        spans: dict[tuple[int, int], list[str]] = {}
        for m in rec["mentions"]:
            spans.setdefault((m["start"], m["end"]), []).append(m["entity"])
        by_id[rec["id"]] = spans

    def predict(doc: dict[str, Any]) -> list[str]:
        spans = {k: list(v) for k, v in by_id.get(doc["id"], {}).items()}
        return [(spans.get((s["start"], s["end"])) or [f"missing-{i}"]).pop(0) for i, s in enumerate(doc["spans"])]
    return predict


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ner_eval.entity_links", description=__doc__.split("\n")[0])
    ap.add_argument("corpus", help="gold corpus in the shared JSONL format")
    ap.add_argument("--predictions", help="output of `psan-tool entities` (default: run psan's linking here)")
    ap.add_argument("--lang", help="language override")
    args = ap.parse_args(argv)
    try:
        docs = _read(args.corpus)
        predict = _from_predictions(args.predictions) if args.predictions else (lambda d: system(d, args.lang))
    except (OSError, ValueError, KeyError) as exc:
        print(f"entity_links: error: {exc}", file=sys.stderr)
        return 2
    rows = [("exact string", evaluate(docs, baseline)), ("psan entities", evaluate(docs, predict))]
    print(f"{'method':<16}{'subset':<8}{'P':>8}{'R':>8}{'F1':>8}{'links':>8}")
    for name, totals in rows:
        for subset in ("PERSON", "ALL"):
            c = totals[subset]
            print(f"{name:<16}{subset:<8}{c.precision:8.3f}{c.recall:8.3f}{c.f1:8.3f}{c.tp + c.fn:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
