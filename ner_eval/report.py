"""Markdown + PNG + JSON reports of :func:`ner_eval.evaluate.evaluate_corpus` summaries.

Why Markdown and box plots: the thesis compared recognizers in tables of
global scores (Tables 2.8, 2.10) and box plots of per-meeting recall and
precision (Figures 2.3, 2.8, 2.9); the same views make the results
comparable with it.  Reports hold numbers and labels only, never corpus text.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ner_eval.metrics import KINDS


def _f(v: Any, digits: int = 3) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(_f(c) for c in row) + " |" for row in rows]
    return out


def _label(name: str, entry: dict[str, Any]) -> str:
    return f"{name} (cross-lingual)" if entry.get("cross_lingual") else name


def global_rows(summary: dict[str, Any]) -> list[list[Any]]:
    """Thesis Table 2.10 rows: every pipeline in its standard and "+" (plus) variant."""
    rows: list[list[Any]] = []
    for name, entry in summary["pipelines"].items():
        for variant, suffix in (("standard", ""), ("plus", "+")):
            g = entry[variant]["global"]
            rows.append([_label(name, entry) + suffix, g["gold"], g["system"], g["exact"], g["inside"], g["partial"],
                         g["missed"], g["recall"], g["recall_exact"], g["precision"], g["f1"]])
    return rows


GLOBAL_HEADER = ["pipeline", "gold", "system", "exact", "inside", "partial", "missed", "recall (any)",
                 "recall (exact)", "precision", "F1"]
SIM_HEADER = ["session", "decisions / 1k tokens", "decisions", "by type", "by token", "by hand",
              "gold marked by hand", "final recall", "NE_TYPE rules", "WORD_TYPE rules"]
TAB_HEADER = ["pipeline", "entity recall DIRECT", "entity recall QUASI", "entity recall (all)", "mention recall",
              "token recall", "token precision"]


def sim_rows(summary: dict[str, Any]) -> list[list[Any]]:
    return [[label, f"{s['per_1k_tokens']:.1f}", s["decisions"], s["by_type"], s["by_token"], s["by_hand"],
             s["hand_share"], s["recall"], s["rules_ne_type"], s["rules_word_type"]]
            for label, s in summary["simulation"].items()]


def tab_rows(summary: dict[str, Any]) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for name, entry in summary["pipelines"].items():
        if "tab" not in entry:
            continue
        for variant, suffix in (("standard", ""), ("plus", "+")):
            t = entry["tab"][variant]
            ent = t["entity_recall"]
            rows.append([_label(name, entry) + suffix, ent.get("DIRECT", {}).get("value"),
                         ent.get("QUASI", {}).get("value"), ent.get("ALL", {}).get("value"),
                         t["mention_recall"]["value"], t["token_recall"]["value"], t["token_precision"]["value"]])
    return rows


SEMANTICS_HEADER = ["pipeline", "system", "overlapping gold", "repeats (compatible label)", "repeats (any label)",
                    "precision (strict)", "precision (corpus semantics)", "precision (label-blind)"]
SEMANTICS_NOTE = ("The gold tags each distinct form once per article (BSNLP, see `ner_eval/semantics.py`): a system "
                  "span overlapping no gold span whose exact text is a form the gold tags in the same article is a "
                  "repeat, not a false alarm under the corpus' semantics (with a compatible label, or label-blind).")


def semantics_rows(summary: dict[str, Any]) -> list[list[Any]]:
    """Strict precision next to the corpus-semantics one (document-level gold only)."""
    rows: list[list[Any]] = []
    for name, entry in summary["pipelines"].items():
        sem = entry.get("corpus_semantics")
        if sem:
            rows.append([_label(name, entry), sem["system"], sem["hit"], sem["repeats"], sem["repeats_any_label"],
                         entry["standard"]["global"]["precision"], sem["precision"], sem["precision_any_label"]])
    return rows


def _semantics_lines(summary: dict[str, Any]) -> list[str]:
    rows = semantics_rows(summary)
    if not rows:
        return []
    return ["Precision under the corpus' annotation semantics:", "", SEMANTICS_NOTE, "",
            *_table(SEMANTICS_HEADER, rows), ""]


def per_doc_rows(summary: dict[str, Any]) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for name, entry in summary["pipelines"].items():
        for variant, suffix in (("standard", ""), ("plus", "+")):
            p = entry[variant]["per_doc"]
            rows.append([_label(name, entry) + suffix,
                         *(f"{_f(p[k]['mean'])} ({_f(p[k]['std'])})" for k in ("recall", "recall_exact", "precision")),
                         p["recall"]["n"]])
    return rows


def plot_corpus(summary: dict[str, Any], out: Path) -> list[str]:
    """Box plots of per-document recall / exact recall / precision, and match kinds; returns file names."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files: list[str] = []
    names = list(summary["pipelines"])
    if not names:
        return files
    labels = [n + s for n in names for s in ("", "+")]
    for key, title, fname in (("recall_per_doc", "recall (any match)", "recall_box.png"),
                              ("recall_exact_per_doc", "recall (exact match)", "recall_exact_box.png"),
                              ("precision_per_doc", "precision", "precision_box.png")):
        data = [summary["pipelines"][n][v][key] or [float("nan")] for n in names for v in ("standard", "plus")]
        fig, ax = plt.subplots(figsize=(max(6.0, 0.8 * len(labels) + 2), 4.2))
        ax.boxplot(data, tick_labels=labels)
        ax.set_ylim(-0.03, 1.03)
        ax.set_ylabel(title)
        ax.set_title(f"{summary['corpus']}: per-document {title} ({summary['documents']} documents)")
        ax.tick_params(axis="x", rotation=35)
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / fname, dpi=100)
        plt.close(fig)
        files.append(fname)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.8 * len(labels) + 2), 4.2))
    bottom = [0.0] * len(labels)
    colors = {"exact": "#2b8a3e", "inside": "#74b816", "partial": "#f59f00", "missed": "#c92a2a"}
    for kind in KINDS:
        vals = [summary["pipelines"][n][v]["global"][kind] for n in names for v in ("standard", "plus")]
        ax.bar(labels, vals, bottom=bottom, label=kind, color=colors[kind])
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    ax.set_ylabel("gold spans")
    ax.set_title(f"{summary['corpus']}: match kinds of gold spans")
    ax.tick_params(axis="x", rotation=35)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out / "match_kinds.png", dpi=100)
    plt.close(fig)
    files.append("match_kinds.png")
    if summary["simulation"]:
        sims = list(summary["simulation"].items())
        fig, ax = plt.subplots(figsize=(6.5, 4))
        bottom = [0.0] * len(sims)
        for key, color in (("by_type", "#1971c2"), ("by_token", "#f59f00"), ("by_hand", "#c92a2a")):
            vals = [1000 * s[key] / s["tokens"] if s["tokens"] else 0 for _, s in sims]
            ax.bar([lbl for lbl, _ in sims], vals, bottom=bottom, label=key.replace("_", " "), color=color)
            bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
        ax.set_ylabel("decisions per 1,000 tokens")
        ax.set_title(f"{summary['corpus']}: simulated annotation session")
        ax.legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(out / "simulation.png", dpi=100)
        plt.close(fig)
        files.append("simulation.png")
    return files


def corpus_markdown(summary: dict[str, Any], plots: Sequence[str]) -> str:
    s = summary
    lines = [f"# {s['corpus']}", "",
             f"File `{s['file']}`, language `{s['language']}`, {s['documents']} documents"
             + (f" (first {s['limit']} only)" if s.get("limit") else "")
             + f", {s['tokens']} tokens (regex tokenizer), {s['gold_spans']} gold spans. Licence of the data: "
             f"{s['licence']}. This report holds numbers only, no corpus text.", "",
             "Gold = every source span except CNEC marker labels (`s f ? segm cap lower upper`) and TAB `NO_MASK`; "
             "one span per character range. A `+` row is the plus algorithm (every string a pipeline found is "
             "searched again in its document, on word boundaries).", "",
             "## Global results (thesis metrics, Table 2.10 style)", "",
             *_table(GLOBAL_HEADER, global_rows(s)), "",
             "## Per document: mean (std)", "",
             *_table(["pipeline", "recall (any)", "recall (exact)", "precision", "documents with gold"],
                     per_doc_rows(s)), ""]
    lines += _semantics_lines(s)
    if s["tab_metrics"]:
        lines += ["## TAB metrics", "",
                  "An entity is masked only if all its mentions are covered (every non-whitespace character inside "
                  "a system span). Tokens: psan's regex tokenizer.", "",
                  *_table(TAB_HEADER, tab_rows(s)), ""]
    if s["simulation"]:
        lines += ["## Simulated annotation session", "",
                  "Oracle annotator with psan's rules engine (see `ner_eval/README.md`); decisions are counted per "
                  f"1,000 regex tokens ({s['tokens']} tokens).", "",
                  *_table(SIM_HEADER, sim_rows(s)), ""]
    for label, reason in s.get("simulation_skipped", {}).items():
        lines.append(f"- simulation {label} skipped: {reason}")
    if plots:
        lines += ["## Plots", "", *(f"![{p}]({p})" for p in plots), ""]
    lines += ["## Pipelines", ""]
    for name, entry in s["pipelines"].items():
        lines.append(f"- **{name}**: {entry['description']}{' (cross-lingual)' if entry['cross_lingual'] else ''}; "
                     f"{entry['seconds']} s; config `{json.dumps(entry['config'], ensure_ascii=False)}`")
    for name, reason in s["skipped"].items():
        lines.append(f"- **{name}** skipped: {reason}")
    return "\n".join(lines) + "\n"


def write_corpus(summary: dict[str, Any], out_dir: Path) -> Path:
    """Write ``summary.json``, the PNGs and ``report.md`` into ``out_dir``; returns the report path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    plots = plot_corpus(summary, out_dir)
    report = out_dir / "report.md"
    report.write_text(corpus_markdown(summary, plots), encoding="utf-8")
    return report


def index_markdown(summaries: Sequence[dict[str, Any]], command: str) -> str:
    """The top-level README: global tables of every corpus."""
    lines = ["# ner_eval results", "",
             f"Generated by `{command}` (see `ner_eval/README.md` for the metrics). Numbers only; the corpora "
             "themselves are not in the repository.", ""]
    for s in summaries:
        lines += [f"## [{s['corpus']}]({s['corpus']}/report.md)", "",
                  f"{s['documents']} documents, {s['tokens']} tokens, {s['gold_spans']} gold spans; "
                  f"data licence: {s['licence']}.", "",
                  *_table(GLOBAL_HEADER, global_rows(s)), ""]
        lines += _semantics_lines(s)
        if s["tab_metrics"]:
            lines += ["TAB metrics:", "", *_table(TAB_HEADER, tab_rows(s)), ""]
        if s["simulation"]:
            lines += ["Simulated annotation session (oracle, whole-corpus knowledge):", "",
                      *_table(SIM_HEADER, sim_rows(s)), ""]
        if s["skipped"]:
            lines += [f"Skipped: {', '.join(f'{k} ({v})' for k, v in s['skipped'].items())}", ""]
    return "\n".join(lines) + "\n"


#: the hand-written section of results/README.md (``python -m ner_eval release`` figures) kept by ``all``
KEPT_START, KEPT_END = "<!-- release:start -->", "<!-- release:end -->"


def write_index(summaries: Sequence[dict[str, Any]], out_dir: Path, command: str) -> Path:
    """Write results/README.md; its release section (between the markers) survives the rewrite."""
    path = out_dir / "README.md"
    kept = ""
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if KEPT_START in old and KEPT_END in old:
            kept = old[old.index(KEPT_START):old.index(KEPT_END) + len(KEPT_END)] + "\n\n"
    text = index_markdown(summaries, command)
    head, sep, rest = text.partition("\n## ")
    path.write_text(head + "\n" + kept + sep.lstrip("\n") + rest if sep else text + "\n" + kept, encoding="utf-8")
    return path
