"""Shared helpers of the pre-annotation benchmarks: corpora, gold filtering, any-overlap scores, timing,
and the per-step CPU timer of ``spacy_steps.py`` and ``nametag_steps.py``.

Why one module: throughput and recall of every system (psan pipelines, Presidio) must be
measured the same way — the same token unit (psan's regex tokenizer), the same gold spans
and the same overlap criterion — or the side-by-side numbers mean nothing.
"""
from __future__ import annotations

import bisect
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from psan.tool.text.tokens import tokenize  # noqa: E402

if TYPE_CHECKING:
    from psan.tool.detection.pipeline import Pipeline
    from psan.tool.text.document import CharSpan, Document

SHARED = Path(os.environ.get("PSAN_SHARED_DIR", REPO.parent / "shared"))
DATA = SHARED / "data"
OUT = REPO / "bench" / "out"
#: ``python -c RUN_CLI TREE psan-tool-args…`` runs the CLI of the checkout TREE (its ``psan`` first on the path)
RUN_CLI = "import sys; sys.path.insert(0, sys.argv.pop(1)); from psan.tool.cli import main; sys.exit(main())"

#: the corpora whose texts the per-step benchmarks time, in this order
STEP_CORPORA = ("tab-dev", "elitr-dev")

#: CNEC annotation markers (abbreviation, foreign word, unsure, segmentation, capitalisation): not entities
CNEC_MARKERS = frozenset({"s", "f", "?", "segm", "cap", "lower", "upper"})

Span = tuple[int, int]


@dataclass(slots=True)
class Corpus:
    """Texts and their gold spans (already filtered to what a system should find)."""

    name: str
    texts: list[str]
    gold: list[list[Span]]
    tokens: int = 0

    def __post_init__(self) -> None:
        self.tokens = sum(count_tokens(t) for t in self.texts)


def count_tokens(text: str) -> int:
    """Tokens by psan's regex tokenizer: the one unit every system's speed is expressed in."""
    return len(tokenize(text)[0])


def gold_filter(name: str) -> Callable[[dict[str, Any]], bool]:
    """Which gold spans count: TAB only DIRECT+QUASI (must be masked), CNEC without marker labels."""
    if name.startswith("tab"):
        return lambda s: s.get("identifier") in ("DIRECT", "QUASI")
    if name.startswith("cnec"):
        return lambda s: s.get("label") not in CNEC_MARKERS
    return lambda s: True


def load_corpus(name: str, limit: int | None = None) -> Corpus:
    """``/work/shared/data/<name>.jsonl`` (never copied into the repo) with the gold filter applied."""
    path = DATA / f"{name}.jsonl"
    if not path.is_file():
        raise SystemExit(f"corpus {path} not found (set PSAN_SHARED_DIR)")
    keep = gold_filter(name)
    texts: list[str] = []
    gold: list[list[Span]] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            texts.append(rec["text"])
            gold.append(sorted((s["start"], s["end"]) for s in rec.get("spans", []) if keep(s)))
            if limit and len(texts) >= limit:
                break
    return Corpus(name, texts, gold)


def _overlaps(spans: Sequence[Span], starts: Sequence[int], max_len: int, a: int, b: int) -> bool:
    """Does any of ``spans`` (sorted by start) overlap [a, b)?  Only spans starting in [a - max_len, b) can."""
    hi = bisect.bisect_left(starts, b)
    lo = bisect.bisect_left(starts, a - max_len)
    return any(spans[i][1] > a for i in range(lo, hi))


@dataclass(slots=True)
class Scores:
    """Any-overlap counts over a corpus: a gold span is found if any system span overlaps it, and vice versa."""

    gold: int = 0
    gold_found: int = 0
    system: int = 0
    system_correct: int = 0

    @property
    def recall(self) -> float:
        return self.gold_found / self.gold if self.gold else 0.0

    @property
    def precision(self) -> float:
        return self.system_correct / self.system if self.system else 0.0

    def add(self, gold: Sequence[Span], system: Iterable[Span]) -> None:
        sys_spans = sorted({(a, b) for a, b in system if a < b})
        gold = sorted(gold)
        self.gold += len(gold)
        self.system += len(sys_spans)
        for spans, other, attr in ((gold, sys_spans, "gold_found"), (sys_spans, gold, "system_correct")):
            starts = [s[0] for s in other]
            max_len = max((e - s for s, e in other), default=0)
            setattr(self, attr, getattr(self, attr) + sum(_overlaps(other, starts, max_len, a, b) for a, b in spans))


@dataclass(slots=True)
class Result:
    """One system on one corpus: speed (best of the repeats, wall and CPU) and any-overlap scores."""

    system: str
    corpus: str
    docs: int
    tokens: int
    seconds: float
    cpu_seconds: float
    recall: float
    precision: float
    gold: int
    system_spans: int
    repeats: int = 1

    @property
    def tokens_per_s(self) -> float:
        return self.tokens / self.seconds if self.seconds else float("inf")

    @property
    def cpu_tokens_per_s(self) -> float:
        return self.tokens / self.cpu_seconds if self.cpu_seconds else float("inf")

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tokens_per_s": self.tokens_per_s, "cpu_tokens_per_s": self.cpu_tokens_per_s}


#: a system maps a list of texts to a list of span lists (one per text)
System = Callable[[list[str]], list[list[Span]]]


def timed(system: System, texts: list[str]) -> tuple[list[list[Span]], float, float]:
    """Run once over all texts: spans, wall seconds, CPU seconds of this process (robust to other load)."""
    wall, cpu = time.perf_counter(), time.process_time()
    found = system(texts)
    return found, time.perf_counter() - wall, time.process_time() - cpu


def score(corpus: Corpus, found: Sequence[Sequence[Span]]) -> Scores:
    """Any-overlap scores of one system output over the corpus."""
    scores = Scores()
    for gold, spans in zip(corpus.gold, found, strict=True):
        scores.add(gold, spans)
    return scores


def run_systems(systems: dict[str, System], corpus: Corpus, warmup: Sequence[str] = (),
                repeats: int = 1) -> list[Result]:
    """Warm every system up untimed, then time them interleaved ``repeats`` times; keep the fastest run.

    Why interleaved best-of-N: on a shared machine, load from other processes comes and goes;
    alternating systems exposes all of them to the same conditions and the minimum is the
    least disturbed measurement.
    """
    for system in systems.values():
        if warmup:
            system(list(warmup))
    best: dict[str, tuple[float, float]] = {}
    outputs: dict[str, list[list[Span]]] = {}
    for _ in range(max(1, repeats)):
        for name, system in systems.items():
            found, wall, cpu = timed(system, corpus.texts)
            outputs[name] = found
            old = best.get(name)
            best[name] = (min(wall, old[0]), min(cpu, old[1])) if old else (wall, cpu)
    results = []
    for name in systems:
        s = score(corpus, outputs[name])
        results.append(Result(name, corpus.name, len(corpus.texts), corpus.tokens, best[name][0], best[name][1],
                              s.recall, s.precision, s.gold, s.system, max(1, repeats)))
    return results


def psan_system(pipeline: Any, batch_size: int = 32) -> System:
    """A psan :class:`~psan.tool.detection.pipeline.Pipeline` as a benchmark system (entity character ranges)."""
    def run(texts: list[str]) -> list[list[Span]]:
        return [[doc.char_range(e.first_token, e.end_token) for e in doc.entities]
                for doc in pipeline.iter_process(texts, batch_size=batch_size)]
    return run


def nametag_config(language: str, model: str) -> dict[str, Any]:
    """NameTag tokenizer + NER + patterns + gazetteers (the 'NameTag pipeline' of the benchmarks)."""
    return {"language": language, "tokenizer": "nametag", "ner": [{"kind": "nametag", "model": model}],
            "recognizers": ["patterns", "gazetteers"]}


def nametag_model(language: str) -> str:
    """The NameTag model of a language: ``find_nametag_model`` with $PSAN_NAMETAG_MODELS, else the shared models."""
    from psan.tool.detection.defaults import find_nametag_model
    found = find_nametag_model(language) or find_nametag_model(language, str(SHARED / "models" / "nametag"))
    if not found:
        raise SystemExit(f"no NameTag model for {language!r} (set PSAN_NAMETAG_MODELS)")
    return found


def machine() -> dict[str, Any]:
    """Where the numbers were measured (every system runs in this one process)."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"python": platform.python_version(), "platform": platform.platform(), "cpu_count": os.cpu_count(),
            "processor": platform.processor() or platform.machine(), "loadavg": load}


def run_corpora(systems: dict[str, System], corpora: Sequence[Corpus], repeats: int = 1
                ) -> tuple[list[Result], dict[str, Any], dict[str, Any]]:
    """:func:`run_systems` over every corpus, warmed up on the first 5,000 characters of each corpus' first text.

    Returns the results and :func:`machine` read before and after, so a bench can tell whether the machine was
    loaded while it ran (CPU time then counts, not wall-clock).
    """
    warmup = [c.texts[0][:5000] for c in corpora]
    before = machine()
    results: list[Result] = []
    for corpus in corpora:
        results.extend(run_systems(systems, corpus, warmup, repeats))
    return results, before, machine()


def table(results: Sequence[Result]) -> str:
    """Fixed-width result table."""
    head = f"{'system':<20} {'corpus':<11} {'docs':>5} {'tokens':>7} {'wall s':>7} {'tokens/s':>8} {'CPU s':>7} " \
           f"{'CPU tok/s':>9} {'recall':>6} {'prec.':>6} {'gold':>5} {'spans':>5}"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(f"{r.system:<20} {r.corpus:<11} {r.docs:>5} {r.tokens:>7} {r.seconds:>7.2f} "
                     f"{r.tokens_per_s:>8.0f} {r.cpu_seconds:>7.2f} {r.cpu_tokens_per_s:>9.0f} "
                     f"{r.recall:>6.3f} {r.precision:>6.3f} "
                     f"{r.gold:>5} {r.system_spans:>5}")
    return "\n".join(lines)


def write_json(name: str, payload: dict[str, Any]) -> Path:
    """Results to ``bench/out/<name>.json`` (gitignored)."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def step_texts() -> list[str]:
    """Every text of :data:`STEP_CORPORA` (the per-step benchmarks time the pipeline over all of them)."""
    return [t for name in STEP_CORPORA for t in load_corpus(name).texts]


def timed_candidates(pipe: Pipeline, text: str, doc: Document, acc: dict[str, float]) -> list[CharSpan]:
    """The recognizers' candidates as :meth:`Pipeline.candidates` finds them, one recognizer at a time.

    Why not ``candidates`` itself: the step benchmarks charge each recognizer its own CPU seconds, to
    ``acc["recognizer <name>"]`` (recognizers sharing a name, the three ``date`` ones, are summed).
    """
    clock = time.process_time
    out: list[CharSpan] = []
    for r in pipe.recognizers:
        a = clock()
        trigger = getattr(r, "trigger", None)
        if trigger is None or trigger.search(text) is not None:
            out.extend(r.analyze(text, doc))
        acc[f"recognizer {r.name}"] += clock() - a
    return out


def best_steps(one_round: Callable[[], dict[str, float]], rounds: int) -> dict[str, float]:
    """Each step's fewest CPU seconds over ``rounds`` passes (at least one) of ``one_round``.

    Why the minimum: on a shared machine the least disturbed pass is the closest to the code's own cost.
    """
    best: dict[str, float] = {}
    for _ in range(max(1, rounds)):
        for step, cpu in one_round().items():
            best[step] = min(cpu, best.get(step, cpu))
    return best


def print_steps(best: dict[str, float]) -> None:
    """One line a step, the costliest first: CPU seconds and the step's name."""
    for step, cpu in sorted(best.items(), key=lambda kv: -kv[1]):
        print(f"{cpu:8.4f}  {step}")
