"""Golden-output check: ``psan-tool spans`` of this checkout against another commit on the shared corpora.

Run: ``.venv/bin/python bench/compare_spans.py [--base 93036d3] [--corpora tab-dev elitr-dev …]``

Why: speed work (batching, recognizer gating, token arrays) must not change a single span.  The
script checks the base commit out as a ``git worktree`` under the temp folder (once; kept for later
runs), runs the same CLI of both trees with this interpreter on every corpus (as ``.txt`` files,
language from the records) and compares the JSONL records (file, offsets, text, type, category,
source, score) exactly.  Pipelines: the language's default config (``--models-dir`` the shared
NameTag models) and, for English corpora, also ``--nametag-model english-conll-trivial.ner``
(the pipeline of ``bench_nametag_ratio.py``).  The base outputs are cached per commit.
Exit status 1 if any output differs; the first differences are printed.
"""
from __future__ import annotations

import argparse
import json
import subprocess  # nosec B404 - runs git and this repository's own CLI
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import DATA, REPO, RUN_CLI, SHARED  # noqa: E402

CORPORA = ("tab-dev", "elitr-dev", "cnec-dtest", "sk-dev", "pl-dev", "sv-dev")
MODELS = SHARED / "models" / "nametag"


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True, text=True).stdout.strip()  # nosec


def base_tree(rev: str, tmp: Path) -> Path:
    """A worktree of ``rev`` (created once under ``tmp``)."""
    commit = git("rev-parse", rev)
    tree = tmp / f"psan-golden-{commit[:12]}"
    if not (tree / "psan").is_dir():
        git("worktree", "add", "--detach", str(tree), commit)
    return tree


def write_corpus(name: str, folder: Path) -> str:
    """The corpus' texts as ``.txt`` files under ``folder/name``; the corpus language."""
    lang = "en"
    with open(DATA / f"{name}.jsonl", encoding="utf-8") as fh:
        for i, line in enumerate(line for line in fh if line.strip()):
            rec = json.loads(line)
            lang = rec.get("lang") or lang
            path = folder / name / f"{i:04d}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(rec["text"], encoding="utf-8", newline="")
    return lang


def pipelines(lang: str) -> dict[str, list[str]]:
    """Name → CLI options of the pipelines compared for a language."""
    out = {"default": ["--models-dir", str(MODELS)]}
    if lang == "en":
        out["nametag"] = ["--nametag-model", str(MODELS / "english-conll-trivial.ner")]
    return out


def spans(tree: Path, folder: Path, lang: str, options: list[str]) -> list[str]:
    """The JSONL lines ``psan-tool spans`` of ``tree`` prints for the folder."""
    cmd = [sys.executable, "-c", RUN_CLI, str(tree), "spans", "--lang", lang, "-q", *options, str(folder)]
    result = subprocess.run(cmd, cwd=folder.parent, check=True, capture_output=True, text=True)  # nosec B603
    return result.stdout.splitlines()


def diff(old: list[str], new: list[str], limit: int = 5) -> list[str]:
    """Human-readable first differences between two span listings (as sets of records)."""
    a, b = set(old), set(new)
    lines = [f"  only in base: {json.loads(r)}" for r in sorted(a - b)[:limit]]
    lines += [f"  only in this tree: {json.loads(r)}" for r in sorted(b - a)[:limit]]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", default="93036d3", help="commit to compare with (default 93036d3)")
    parser.add_argument("--corpora", nargs="+", default=list(CORPORA))
    parser.add_argument("--tmp", default=tempfile.gettempdir(), help="where the base worktree and its outputs live")
    args = parser.parse_args()
    tmp = Path(args.tmp)
    tree = base_tree(args.base, tmp)
    cache = tree.parent / f"{tree.name}.spans"
    cache.mkdir(exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="psan-golden-") as work:
        for name in args.corpora:
            if not (DATA / f"{name}.jsonl").is_file():
                print(f"{name}: skipped (no {DATA / name}.jsonl)")
                continue
            lang = write_corpus(name, Path(work))
            for pipeline, options in pipelines(lang).items():
                cached = cache / f"{name}.{pipeline}.jsonl"
                if cached.is_file():
                    old = cached.read_text(encoding="utf-8").splitlines()
                else:
                    old = spans(tree, Path(work) / name, lang, options)
                    cached.write_text("\n".join(old) + "\n", encoding="utf-8")
                new = spans(REPO, Path(work) / name, lang, options)
                same = old == new
                failed += not same
                print(f"{name:<11} {pipeline:<8} {len(old):>6} base spans, {len(new):>6} now: "
                      f"{'identical' if same else 'DIFFERENT'}")
                if not same:
                    print("\n".join(diff(old, new)))
    print("PASS" if not failed else f"FAIL ({failed} outputs differ)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
