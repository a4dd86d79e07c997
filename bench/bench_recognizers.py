"""Benchmark: the pattern recognizers alone on one large document, with the shared pre-scan and without it.

Run: ``.venv/bin/python bench/bench_recognizers.py [--tokens 1000000] [--rounds 3] [--base-tree DIR]``

Why: ``bench_nametag_ratio.py`` times the whole pipeline; this isolates the recognizers (issue 41: each
pattern recognizer scanned the whole text with its own regex).  The document is ``bench_scaling``'s court
decisions up to ``--tokens`` tokens, cut into the pipeline's sections; the English ``patterns`` and
``gazetteers`` recognizers run on every section as :meth:`psan.tool.detection.pipeline.Pipeline.candidates` runs them.
Timed in this process, interleaved, the minimum CPU of ``--rounds``: with the pre-scan
(:mod:`psan.tool.detection.recognizers.prescan`, as shipped) and with it turned off (every regex scans the whole
section, as before), per recognizer and in all; NameTag alone on the same document is timed too (its
tokenizer and recognizer, as the ratio bench runs it) so the seconds can be read against the floor.
``--base-tree DIR`` also times another checkout's recognizers in a process of its own.  The candidates of
both modes are compared (they must be equal).
"""
from __future__ import annotations

import argparse
import subprocess  # nosec B404 - runs this script in another checkout
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SHARED  # noqa: E402

MODEL = SHARED / "models" / "nametag" / "english-conll-trivial.ner"
#: run in another checkout (``--base-tree``): the recognizers' CPU over the sections, the minimum of N rounds
BASE_CHILD = """
import sys, time
tree, bench, tokens, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, bench)
from bench_scaling import make_text
sys.path.insert(0, tree)  # after bench_scaling, which puts its own checkout first
from psan.tool.text.document import collector_paused
from psan.tool.detection.pipeline import Pipeline
pipe = Pipeline({"language": "en", "tokenizer": "regex", "recognizers": ["patterns", "gazetteers"], "ner": []})
text = make_text(tokens)
sections = [text[a:b] for a, b in pipe.sections(text)]
docs = [pipe._tokenize(s) for s in sections]
best = 1e9
for _ in range(rounds):
    with collector_paused():
        started = time.process_time()
        for s, d in zip(sections, docs):
            pipe.candidates(s, d)
        best = min(best, time.process_time() - started)
print(best)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--base-tree", metavar="DIR")
    args = parser.parse_args()

    from bench_scaling import make_text

    from psan.tool.detection.pipeline import Pipeline
    from psan.tool.detection.recognizers import prescan
    from psan.tool.text.document import collector_paused

    pipe = Pipeline({"language": "en", "tokenizer": "regex", "recognizers": ["patterns", "gazetteers"], "ner": []})
    text = make_text(args.tokens)
    sections = [text[a:b] for a, b in pipe.sections(text)]
    docs = [pipe._tokenize(s) for s in sections]  # noqa: SLF001 - the recognizers need a document
    clock = time.process_time

    def one_round(on: bool) -> tuple[dict[str, float], list]:
        """CPU per recognizer and the candidates, the pre-scan on or off."""
        real = prescan._MIN_CHARS  # noqa: SLF001 - off: no text is long enough for the pre-scan (every user of it)
        if not on:
            prescan._MIN_CHARS = 1 << 62  # noqa: SLF001
        acc: dict[str, float] = defaultdict(float)
        found = []
        try:
            with collector_paused():
                for section, doc in zip(sections, docs, strict=True):
                    prescan._last.clear()  # noqa: SLF001 - each section's scan is paid for
                    started = clock()
                    found.append(pipe.candidates(section, doc))
                    acc["(all)"] += clock() - started
                    prescan._last.clear()  # noqa: SLF001
                    for rec in pipe.recognizers:
                        started = clock()
                        trigger = getattr(rec, "trigger", None)
                        if trigger is None or trigger.search(section) is not None:
                            rec.analyze(section, doc)
                        acc[rec.name] += clock() - started
        finally:
            prescan._MIN_CHARS = real  # noqa: SLF001
        return acc, found

    best: dict[bool, dict[str, float]] = {True: {}, False: {}}
    same = True
    for _ in range(max(1, args.rounds)):
        results = {on: one_round(on) for on in (True, False)}
        same = same and results[True][1] == results[False][1]
        for on, (acc, _found) in results.items():
            for name, cpu in acc.items():
                best[on][name] = min(cpu, best[on].get(name, cpu))
    nametag = None
    if MODEL.is_file():
        from ufal.nametag import Forms, NamedEntities, Ner, TokenRanges
        ner = Ner.load(str(MODEL))
        tokenizer = ner.newTokenizer()
        forms, ranges, entities = Forms(), TokenRanges(), NamedEntities()
        started = clock()
        tokenizer.setText(text)
        while tokenizer.nextSentence(forms, ranges):
            ner.recognize(forms, entities)
        nametag = clock() - started
    base = None
    if args.base_tree:
        cmd = [sys.executable, "-c", BASE_CHILD, str(Path(args.base_tree).resolve()),
               str(Path(__file__).resolve().parent), str(args.tokens), str(args.rounds)]
        base = float(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()[-1])  # nosec
    print(f"{len(text):,} characters in {len(sections)} sections; recognizers' CPU s (min of {args.rounds}):")
    print(f"  {'recognizer':16s} {'pre-scan':>9s} {'own scans':>9s}")
    for name in sorted(best[True], key=lambda n: -best[False][n]):
        print(f"  {name:16s} {best[True][name]:9.3f} {best[False][name]:9.3f}")
    on, off = best[True]["(all)"], best[False]["(all)"]
    print(f"all recognizers: {on:.3f} s with the pre-scan, {off:.3f} s with their own scans ({on / off:.0%})"
          + (f"; NameTag alone {nametag:.3f} s (recognizers {on / nametag:.2f}x / {off / nametag:.2f}x of it)"
             if nametag else "")
          + (f"; base tree {base:.3f} s" if base is not None else ""))
    print("candidates equal:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
