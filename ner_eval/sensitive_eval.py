"""How many special-category (SENSITIVE) spans would annotators see?  (issue 12, item 5)

Runs :mod:`psan.tool.detection.recognizers.sensitive` over every standard corpus and counts its spans per topic
and per 1,000 tokens (psan's regex tokenizer) – an upper bound of what reaches annotators, since the
merge drops the ones nested in or crossing a name, date or ID.  No corpus annotates special categories,
so precision is judged by reading the matches (``ner_eval/results/sensitive/README.md``); this script
also prints the share of spans that overlap a gold span of the corpus, for reference.  Writes
``ner_eval/results/sensitive/counts.md`` and ``summary.json`` (numbers only).
Usage: ``python ner_eval/sensitive_eval.py``.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ner_eval.corpus import data_dir, gold_spans, read_jsonl  # noqa: E402
from ner_eval.pipelines import CORPORA  # noqa: E402
from psan.tool.detection.recognizers.sensitive import TOPICS, SensitiveRecognizer  # noqa: E402
from psan.tool.text.tokens import tokenize  # noqa: E402

OUT = REPO / "ner_eval" / "results" / "sensitive"


def count(path: Path, lang: str) -> dict:
    recognizer = SensitiveRecognizer(lang)
    tokens = spans = on_gold = 0
    topics: Counter[str] = Counter()
    for doc in read_jsonl(path):
        tokens += len(tokenize(doc.text, lang)[0])
        gold = [(g.start, g.end) for g in gold_spans(doc)]
        for s in recognizer.analyze(doc.text):
            spans += 1
            topics[s.type] += 1
            on_gold += any(a < s.end and s.start < b for a, b in gold)
    return {"language": lang, "tokens": tokens, "spans": spans, "per_1k_tokens": round(1000 * spans / tokens, 2),
            "overlapping_gold": on_gold, "topics": dict(topics)}


def main() -> int:
    folder = data_dir()
    summary = {name: count(folder / f"{name}.jsonl", lang) for name, lang in CORPORA.items()
               if (folder / f"{name}.jsonl").is_file()}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    lines = ["# SENSITIVE spans per corpus (recognizer alone)", "",
             "| corpus | lang | tokens | spans | per 1k tokens | overlapping gold | "
             + " | ".join(TOPICS) + " |", "|---|---|---|---|---|---|" + "---|" * len(TOPICS)]
    for name, r in summary.items():
        lines.append(f"| {name} | {r['language']} | {r['tokens']} | {r['spans']} | {r['per_1k_tokens']} | "
                     f"{r['overlapping_gold']} | " + " | ".join(str(r["topics"].get(t, 0)) for t in TOPICS) + " |")
    lines += ["", "Reproduce: `python ner_eval/sensitive_eval.py`.", ""]
    (OUT / "counts.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
