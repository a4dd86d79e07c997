"""Markdown tables of ``python -m ner_eval release --json`` outputs (for ner_eval/results/README.md).

Usage: ``python -m ner_eval.release.table run1.json run2.json …`` (one JSON object per file or line).
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HEADER = ["corpus", "workflow", "variant", "annotator", "seed", "docs", "tokens", "gold", "leaked", "judgments / 1k",
          "s / 1k", "keys / 1k", "masked precision", "windows (review)", "hand", "accepted spans", "stuck", "QA bound",
          "true miss rate", "release bound", "run s"]


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def row(r: dict[str, Any]) -> list[str]:
    w, qa = r["work"], r["qa"].get("report") or {}
    bound = qa.get("upper_bound")
    return [r["corpus"], r["workflow"], variant(r), r["annotator"], _fmt(r.get("order_seed")), str(r["documents"]),
            str(r["tokens"]), str(r["gold_mentions"]),
            str(r["leaked_mentions"]), _fmt(r["judgments_per_1k_tokens"]), _fmt(r["seconds_per_1k_tokens"]),
            _fmt(r["keystrokes_per_1k_tokens"]), _fmt(r["masked_precision"]),
            f"{w['windows']} ({w['review_windows']})", str(w["by_hand"]), str(w["accepted_spans"]),
            str(w["stuck_windows"]), "–" if bound is None else f"{100 * bound:.2f} % ({qa.get('misses')}/"
            f"{qa.get('reviewed')})", "–" if r.get("candidate_miss_rate") is None else
            f"{100 * r['candidate_miss_rate']:.2f} %",
            "–" if r.get("release_bound") is None else f"{100 * r['release_bound']:.2f} %",
            _fmt(r["run_seconds"]["total"])]


def variant(r: dict[str, Any]) -> str:
    """psan's review depth (and its person's policy when eager), or the thesis person's policy (older outputs: read
    everything, cautious)."""
    if r["workflow"] == "thesis":
        return r.get("thesis_policy") or "cautious"
    review = r.get("review") or "full"
    return f"{review}, eager" if r.get("psan_policy") == "eager" else review


def _means(results: Iterable[dict[str, Any]]) -> dict[tuple[str, str, str, str], tuple[float, float, int]]:
    """Mean judgments and seconds per 1k tokens over the runs (seeds) of each corpus, annotator, workflow, variant."""
    runs: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for r in results:
        runs.setdefault((r["corpus"], r["annotator"], r["workflow"], variant(r)), []).append(r)
    return {k: (sum(r["judgments_per_1k_tokens"] for r in v) / len(v),
                sum(r["seconds_per_1k_tokens"] for r in v) / len(v), len(v)) for k, v in runs.items()}


def ratios(results: Iterable[dict[str, Any]]) -> list[list[str]]:
    """psan / thesis per corpus, annotator and psan variant, means over the runs; against the better thesis policy
    (the fewer judgments, the fewer seconds, each on its own)."""
    means = _means(results)
    out = []
    for (corpus, annotator, workflow, kind), (judgments, seconds, n) in sorted(means.items()):
        thesis = [m for (c, a, w, _), m in means.items() if (c, a, w) == (corpus, annotator, "thesis")]
        if workflow != "psan" or not thesis:
            continue
        best_j = min(m[0] for m in thesis)
        best_s = min(m[1] for m in thesis)
        out.append([corpus, annotator, kind, str(n), _fmt(round(judgments / best_j, 3)) if best_j else "–",
                    _fmt(round(seconds / best_s, 3)) if best_s else "–"])
    return out


def markdown(results: list[dict[str, Any]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row(r)) + " |" for r in results]
    lines += ["", "| corpus | annotator | psan review | runs | judgments psan / best thesis | "
                  "seconds psan / best thesis |", "|---|---|---|---|---|---|"]
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
