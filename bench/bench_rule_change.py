"""Benchmark: one rule change on a project of N documents, targeted project run against the full one.

Run: ``.venv/bin/python bench/bench_rule_change.py [--documents 1000] [--tokens 300] [--repeats 3]``

Issue 20: after a window whose decisions changed a rule, the app re-annotated every document of the
project (:func:`psan.store.corpus.reannotate.reannotate_project`), so an hour of annotation cost windows ×
documents.  The targeted run (:func:`psan.store.corpus.rule_changes.reannotate_changed`) re-annotates only the
documents the changed rules can match in.

Set-up (not timed): a throw-away database ``psan_bench_<pid>`` on ``PSAN_BENCH_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``, dropped at the end); one project of ``--documents``
synthetic documents of ``--tokens`` tokens (bench_annotation_latency's generator: plain words, person and
place names, every name an entity), stored by ``save_recognized`` (which writes the word vocabulary),
NE-type rules, every document annotated.  Timed, ``--repeats`` times each, in one process: a decision's
rule change – a word-type rule PRIVATE for a surname of a random document, as ``s`` makes, and a
two-token phrase rule (first name + surname), as ``x`` makes – followed by the targeted run; then the
same kind of change followed by the full run.  Checked once: after a targeted run, a full run changes
no annotation (same rows, links and levels).  Printed: the medians, the documents each run touched,
and the ratio full / targeted.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_annotation_latency import synthetic_document  # noqa: E402
from throwaway import bench_app, throwaway_database  # noqa: E402

from psan.runtime import db  # noqa: E402


def populate(app, documents: int, tokens: int, seed: int) -> tuple[int, list[tuple[str, str]]]:
    """The project and the (first name, surname) pairs of its documents' people."""
    from psan.store.admin.rules import ensure_ne_type_rules
    from psan.store.corpus.documents import create_document, save_recognized
    from psan.store.corpus.reannotate import reannotate_document_now
    people: list[tuple[str, str]] = []
    with app.app_context():
        with db.transaction() as conn:
            project = db.query_one("INSERT INTO project (name, language) VALUES ('bench rules', 'en') RETURNING id",
                                   None, conn)["id"]
        for n in range(documents):
            doc = synthetic_document(tokens, seed + n)
            with db.transaction() as conn:
                document = create_document(conn, project, f"doc{n}.txt", "en", doc.text, None)
                save_recognized(conn, document, doc, "<submission/>")
                ensure_ne_type_rules(conn, project, {e.type for e in doc.entities})
                reannotate_document_now(conn, document, doc=doc)
            people += [tuple(doc.text[t.start:t.end] for t in doc.tokens[e.first_token:e.end_token])
                       for e in doc.entities if e.type == "PERSON" and e.end_token - e.first_token == 2]
        with db.transaction() as conn:
            db.execute("ANALYZE", None, conn)
    return project, people


def snapshot(app, project: int) -> list[tuple]:
    with app.app_context(), db.transaction() as conn:
        return [tuple(r.values()) for r in db.query(
            "SELECT a.document_id, a.first_token, a.end_token, a.rule_level, "
            "array_agg(ar.rule_id ORDER BY ar.rule_id) FROM annotation a JOIN document d ON d.id = a.document_id "
            "LEFT JOIN annotation_rule ar ON ar.annotation_id = a.id WHERE d.project_id = %s GROUP BY a.id "
            "ORDER BY 1, 2, 3", (project,), conn)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--tokens", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    with throwaway_database("psan_bench") as database:
        return _run(args, database.url)


def _run(args: argparse.Namespace, url: str) -> int:
    from psan.store.corpus.reannotate import reannotate_project
    from psan.store.corpus.rule_changes import reannotate_changed
    app = bench_app(url)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    project, people = populate(app, args.documents, args.tokens, args.seed)
    print(f"set-up: {args.documents} documents x {args.tokens} tokens, {len(people)} person mentions "
          f"({time.perf_counter() - started:.0f} s, not timed)", flush=True)
    with app.app_context():
        reannotate_changed(db.transaction, project)  # the set-up's NE-type rules

    def change(kind: str) -> None:
        first, last = rng.choice(people)
        condition = last if kind == "word" else f"{first} {last}"
        with app.app_context(), db.transaction() as conn:
            db.execute("INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'WORD_TYPE', %s, -1) "
                       "ON CONFLICT DO NOTHING", (project, condition), conn)

    def targeted() -> tuple[float, int]:
        with app.app_context():
            result = reannotate_changed(db.transaction, project)
        return result.seconds, len(result.documents)

    def full() -> tuple[float, int]:
        with app.app_context():
            t0 = time.perf_counter()
            done = reannotate_project(db.transaction, project)
            seconds = time.perf_counter() - t0
            reannotate_changed(db.transaction, project)  # the change rows the full run made obsolete
        return seconds, len(done)

    change("word")
    targeted()
    before = snapshot(app, project)
    full()
    same = snapshot(app, project) == before
    print(f"after a targeted run, the full run changes nothing: {same}", flush=True)

    ratios = []
    for kind in ("word", "phrase"):
        runs: dict[str, list[tuple[float, int]]] = {"targeted": [], "full": []}
        for _ in range(args.repeats):
            change(kind)
            runs["targeted"].append(targeted())
            change(kind)
            runs["full"].append(full())
        t = statistics.median(s for s, _ in runs["targeted"])
        f = statistics.median(s for s, _ in runs["full"])
        touched = statistics.median(n for _, n in runs["targeted"])
        ratios.append(f / t)
        print(f"{kind} rule change on {args.documents} documents: targeted {t * 1000:.0f} ms "
              f"({touched:.0f} documents re-annotated), full {f * 1000:.0f} ms "
              f"({runs['full'][0][1]} documents); ratio full / targeted {f / t:.1f}x", flush=True)
    print(f"ratio (median of the kinds' medians): {statistics.median(ratios):.1f}x")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
