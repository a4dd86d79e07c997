"""Benchmark: a single document's pseudonymized download in a large project, against its tag mode.

Run: ``.venv/bin/python bench/bench_single_download.py [--documents 100] [--tokens 10000] [--repeats 3]``

Issue 10 target: the pseudonymized download of one 10,000-token document in a 1,000,000-token
project costs at most 5x its tag-mode download (before: the whole project was rendered first,
~900x).  With the project's pseudonym key stored (psan/store/publish/pseudonym_key.py; any full render
writes it), the document renders from the key and its own regions only (psan/store/publish/output_single.py).

Set-up (not timed): a throw-away database ``psan_bench_<pid>`` on ``PSAN_BENCH_DATABASE_URL``
(default ``postgresql://postgres@127.0.0.1:5432/postgres``, dropped at the end); one project of
``--documents`` synthetic documents of ``--tokens`` tokens each (bench_annotation_latency's
generator: person and place names, every name an entity), NE-type rules at confidence -1 so every
entity is private, pre-annotated by ``reannotate_document_now``; one full project render stores
the key (timed and printed for information).  Timed, best of ``--repeats``, in one process:
``render_document(..., "tag")`` and ``render_document(..., "pseudonymize")`` of the middle
document.  Printed: both times, the ratio, PASS/FAIL; exit status 1 on FAIL.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_annotation_latency import synthetic_document  # noqa: E402
from throwaway import bench_app, throwaway_database  # noqa: E402

from psan.runtime import db  # noqa: E402

TARGET_RATIO = 5.0


def populate(app, documents: int, tokens: int, seed: int) -> tuple[int, list[int]]:
    from psan.store.admin.rules import ensure_ne_type_rules
    from psan.store.corpus.documents import create_document, save_recognized
    from psan.store.corpus.reannotate import reannotate_document_now
    ids = []
    with app.app_context():
        with db.transaction() as conn:
            project = db.query_one("INSERT INTO project (name, language) VALUES ('bench single', 'en') RETURNING id",
                                   None, conn)["id"]
        for n in range(documents):
            doc = synthetic_document(tokens, seed + n)
            with db.transaction() as conn:
                document = create_document(conn, project, f"doc{n}.txt", "en", doc.text, None)
                save_recognized(conn, document, doc, "<submission/>")
                ensure_ne_type_rules(conn, project, {e.type for e in doc.entities})
                db.execute("UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'",
                           (project,), conn)
            with db.transaction() as conn:
                reannotate_document_now(conn, document, doc=doc)
            ids.append(document)
    return project, ids


def best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--tokens", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with throwaway_database("psan_bench") as database:
        return _run(args, database.url)


def _run(args: argparse.Namespace, url: str) -> int:
    app = bench_app(url)
    started = time.perf_counter()
    project, ids = populate(app, args.documents, args.tokens, args.seed)
    print(f"set-up: {len(ids)} documents x {args.tokens:,} tokens ({time.perf_counter() - started:.0f} s, "
          "not timed)", flush=True)
    from psan.store.publish import output as store_output
    with app.app_context(), db.transaction() as conn:
        started = time.perf_counter()
        store_output.pseudonymize_project(conn, project)
        full = time.perf_counter() - started
    target = ids[len(ids) // 2]
    with app.app_context(), db.transaction() as conn:
        texts = {}

        def render(mode: str) -> None:
            texts[mode] = store_output.render_document(conn, target, mode)
        tag = best(lambda: render("tag"), args.repeats)
        pseudo = best(lambda: render("pseudonymize"), args.repeats)
        project_pass = [d for d in store_output.pseudonymize_project(conn, project, until=target)
                        if d.document_id == target][0].text
    ratio = pseudo / tag
    same = texts["pseudonymize"] == project_pass
    print(f"full project pseudonymization (stores the key): {full:.2f} s")
    print(f"single document: tag {tag * 1000:.0f} ms, pseudonymize {pseudo * 1000:.0f} ms, ratio {ratio:.2f}x "
          f"(target <= {TARGET_RATIO:.0f}x); same text as in the project pass: {same}")
    ok = ratio <= TARGET_RATIO and same
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
