"""Count gold-span replacements that print a word of their original (the release measure's reprint).

Reads a corpus in the shared JSONL format and the output of ``python -m psan.tool pseudonymize`` on it (one line
per document with its replacements) and counts, per label, the replacements for which
:func:`ner_eval.release.measure.printed_inside` holds: a word of the gold span, at least three letters, printed
in its surrogate.  Usage::

    python -m psan.tool pseudonymize CORPUS.jsonl > OUT.jsonl
    python -m ner_eval.reprints CORPUS.jsonl OUT.jsonl [--examples N]
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterable, Sequence

from ner_eval.release.measure import printed_inside


def reprints(texts: dict[str, str], outputs: Iterable[dict]) -> tuple[collections.Counter, collections.Counter,
                                                                      list[tuple[str, str, str]]]:
    """(replacements per label, reprints per label, the reprinted (label, original, surrogate) examples)."""
    total: collections.Counter = collections.Counter()
    bad: collections.Counter = collections.Counter()
    examples: list[tuple[str, str, str]] = []
    for out in outputs:
        text = texts[out["id"]]
        for r in out["replacements"]:
            original = text[r["start"]:r["end"]]
            entry = {"original_start": r["start"], "original_end": r["end"], "replacement": r["surrogate"]}
            total[r["label"]] += 1
            if r["surrogate"] is not None and printed_inside(original, [entry], r["start"], r["end"]):
                bad[r["label"]] += 1
                examples.append((r["label"], original, r["surrogate"]))
    return total, bad, examples


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ner_eval.reprints", description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("output", help="JSONL written by psan-tool pseudonymize on the corpus")
    ap.add_argument("--examples", type=int, default=10)
    args = ap.parse_args(argv)
    with open(args.corpus, encoding="utf-8") as f:
        texts = {(d := json.loads(line))["id"]: d["text"] for line in f if line.strip()}
    with open(args.output, encoding="utf-8") as f:
        total, bad, examples = reprints(texts, (json.loads(line) for line in f if line.strip()))
    for label in sorted(total):
        print(f"{label:14} {bad[label]:5} / {total[label]}")
    print(f"{'ALL':14} {sum(bad.values()):5} / {sum(total.values())}")
    for label, original, surrogate in examples[:args.examples]:
        print(f"  {label}: {original!r} -> {surrogate!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
