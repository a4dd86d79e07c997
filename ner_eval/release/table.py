"""Markdown tables of ``python -m ner_eval release --json`` outputs (for ner_eval/results/README.md).

Usage: ``python -m ner_eval.release.table run1.json run2.json …`` (one JSON object per file or line).
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HEADER = ["corpus", "workflow", "annotator", "docs", "tokens", "gold", "leaked", "judgments / 1k", "s / 1k",
          "keys / 1k", "masked precision", "windows (review)", "hand", "accepted spans", "stuck", "QA bound",
          "true miss rate", "run s"]


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def row(r: dict[str, Any]) -> list[str]:
    w, qa = r["work"], r["qa"].get("report") or {}
    bound = qa.get("upper_bound")
    return [r["corpus"], r["workflow"], r["annotator"], str(r["documents"]), str(r["tokens"]), str(r["gold_mentions"]),
            str(r["leaked_mentions"]), _fmt(r["judgments_per_1k_tokens"]), _fmt(r["seconds_per_1k_tokens"]),
            _fmt(r["keystrokes_per_1k_tokens"]), _fmt(r["masked_precision"]),
            f"{w['windows']} ({w['review_windows']})", str(w["by_hand"]), str(w["accepted_spans"]),
            str(w["stuck_windows"]), "–" if bound is None else f"{100 * bound:.2f} % ({qa.get('misses')}/"
            f"{qa.get('reviewed')})", "–" if r.get("candidate_miss_rate") is None else
            f"{100 * r['candidate_miss_rate']:.2f} %", _fmt(r["run_seconds"]["total"])]


def ratios(results: Iterable[dict[str, Any]]) -> list[list[str]]:
    """psan / thesis per corpus and annotator: judgments and seconds."""
    by = {(r["corpus"], r["annotator"], r["workflow"]): r for r in results}
    out = []
    for (corpus, annotator, workflow), r in sorted(by.items()):
        other = by.get((corpus, annotator, "thesis"))
        if workflow != "psan" or other is None:
            continue
        out.append([corpus, annotator,
                    _fmt(round(r["judgments_per_1k_tokens"] / other["judgments_per_1k_tokens"], 3)),
                    _fmt(round(r["seconds_per_1k_tokens"] / other["seconds_per_1k_tokens"], 3))])
    return out


def markdown(results: list[dict[str, Any]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row(r)) + " |" for r in results]
    lines += ["", "| corpus | annotator | judgments psan / thesis | seconds psan / thesis |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(x) + " |" for x in ratios(results)]
    return "\n".join(lines) + "\n"


def load(paths: Iterable[str]) -> list[dict[str, Any]]:
    results = []
    for p in paths:
        for line in Path(p).read_text(encoding="utf-8").splitlines():
            if line.strip().startswith("{"):
                results.append(json.loads(line))
    return results


if __name__ == "__main__":
    print(markdown(load(sys.argv[1:])), end="")
