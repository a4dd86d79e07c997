"""Where psan's own CPU goes in the default English (spaCy) pipeline: per-step CPU seconds, spaCy's NER excluded.

Run: ``.venv/bin/python bench/spacy_steps.py [--rounds 3] [--profile FILE]``

Why: ``bench_preannotation.py`` holds psan's default English pipeline to spaCy's NER alone on the same
texts; what psan adds around the NER (regex tokenizer and sentences, the recognizers, token splitting,
merge, name completion, propagation) is the margin.  spaCy's entities are computed once per text
(``analyze_many``, untimed) and every other step of ``Pipeline._batch_unpaused`` is timed around the
same calls, over tab-dev + elitr-dev, in one process.  CPU time (``time.process_time``), the minimum over
``--rounds``.  ``--profile FILE`` runs one more untimed-by-step pass under cProfile and writes its stats.
``--ner-cache FILE`` keeps spaCy's entities in a pickle (written on the first run); with it the pipeline is
built without the NER entry, so spaCy is not even loaded.  ``--only-own N`` runs N passes of psan's own
steps and nothing else: ``valgrind --tool=callgrind`` of ``--only-own 2`` minus ``--only-own 1`` counts the
instructions of one warm pass (repeatable on a shared machine, unlike CPU seconds)::

    .venv/bin/python bench/spacy_steps.py --ner-cache /tmp/ner.pkl --only-own 0   # writes the cache
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p .venv/bin/python bench/spacy_steps.py \\
        --ner-cache /tmp/ner.pkl --only-own 1      # and again with --only-own 2
"""
from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_steps, print_steps, step_texts, timed_candidates  # noqa: E402

from psan.tool.detection.defaults import default_config  # noqa: E402
from psan.tool.detection.pipeline import Pipeline  # noqa: E402
from psan.tool.text.document import CharSpan, collector_paused  # noqa: E402


def spacy_entities(pipe: Pipeline, texts: list[str]) -> list[list[CharSpan]]:
    """spaCy's combined NER candidates per text (the part this script does not time)."""
    found = [r.analyze_many(texts) for r in pipe.ner]
    return [pipe._combine_ner(t, [f[i] for f in found]) for i, t in enumerate(texts)]  # noqa: SLF001


def own_pass(pipe: Pipeline, texts: list[str], ner: list[list[CharSpan]]) -> list:
    """psan's own steps over the texts (what callgrind counts)."""
    out = []
    with collector_paused():
        for text, found in zip(texts, ner, strict=True):
            doc = pipe._tokenize(text)  # noqa: SLF001 - the steps being timed
            out.append(pipe._finish(doc, pipe.candidates(text, doc), list(found)))  # noqa: SLF001
    return out


def one_round(pipe: Pipeline, texts: list[str], ner: list[list[CharSpan]]) -> dict[str, float]:
    """CPU seconds per step for one pass over ``texts``."""
    clock = time.process_time
    acc: dict[str, float] = defaultdict(float)
    with collector_paused():
        for text, found in zip(texts, ner, strict=True):
            t0 = clock()
            doc = pipe._tokenize(text)  # noqa: SLF001
            acc["regex tokenizer + sentences"] += clock() - t0
            patterns = timed_candidates(pipe, text, doc, acc)
            t1 = clock()
            doc = pipe._resolve(doc, patterns, list(found))  # noqa: SLF001
            t2 = clock()
            acc["extension + token splitting + merge"] += t2 - t1
            pipe.finish_document(doc)
            acc["completion + propagation"] += clock() - t2
    return acc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", default=None)
    parser.add_argument("--only-own", type=int, default=None, metavar="N")
    parser.add_argument("--ner-cache", default=None, metavar="FILE")
    args = parser.parse_args()
    texts = step_texts()
    config = default_config("en")
    cache = Path(args.ner_cache) if args.ner_cache else None
    if cache is not None and cache.is_file():
        with open(cache, "rb") as fh:
            ner = pickle.load(fh)  # noqa: S301 - this script's own file
        pipe = Pipeline({**config, "ner": []}, language="en")
    else:
        pipe = Pipeline(config, language="en")
        ner = spacy_entities(pipe, texts)
        if cache is not None:
            with open(cache, "wb") as fh:
                pickle.dump(ner, fh)
    if args.only_own is not None:
        for _ in range(args.only_own):
            own_pass(pipe, texts, ner)
        return 0
    best = best_steps(lambda: one_round(pipe, texts, ner), args.rounds)
    print_steps(best)
    print(f"{sum(best.values()):8.4f}  psan's own steps in all")
    if args.profile:
        import cProfile
        cProfile.runctx("own_pass(pipe, texts, ner)", globals(), {"pipe": pipe, "texts": texts, "ner": ner},
                        args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
