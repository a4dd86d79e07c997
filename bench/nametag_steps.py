"""Where the NameTag pipeline's CPU goes: per-step CPU seconds over tab-dev + elitr-dev, in one process.

Run: ``.venv/bin/python bench/nametag_steps.py [--rounds 3] [--model PATH]``

Why: ``bench_nametag_ratio.py`` gives one ratio; this says which step to look at.  The steps of
``Pipeline.process`` are timed one by one around the same calls (NameTag's run, tokens, every
recognizer, mention extension, token splitting, the never-personal filter, merge, the cut of glued spans, long
forms, name completion, propagation, category unification, the JSONL lines of ``psan-tool spans``), with NameTag
alone (its tokenizer and recognizer, as the ratio bench runs it) timed in the same process.  CPU time
(``time.process_time``), the minimum over ``--rounds``.
Recognizers that share a name (the three ``date`` recognizers) are summed.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SHARED, best_steps, print_steps, step_texts, timed_candidates  # noqa: E402

from psan.tool.cli import span_lines  # noqa: E402
from psan.tool.detection import (  # noqa: E402
    acronym_definitions,
    completion,
    consolidate,
    extension,
    merge,
    nonpersonal,
    propagate,
)
from psan.tool.detection.pipeline import Pipeline  # noqa: E402
from psan.tool.text.document import collector_paused, forget_token_texts  # noqa: E402
from psan.tool.text.tokens import split_tokens_and_sentences  # noqa: E402


def one_round(pipe: Pipeline, texts: list[str]) -> dict[str, float]:
    """CPU seconds per step for one pass over ``texts``."""
    from ufal.nametag import Forms, NamedEntities, TokenRanges
    clock = time.process_time
    acc: dict[str, float] = defaultdict(float)
    ner = pipe.ner[0]
    start = clock()
    tokenizer = ner.ner.newTokenizer()
    forms, ranges, entities = Forms(), TokenRanges(), NamedEntities()
    for text in texts:
        tokenizer.setText(text)
        while tokenizer.nextSentence(forms, ranges):
            ner.ner.recognize(forms, entities)
            _ = [(e.start, e.length, e.type) for e in entities]
    acc["(NameTag alone)"] = clock() - start
    with collector_paused():
        for text in texts:
            t0 = clock()
            ner.token_offsets(text)
            t1 = clock()
            acc["NameTag run + offsets"] += t1 - t0
            doc = pipe._tokenize(text)  # noqa: SLF001 - the step being timed
            t2 = clock()
            acc["tokens + token check"] += t2 - t1
            found = pipe._combine_ner(text, [ner.analyze(text, doc)])  # noqa: SLF001 - the step being timed
            acc["NameTag entities"] += clock() - t2
            patterns = timed_candidates(pipe, text, doc, acc)
            t3 = clock()
            patterns = extension.extend_mentions(text, patterns, doc.language)
            found = extension.extend_mentions(text, found, doc.language)
            t3a = clock()
            acc["mention extension"] += t3a - t3
            t3 = t3a
            bounds = {b for c in patterns + found for b in (c.start, c.end)}
            doc.tokens, doc.sentences = split_tokens_and_sentences(doc.tokens, doc.sentences, bounds)
            t4 = clock()
            acc["token splitting"] += t4 - t3
            nonpersonal.drop_never_personal(text, patterns + found, doc.language)
            t5 = clock()
            acc["(never-personal filter, also inside merge)"] += t5 - t4
            doc.entities = merge.resolve(doc, patterns + found)
            t6 = clock()
            acc["merge"] += t6 - t5
            consolidate.split_glued(doc)
            t6a = clock()
            acc["glued spans cut"] += t6a - t6
            acronym_definitions.mark_long_forms(doc)
            t6b = clock()
            acc["long forms"] += t6b - t6a
            completion.complete_names(doc)
            t7 = clock()
            acc["name completion"] += t7 - t6b
            if pipe.propagate is not None:
                propagate.with_propagation(doc, **pipe.propagate)
            t7a = clock()
            acc["propagation"] += t7a - t7
            consolidate.unify_categories(doc)
            t8 = clock()
            acc["categories unified"] += t8 - t7a
            forget_token_texts(doc.tokens)
            "".join(span_lines("corpus/0000.txt", doc))
            acc["JSONL lines"] += clock() - t8
    return acc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--model", default=str(SHARED / "models" / "nametag" / "english-conll-trivial.ner"))
    args = parser.parse_args()
    texts = step_texts()
    pipe = Pipeline({"language": "en", "tokenizer": "nametag", "ner": [{"kind": "nametag", "model": args.model}],
                     "recognizers": ["patterns", "gazetteers"]}, language="en")
    best = best_steps(lambda: one_round(pipe, texts), args.rounds)
    total = sum(v for k, v in best.items() if not k.startswith("("))
    print_steps(best)
    print(f"{total:8.4f}  psan in all ({total / best['(NameTag alone)']:.2f}x NameTag alone in this process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
