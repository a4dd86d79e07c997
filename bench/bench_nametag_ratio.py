"""Benchmark: CPU of ``psan-tool spans --nametag-model …`` against NameTag alone on the same texts.

Run: ``.venv/bin/python bench/bench_nametag_ratio.py [--repeats 3] [--model PATH] [--target 3.0]``

Why: psan's NameTag pipeline (NameTag tokenizer + NER + pattern recognizers + gazetteers + merge +
propagation) should cost a small multiple of NameTag itself, the floor that no pipeline using it can
go under.  Both sides are measured as users run them, each in processes of its own:

* **psan** — the installed ``psan-tool spans --nametag-model MODEL --lang en -q`` over the texts of
  ``tab-dev`` and ``elitr-dev`` (``$PSAN_SHARED_DIR/data``), written as ``.txt`` files; spans to /dev/null.
* **nametag** — a Python process that reads the same files and runs ``ufal.nametag``'s tokenizer and
  recognizer over every sentence (collecting the entities), nothing else.

Each side is also run on one short file; that run's CPU (interpreter, imports, model loading) is the
start-up, subtracted from the full run's CPU.  CPU is the children's user + system time
(``getrusage``), so other load on the machine changes it little.  Runs are interleaved; the minimum
of ``--repeats`` runs of each kind is used.  Prints the ratio psan/nametag (net of start-up) and
PASS/FAIL against ``--target``; exit status 1 on FAIL.  JSON in ``bench/out/nametag_ratio.json``.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess  # nosec B404 - runs this repository's own CLI and interpreter
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import DATA, REPO, RUN_CLI, SHARED, machine, write_json  # noqa: E402

CORPORA = ("tab-dev", "elitr-dev")
SMALL_TEXT = "Mr John Smith of London wrote to Acme Ltd on 3 May 2001.\n"

#: NameTag alone: the tokenizer and the recognizer over every sentence of every file named on the command line
NAMETAG_ALONE = """
import sys
from ufal.nametag import Forms, NamedEntities, Ner, TokenRanges
ner = Ner.load(sys.argv[1])
tokenizer = ner.newTokenizer()
forms, ranges, entities = Forms(), TokenRanges(), NamedEntities()
found = 0
for path in sys.argv[2:]:
    with open(path, encoding="utf-8", newline="") as fh:
        tokenizer.setText(fh.read())
    while tokenizer.nextSentence(forms, ranges):
        ner.recognize(forms, entities)
        found += len([(e.start, e.length, e.type) for e in entities])
print(found)
"""


def write_texts(folder: Path) -> tuple[list[Path], int]:
    """The corpora's texts as numbered ``.txt`` files (byte-exact); their paths and character count."""
    paths: list[Path] = []
    chars = 0
    for name in CORPORA:
        source = DATA / f"{name}.jsonl"
        if not source.is_file():
            raise SystemExit(f"corpus {source} not found (set PSAN_SHARED_DIR)")
        with open(source, encoding="utf-8") as fh:
            for i, line in enumerate(line for line in fh if line.strip()):
                text = json.loads(line)["text"]
                path = folder / name / f"{i:04d}.txt"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8", newline="")
                paths.append(path)
                chars += len(text)
    return paths, chars


def child_cpu(cmd: list[str]) -> float:
    """User + system CPU seconds of one child process running ``cmd`` (stdout discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "OMP_NUM_THREADS": "1"})  # nosec B603
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each kind; the minimum counts (default 3)")
    parser.add_argument("--model", default=str(SHARED / "models" / "nametag" / "english-conll-trivial.ner"))
    parser.add_argument("--target", type=float, default=3.0, help="highest acceptable ratio (default 3.0)")
    parser.add_argument("--psan-tool", default=str(Path(sys.executable).parent / "psan-tool"),
                        help="the psan-tool to measure (default: the one next to this interpreter)")
    parser.add_argument("--base-tree", metavar="DIR",
                        help="also measure the psan-tool of another checkout (e.g. a git worktree of an older "
                             "commit) in the same run, with this interpreter: the before/after ratio")
    args = parser.parse_args()
    if args.base_tree and not (Path(args.base_tree) / "psan" / "tool" / "cli.py").is_file():
        raise SystemExit(f"--base-tree {args.base_tree} is not a psan checkout")
    if not os.path.isfile(args.model):
        raise SystemExit(f"NameTag model {args.model} not found (set PSAN_SHARED_DIR)")
    with tempfile.TemporaryDirectory(prefix="psan-bench-") as tmp:
        folder = Path(tmp)
        paths, chars = write_texts(folder / "corpus")
        small = folder / "small" / "small.txt"
        small.parent.mkdir()
        small.write_text(SMALL_TEXT, encoding="utf-8")
        psan = [args.psan_tool, "spans", "--nametag-model", args.model, "--lang", "en", "-q"]
        nametag = [sys.executable, "-c", NAMETAG_ALONE, args.model]
        runs = {
            "psan": psan + [str(folder / "corpus")],
            "psan start-up": psan + [str(small.parent)],
            "nametag": nametag + [str(p) for p in paths],
            "nametag start-up": nametag + [str(small)],
        }
        if args.base_tree:
            base = [sys.executable, "-c", RUN_CLI, str(Path(args.base_tree).resolve()), *psan[1:]]
            runs["base"] = base + [str(folder / "corpus")]
            runs["base start-up"] = base + [str(small.parent)]
        best: dict[str, float] = {}
        for _ in range(max(1, args.repeats)):
            for name, cmd in runs.items():
                cpu = child_cpu(cmd)
                best[name] = min(cpu, best.get(name, cpu))
    psan_net = best["psan"] - best["psan start-up"]
    nametag_net = best["nametag"] - best["nametag start-up"]
    ratio = psan_net / nametag_net
    print(f"texts: {len(paths)} files of {', '.join(CORPORA)}, {chars} characters; minimum of {args.repeats} runs")
    for name, cpu in best.items():
        print(f"  {name:<17} {cpu:7.2f} CPU s")
    print(f"psan net {psan_net:.2f} CPU s, NameTag alone net {nametag_net:.2f} CPU s")
    base_ratio = None
    if args.base_tree:
        base_net = best["base"] - best["base start-up"]
        base_ratio = base_net / nametag_net
        print(f"base tree {args.base_tree}: net {base_net:.2f} CPU s, ratio {base_ratio:.2f}x NameTag alone; "
              f"this tree uses {psan_net / base_net:.0%} of the base tree's CPU")
    verdict = "PASS" if ratio <= args.target else "FAIL"
    print(f"ratio psan / NameTag alone: {ratio:.2f}x (target <= {args.target:.1f}x) {verdict}")
    path = write_json("nametag_ratio", {"machine": machine(), "repo": str(REPO), "model": args.model,
                                        "files": len(paths), "chars": chars, "repeats": args.repeats,
                                        "cpu_seconds": best, "psan_net": psan_net, "nametag_net": nametag_net,
                                        "ratio": ratio, "base_tree": args.base_tree, "base_ratio": base_ratio,
                                        "target": args.target, "verdict": verdict})
    print(f"JSON: {path}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
