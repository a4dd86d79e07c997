"""Benchmark: does every step scale linearly?  10k / 100k / 1M tokens, CPU time and peak RSS.

Run: ``.venv/bin/python bench/bench_scaling.py [--sizes 10000,100000,1000000] [--pipeline default|fast]``

Issue 13 target: for 10x the size no step takes more than 13x the CPU time of the size before it.

Steps, each measured in a fresh child process (so peak RSS belongs to that step alone; model loading
and a small warm-up run are excluded from both figures):

* ``preannotate`` – the worker's ``psan.pre_process`` task on one document (recognition, tagged XML,
  COPY into PostgreSQL, rules and statuses), called in-process with the real database;
* ``tag`` / ``pseudonym`` – the output of that one document in the two modes (``render_document``),
  after its NE-type rules were made private (untimed), so every entity is replaced;
* ``zip`` – the pseudonymized project ZIP (``project_zip``) of a project with that document;
* ``classifier`` – the learned token classifier (trained once on 20k tokens, untimed) predicting the
  document's spans.

The read-only steps (all but ``preannotate``) are repeated until they used 1 CPU second and the
mean per run is reported: one run on 10k tokens takes milliseconds, too little to time alone.

Texts: court decisions of ``tab-dev`` (``$PSAN_SHARED_DIR/data``, default ``../shared``)
concatenated and repeated up to the size (tokens by psan's regex tokenizer), or, without the corpus,
the synthetic English text of ``bench_annotation_latency``.  ``--pipeline fast`` uses the regex
tokenizer, patterns and gazetteers without NER (quicker; the default is the project default, spaCy).

A throw-away database ``psan_scaling_<pid>`` on ``PSAN_BENCH_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``) is dropped at the end.  Printed: per step and size the
CPU seconds, peak-RSS growth in MB and the ratio to the previous size; PASS when every CPU ratio is ≤ 13.
JSON in ``bench/out/scaling.json``.  CPU time (not wall-clock) because the machine is shared.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

RATIO_TARGET = 13.0
STEPS = ("preannotate", "tag", "pseudonym", "zip", "classifier")
FAST_PIPELINE = {"tokenizer": "regex", "ner": [], "recognizers": ["patterns", "gazetteers"]}


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _reset_peak() -> float:
    """Reset the peak RSS (Linux: ``clear_refs`` 5) so it measures the step only; current RSS in MB."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass
    return _status_mb("VmRSS")


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _rss_mb() -> float:
    """Peak RSS since the last :func:`_reset_peak`, in MB."""
    return _status_mb("VmHWM")


def make_text(n_tokens: int) -> str:
    """About ``n_tokens`` tokens of court decisions (tab-dev), or synthetic text without the corpus."""
    from common import DATA, count_tokens
    path = DATA / "tab-dev.jsonl"
    if not path.is_file():
        from bench_annotation_latency import synthetic_document
        return synthetic_document(n_tokens, 7).text
    texts = [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    parts: list[str] = []
    total = 0
    while total < n_tokens:
        for t in texts:
            n = count_tokens(t)
            if total + n > n_tokens:
                words = t.split(" ")
                keep = max(1, int(len(words) * (n_tokens - total) / max(n, 1)))
                t = " ".join(words[:keep])
                n = count_tokens(t)
            parts.append(t)
            total += n
            if total >= n_tokens:
                break
    return "\n\n".join(parts)


def _app(url: str):
    from psan import create_app
    prefix = f"psan-scaling-{os.getpid()}"
    return create_app({"PSAN_CONFIG": "testing", "SECRET_KEY": "bench-secret-key-0123456789abcdef",
                       "DATABASE_URL": url,
                       "REDIS_URL": os.environ.get("PSAN_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"),
                       "CELERY_QUEUE": prefix, "REDIS_KEY_PREFIX": prefix,
                       # the task in this process does all the work (no chord of section tasks to other workers):
                       # CPU time of one process is what this benchmark compares
                       "PREPROCESS_SECTIONS_IN_PARALLEL": False})


def _classifier():
    from common import DATA

    from psan.tool.detection.classifier import TokenClassifier
    path = DATA / "tab-dev.jsonl"
    if path.is_file():
        from psan.tool.detection.classifier.data import training_doc_from_gold
        docs = [training_doc_from_gold(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()[:4]]
    else:
        from bench_annotation_latency import synthetic_document
        d = synthetic_document(20_000, 3)
        docs = [(d.text, [(d.tokens[e.first_token].start, d.tokens[e.end_token - 1].end, str(e.category))
                          for e in d.entities])]
    return TokenClassifier.train(docs, "en", max_iter=20)


#: read-only steps are repeated until they used this much CPU (mean per run reported): at 10k tokens
#: one run takes a few CPU milliseconds, below what a single getrusage difference resolves reliably
MIN_CPU_SECONDS = 1.0


def _repeated(step: Any, max_runs: int = 50) -> tuple[float, int, Any]:
    """Mean CPU seconds per run of ``step`` (idempotent) over enough runs, the run count and the result."""
    cpu0 = _cpu()
    runs = 0
    while True:
        result = step()
        runs += 1
        if _cpu() - cpu0 >= MIN_CPU_SECONDS or runs >= max_runs:
            return (_cpu() - cpu0) / runs, runs, result


def child(step: str, url: str, document_id: int, project_id: int, text_file: str) -> dict[str, Any]:
    """Run one step once after a warm-up; CPU seconds and peak-RSS growth of this process."""
    app = _app(url)
    with app.app_context():
        from psan.runtime import db
        if step == "classifier":
            model = _classifier()
            text = Path(text_file).read_text(encoding="utf-8")
            model.predict_spans(text[:20_000])
            rss0 = _reset_peak()
            cpu, runs, spans = _repeated(lambda: model.predict_spans(text))
            return {"cpu": cpu, "runs": runs, "rss": _rss_mb() - rss0, "spans": len(spans)}
        if step == "preannotate":
            from psan.celery.tasks import pre_process
            from psan.store.corpus.pipelines import effective_config, get_pipeline
            with db.transaction() as conn:
                row = db.query_one("SELECT p.pipeline, d.language FROM document d "
                                   "JOIN project p ON p.id = d.project_id WHERE d.id = %s", (document_id,), conn)
            get_pipeline(effective_config(row["pipeline"], row["language"])).process(
                "Warm-up: Jan Novák met John Smith in Prague on 3 May 2001.")
            rss0, cpu0 = _reset_peak(), _cpu()
            result = pre_process.run(document_id)
            return {"cpu": _cpu() - cpu0, "rss": _rss_mb() - rss0, "result": result}
        from psan.store.publish.archive import project_zip
        from psan.store.publish.output import render_document
        from psan.tool.morph import namelists
        from psan.tool.surrogates import names
        namelists.pools("en")  # warm-up: surrogate pools, name lists, Faker (not the document itself)
        names.faker_value("en", "city", 1)
        def once() -> int:
            with db.transaction() as conn:
                if step == "zip":
                    return len(project_zip(conn, project_id, "pseudonymize"))
                return len(render_document(conn, document_id, "tag" if step == "tag" else "pseudonymize") or "")

        rss0 = _reset_peak()
        cpu, runs, size = _repeated(once)
        return {"cpu": cpu, "runs": runs, "rss": _rss_mb() - rss0, "bytes": size}


def _decide_all_private(app, project_id: int, document_id: int) -> None:
    """Untimed: NE-type rules private at full confidence, so the outputs replace every entity."""
    from psan.runtime import db
    from psan.store.corpus.reannotate import reannotate_document_now
    with app.app_context(), db.transaction() as conn:
        db.execute("UPDATE rule SET confidence = 1 WHERE project_id = %s AND type = 'NE_TYPE'", (project_id,), conn)
        reannotate_document_now(conn, document_id)


def _rows(app, document_id: int) -> dict[str, int]:
    """PostgreSQL rows the document holds per table (sizing figures for docs/admin.md)."""
    from psan.runtime import db
    out = {}
    with app.app_context(), db.transaction() as conn:
        for table in ("token", "sentence", "named_entity", "annotation"):
            out[table] = db.query_one(f"SELECT count(*) AS n FROM {table} WHERE document_id = %s",  # noqa: S608  # nosec B608
                                      (document_id,), conn)["n"]
        out["database bytes"] = db.query_one("SELECT pg_database_size(current_database()) AS n", None, conn)["n"]
    return out


def run_child(step: str, url: str, document_id: int, project_id: int, text_file: str) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", step, "--url", url, "--document", str(document_id),
           "--project", str(project_id), "--text-file", text_file]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=REPO)  # nosec B603
    if out.returncode != 0:
        raise SystemExit(f"step {step} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--pipeline", choices=("default", "fast"), default="default")
    parser.add_argument("--steps", default=",".join(STEPS))
    parser.add_argument("--child")
    parser.add_argument("--url")
    parser.add_argument("--document", type=int)
    parser.add_argument("--project", type=int)
    parser.add_argument("--text-file")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.url, args.document, args.project, args.text_file)))
        return 0

    import psycopg2
    from throwaway import with_database

    from psan.runtime import db, migrate
    sizes = [int(s) for s in args.sizes.split(",")]
    steps = [s for s in args.steps.split(",") if s]
    server_url = os.environ.get("PSAN_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"psan_scaling_{os.getpid()}"
    out_dir = REPO / "bench" / "out"
    out_dir.mkdir(parents=True, exist_ok=True)
    admin = psycopg2.connect(server_url)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    url = with_database(server_url, name)
    results: dict[str, dict[int, dict[str, Any]]] = {s: {} for s in steps}
    try:
        migrate.upgrade(url)
        app = _app(url)
        print(f"database {name}; pipeline {args.pipeline}; steps {', '.join(steps)}", flush=True)
        for n in sizes:
            text = make_text(n)
            text_file = out_dir / f"scaling-{os.getpid()}-{n}.txt"
            text_file.write_text(text, encoding="utf-8")
            with app.app_context(), db.transaction() as conn:
                from psan.store.corpus.documents import create_document
                pipeline = json.dumps(FAST_PIPELINE if args.pipeline == "fast" else {})
                project = db.query_one("INSERT INTO project (name, language, pipeline) VALUES (%s, 'en', %s) "
                                       "RETURNING id", (f"scaling {n}", pipeline), conn)["id"]
                document = create_document(conn, project, f"doc-{n}.txt", "en", text, None)
            print(f"\n{n:,} tokens ({len(text):,} characters):", flush=True)
            try:
                for step in steps:
                    started = time.perf_counter()
                    got = run_child(step, url, document, project, str(text_file))
                    results[step][n] = got
                    print(f"  {step:12s} CPU {got['cpu']:8.2f} s   peak RSS +{got['rss']:7.1f} MB   "
                          f"(wall {time.perf_counter() - started:.1f} s incl. start-up)", flush=True)
                    if step == "preannotate":
                        if (got.get("result") or {}).get("status") in (None, "FAILED"):
                            raise SystemExit(f"pre-annotation did not finish: {got.get('result')}")
                        _decide_all_private(app, project, document)
                        results.setdefault("rows", {})[n] = _rows(app, document)
                        print("  rows: " + ", ".join(f"{k} {v:,}" for k, v in results["rows"][n].items()), flush=True)
            finally:
                text_file.unlink(missing_ok=True)
        db.close_pools()
    finally:
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    ok = True
    print(f"\nratios to the previous size (target: CPU ≤ {RATIO_TARGET:.0f}x for 10x the tokens):")
    for step in steps:
        if step not in STEPS:
            continue
        row = []
        for prev, n in zip(sizes, sizes[1:], strict=False):
            a, b = results[step][prev], results[step][n]
            ratio = b["cpu"] / max(a["cpu"], 1e-3)
            verdict = ratio <= RATIO_TARGET * (n / prev) / 10
            ok &= verdict
            row.append(f"{prev:,}→{n:,}: CPU {ratio:5.2f}x {'PASS' if verdict else 'FAIL'}, "
                       f"RSS +{a['rss']:.0f}→+{b['rss']:.0f} MB")
        print(f"  {step:12s} " + "; ".join(row))
    (out_dir / "scaling.json").write_text(json.dumps({"sizes": sizes, "pipeline": args.pipeline,
                                                     "results": {s: {str(k): v for k, v in r.items()}
                                                                 for s, r in results.items()}}, indent=1))
    print(f"\n{'PASS' if ok else 'FAIL'}: every CPU ratio ≤ {RATIO_TARGET:.0f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
