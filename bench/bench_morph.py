"""Benchmark: what the surrogate morphology (``psan.tool.morph``) costs the pseudonym step, and is it linear?

Run: ``.venv/bin/python bench/bench_morph.py [--sizes 10000,100000,1000000] [--lang cs]``

The pseudonym step of :mod:`bench_scaling` runs English text, which :mod:`psan.tool.morph` does not
analyse; this measures the languages it does.  Text: the Czech CNEC sentences (``cnec-train``, gold
spans replaced, every document one region list; Slovak: ``sk-dev``; Polish: ``pl-dev``) repeated up
to the size, pseudonymized as one project (``pseudonymize_document`` with one replacer, as the app
does), in a fresh child process per (size, variant).  Variants, measured in the same run:

* ``rules`` – morphology on, no tagger model;
* ``tagger`` – morphology on with the tagger of ``$PSAN_NAMETAG_MODELS`` (skipped without one);
* ``off`` – the analysis switched off (the surrogate rendering of before issue 21: the baseline).

Printed: CPU seconds per variant and size, the ratio to ``off`` (target ≤ 2) and to the previous size
(target ≤ 13 for 10× the tokens).  Repeated text makes the caches (analyses per distinct form, tagged
sentences) hit more than fresh text would: a lower bound on the cost of new text of that size.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess  # nosec B404 - runs this script as a child with fixed arguments
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CORPUS = {"cs": "cnec-train.jsonl", "sk": "sk-dev.jsonl", "pl": "pl-dev.jsonl"}


def _child(lang: str, size: int, variant: str) -> dict[str, float]:
    from psan.tool.surrogates.leakcheck import gold_regions, read_jsonl
    from psan.tool.surrogates.replacer import SurrogateReplacer, pseudonymize_document

    shared = Path(os.environ.get("PSAN_SHARED_DIR", REPO.parent / "shared"))
    docs = list(read_jsonl(shared / "data" / CORPUS[lang]))
    ids: dict[str, int] = {}
    batch, tokens, k = [], 0, 0
    while tokens < size:
        d = docs[k % len(docs)]
        batch.append((d, gold_regions(d, ids)))
        tokens += len(d["text"].split())
        k += 1
    if variant == "off":
        SurrogateReplacer._analyse = lambda self, *a: None  # noqa: SLF001 - the baseline: no analysis
    replacer = SurrogateReplacer(None, lang, 1)
    started = time.process_time()
    for n, (d, regions) in enumerate(batch):
        pseudonymize_document(d["text"], regions, lang, 1, replacer=replacer, document=str(n))
    return {"cpu": time.process_time() - started, "tokens": tokens}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--lang", default="cs", choices=sorted(CORPUS))
    parser.add_argument("--child", nargs=2, metavar=("SIZE", "VARIANT"))
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.lang, int(args.child[0]), args.child[1])))
        return 0
    models = os.environ.get("PSAN_NAMETAG_MODELS")
    variants = ["off", "rules"] + (["tagger"] if models else [])
    results: dict[str, dict[int, float]] = {v: {} for v in variants}
    for size in (int(s) for s in args.sizes.split(",")):
        for variant in variants:
            env = dict(os.environ)
            if variant != "tagger":
                env["PSAN_NAMETAG_MODELS"] = str(REPO / "bench" / "out" / "no-models")
            done = subprocess.run([sys.executable, __file__, "--lang", args.lang, "--child", str(size), variant],
                                  capture_output=True, text=True, env=env, check=True)  # nosec B603
            got = json.loads(done.stdout.strip().splitlines()[-1])
            results[variant][size] = got["cpu"]
            prev = [s for s in results[variant] if s < size]
            growth = f"{got['cpu'] / results[variant][max(prev)]:.1f}x prev" if prev else ""
            base = results["off"].get(size)
            print(f"{args.lang} {size:>8} tokens {variant:6} {got['cpu']:8.2f} s CPU  "
                  f"{got['cpu'] / base:.2f}x off  {growth}", flush=True)
    out = REPO / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"morph-{args.lang}.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
