"""psan's default English pipeline against spaCy's NER alone: the issue 22 speed target without Presidio.

Run: ``.venv/bin/python bench/bench_spacy_ratio.py [--repeats 3] [--limit N]``

Why: ``bench_preannotation.py`` needs ``presidio-analyzer``, whose current release pins an older ``preshed``
than the installed spaCy uses, so it cannot always be installed beside psan; its psan-spacy target compares
only two of its systems.  This script times exactly those two, with the bench's own parts
(``spacy_ner_system``, ``psan_system`` of ``default_config("en")``, ``run_systems``: warm-up untimed,
interleaved, best of ``--repeats``) on elitr-dev and tab-dev, and prints the CPU-time and wall-clock ratios
of tokens/s (psan-spacy / spacy-ner) per corpus and over both.  Target: ≥ 1.0 (CPU time on a loaded machine,
as in ``bench_preannotation.py``).  To compare two checkouts, run the copy of this file in each (its
``common.py`` imports that checkout's ``psan``), alternating.  JSON in ``bench/out/spacy_ratio.json``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_preannotation import CORPORA, combined_speed, is_loaded, spacy_ner_system  # noqa: E402
from common import load_corpus, psan_system, run_corpora, table, write_json  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    from psan.tool.detection.defaults import default_config
    from psan.tool.detection.pipeline import Pipeline
    config = default_config("en")
    if not any(isinstance(e, dict) and e.get("kind") == "spacy" for e in config["ner"]):
        raise SystemExit(f"default English config does not use spaCy: {config}")
    corpora = [load_corpus(name, args.limit) for name in CORPORA]
    systems = {"spacy-ner": spacy_ner_system(args.batch_size),
               "psan-spacy": psan_system(Pipeline(config), args.batch_size)}
    results, before, after = run_corpora(systems, corpora, args.repeats)
    print(table(results))

    def ratio(corpus: str | None, cpu: bool) -> float:
        mine = [r for r in results if corpus is None or r.corpus == corpus]
        return combined_speed(mine, "psan-spacy", cpu) / combined_speed(mine, "spacy-ner", cpu)

    loaded = is_loaded(before, after)
    verdict = ratio(None, loaded)
    print(f"load average {before['loadavg'][0]:.1f} before / {after['loadavg'][0]:.1f} after "
          f"({'loaded: CPU time counts' if loaded else 'idle enough: wall-clock counts'})")
    for cpu in (True, False):
        per = ", ".join(f"{c} {ratio(c, cpu):.3f}x" for c in CORPORA)
        print(f"psan-spacy / spacy-ner by {'CPU time' if cpu else 'wall-clock'}: {ratio(None, cpu):.3f}x ({per})")
    print(f"{'PASS' if verdict >= 1.0 else 'FAIL'} (target >= 1.0x)")
    write_json("spacy_ratio", {"machine": after, "loadavg_before": before["loadavg"], "repeats": args.repeats,
                               "limit": args.limit, "results": [r.as_dict() for r in results],
                               "cpu_ratio": ratio(None, True), "wall_ratio": ratio(None, False)})
    return 0 if verdict >= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
