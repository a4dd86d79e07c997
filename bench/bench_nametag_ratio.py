"""Benchmark: CPU of ``psan-tool spans --nametag-model …`` against NameTag alone on the same texts.

Run: ``.venv/bin/python bench/bench_nametag_ratio.py [--repeats 3] [--model PATH] [--target 3.0]
[--tokens 1000000] [--command spans|recognize] [--base-tree DIR]``

Why: psan's NameTag pipeline (NameTag tokenizer + NER + pattern recognizers + gazetteers + merge +
propagation) should cost a small multiple of NameTag itself, the floor that no pipeline using it can
go under.  Both sides are measured as users run them, each in processes of its own:

* **psan** — the installed ``psan-tool spans --nametag-model MODEL --lang en -q`` over the texts of
  ``tab-dev`` and ``elitr-dev`` (``$PSAN_SHARED_DIR/data``), written as ``.txt`` files; spans to /dev/null.
* **nametag** — a Python process that reads the same files and runs ``ufal.nametag``'s tokenizer and
  recognizer over every sentence (collecting the entities), nothing else.

With ``--tokens N`` both sides read one large document instead (court decisions of ``tab-dev`` repeated
up to N tokens, as ``bench_scaling.py`` builds it; ``--command recognize`` also writes its tagged XML),
and the peak memory (each child's maximum RSS, start-up included) is compared too: issue 41 asks for
≤ 2.5× the CPU and ≤ 2× the peak memory of NameTag alone on a 10^6-token document.

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


def write_large(folder: Path, tokens: int) -> tuple[list[Path], int]:
    """One document of about ``tokens`` tokens (``bench_scaling.make_text``) as ``folder/doc.txt``."""
    from bench_scaling import make_text
    text = make_text(tokens)
    path = folder / "doc.txt"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    return [path], len(text)


def child_run(cmd: list[str]) -> tuple[float, float]:
    """User + system CPU seconds and peak RSS (MB) of one child process running ``cmd`` (stdout discarded)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,  # nosec B603
                            env={**os.environ, "OMP_NUM_THREADS": "1"})
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def child_cpu(cmd: list[str]) -> float:
    """User + system CPU seconds of one child process running ``cmd`` (stdout discarded)."""
    return child_run(cmd)[0]


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
    parser.add_argument("--tokens", type=int, default=0,
                        help="one document of this many tokens instead of the corpora (e.g. 1000000); "
                             "peak memory is compared too")
    parser.add_argument("--command", choices=("spans", "recognize"), default="spans",
                        help="the psan-tool command measured (recognize also writes the tagged XML)")
    parser.add_argument("--memory-target", type=float, default=2.0,
                        help="highest acceptable peak-memory ratio with --tokens (default 2.0)")
    args = parser.parse_args()
    tool = Path(args.base_tree or ".") / "psan" / "tool"
    if args.base_tree and not ((tool / "cli.py").is_file() or (tool / "cli" / "__init__.py").is_file()):
        raise SystemExit(f"--base-tree {args.base_tree} is not a psan checkout")
    if not os.path.isfile(args.model):
        raise SystemExit(f"NameTag model {args.model} not found (set PSAN_SHARED_DIR)")
    with tempfile.TemporaryDirectory(prefix="psan-bench-") as tmp:
        folder = Path(tmp)
        paths, chars = write_large(folder / "corpus", args.tokens) if args.tokens else write_texts(folder / "corpus")
        small = folder / "small" / "small.txt"
        small.parent.mkdir()
        small.write_text(SMALL_TEXT, encoding="utf-8")
        psan = [args.psan_tool, args.command, "--nametag-model", args.model, "--lang", "en", "-q"]
        if args.command == "recognize":
            psan += ["--xml-out", str(folder / "xml")]
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
        peak: dict[str, float] = {}
        for _ in range(max(1, args.repeats)):
            for name, cmd in runs.items():
                cpu, rss = child_run(cmd)
                best[name] = min(cpu, best.get(name, cpu))
                peak[name] = min(rss, peak.get(name, rss))
    psan_net = best["psan"] - best["psan start-up"]
    nametag_net = best["nametag"] - best["nametag start-up"]
    ratio = psan_net / nametag_net
    what = f"one document of {args.tokens} tokens" if args.tokens else f"{len(paths)} files of {', '.join(CORPORA)}"
    print(f"texts: {what}, {chars} characters; psan-tool {args.command}; minimum of {args.repeats} runs")
    for name, cpu in best.items():
        print(f"  {name:<17} {cpu:7.2f} CPU s  peak RSS {peak[name]:7.1f} MB")
    print(f"psan net {psan_net:.2f} CPU s, NameTag alone net {nametag_net:.2f} CPU s")
    base_ratio = None
    if args.base_tree:
        base_net = best["base"] - best["base start-up"]
        base_ratio = base_net / nametag_net
        print(f"base tree {args.base_tree}: net {base_net:.2f} CPU s, ratio {base_ratio:.2f}x NameTag alone; "
              f"this tree uses {psan_net / base_net:.0%} of the base tree's CPU")
    memory_ratio = peak["psan"] / peak["nametag"]
    memory_ok = not args.tokens or memory_ratio <= args.memory_target
    verdict = "PASS" if ratio <= args.target and memory_ok else "FAIL"
    print(f"ratio psan / NameTag alone: {ratio:.2f}x (target <= {args.target:.1f}x) "
          f"{'PASS' if ratio <= args.target else 'FAIL'}")
    print(f"peak memory psan / NameTag alone: {memory_ratio:.2f}x ({peak['psan']:.0f} / {peak['nametag']:.0f} MB)"
          + (f" (target <= {args.memory_target:.1f}x) {'PASS' if memory_ok else 'FAIL'}" if args.tokens else ""))
    if args.base_tree:
        print(f"base tree peak memory {peak['base']:.0f} MB, {peak['base'] / peak['nametag']:.2f}x NameTag alone")
    print(verdict)
    name = "nametag_ratio_large" if args.tokens else "nametag_ratio"
    path = write_json(name, {"machine": machine(), "repo": str(REPO), "model": args.model,
                                        "files": len(paths), "chars": chars, "repeats": args.repeats,
                                        "cpu_seconds": best, "psan_net": psan_net, "nametag_net": nametag_net,
                                        "ratio": ratio, "base_tree": args.base_tree, "base_ratio": base_ratio,
                                        "tokens": args.tokens, "command": args.command, "peak_rss_mb": peak,
                                        "memory_ratio": memory_ratio, "memory_target": args.memory_target,
                                        "target": args.target, "verdict": verdict})
    print(f"JSON: {path}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
