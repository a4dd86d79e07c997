"""Per-document language detection with ``langdetect`` restricted to psan's languages.

Why langdetect: a well-kept port of Google's language-detection (Apache 2.0, pure Python, profiles
for all six product languages, no model download).  Its answer is restricted to the languages
psan has pipelines for, seeded for reproducible results, and run on a bounded prefix so a
100 MB upload costs no more than a page.  Short or ambiguous texts (best probability under
:data:`MIN_PROBABILITY`) get the caller's fallback (the project's language): a wrong guess would
pick the wrong tokenizer, NER model, lemmatizer and surrogates, a fallback is what psan did before.

Accuracy on ../shared/data (``python -m psan.tool.text.language eval ../shared/data/*.jsonl``):
see ``ner_eval/results/language.md``.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

#: languages psan has pipelines for (``psan.store.admin.projects.LANGUAGES``)
SUPPORTED = ("cs", "en", "pl", "sv", "sk", "sl")
#: detection reads at most this many characters
MAX_CHARS = 5000
#: below this probability (renormalized over the supported languages) the fallback is used
MIN_PROBABILITY = 0.9
#: texts with fewer letters than this are not detected
MIN_LETTERS = 60

_lock = threading.Lock()
_factory_ready = False


def _detector(text: str):
    """A seeded langdetect detector for ``text`` (profiles loaded once per process)."""
    global _factory_ready
    from langdetect import DetectorFactory, detector_factory
    with _lock:
        if not _factory_ready:
            DetectorFactory.seed = 0
            detector_factory.init_factory()
            _factory_ready = True
        detector = detector_factory._factory.create()
    detector.append(text)
    return detector


def probabilities(text: str, languages: Sequence[str] = SUPPORTED) -> dict[str, float]:
    """Probability of each of ``languages`` for ``text`` (renormalized over them; empty if undecidable)."""
    sample = text[:MAX_CHARS]
    if sum(ch.isalpha() for ch in sample) < MIN_LETTERS:
        return {}
    from langdetect.lang_detect_exception import LangDetectException
    try:
        found = _detector(sample).get_probabilities()
    except LangDetectException:
        return {}
    scores = {p.lang: p.prob for p in found if p.lang in languages}
    total = sum(scores.values())
    return {lang: p / total for lang, p in scores.items()} if total > 0 else {}


def detect_language(text: str, fallback: str, languages: Sequence[str] = SUPPORTED) -> str:
    """The document's language among ``languages``, or ``fallback`` when the text does not say."""
    scores = probabilities(text, languages)
    if not scores:
        return fallback
    lang, prob = max(scores.items(), key=lambda kv: kv[1])
    return lang if prob >= MIN_PROBABILITY else fallback


def evaluate(paths: Iterable[Path], limit: int = 500) -> dict[str, dict[str, object]]:
    """Accuracy per file: each document's detected language against its gold ``lang`` field."""
    results: dict[str, dict[str, object]] = {}
    for path in paths:
        by_lang: dict[str, Counter[str]] = {}
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh):
                if n >= limit:
                    break
                record = json.loads(line)
                gold = record.get("lang")
                if gold not in SUPPORTED:
                    continue
                by_lang.setdefault(gold, Counter())[detect_language(record.get("text", ""), "undecided")] += 1
        for gold, got in by_lang.items():
            total = sum(got.values())
            results[f"{path.name}:{gold}"] = {
                "documents": total, "accuracy": round(got[gold] / total, 4),
                "undecided": round(got["undecided"] / total, 4),
                "wrong": round((total - got[gold] - got["undecided"]) / total, 4),
                "confusions": {k: v for k, v in got.most_common() if k != gold}}
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m psan.tool.text.language",
                                     description="detect document languages or measure the detector")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("eval", help="accuracy per shared JSONL corpus (language from the file name)")
    ev.add_argument("files", nargs="+", type=Path)
    ev.add_argument("--limit", type=int, default=500, help="documents per file (default 500)")
    args = parser.parse_args(argv)
    json.dump(evaluate(args.files, args.limit), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
