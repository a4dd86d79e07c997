"""Benchmark: the next reading window of a project that reviews by risk, small project against large.

Run: ``.venv/bin/python bench/bench_reading_plan.py [--tokens 1000000] [--repeats 5]``

Why: in review by risk every reading window a person asks for comes from the project's reading plan (what was
read, the risk model's view of the rest, the routing; ``psan.store.review.risk_review.assign_reading``).  A person
waits for it, so on a large project it must answer as a small one does.

Set-up (not timed): a throw-away database (``bench/throwaway.py``), two projects of one synthetic document each
(``bench_annotation_latency.synthetic_document``: the 25,000-token baseline, large enough for a trained model,
and ``--tokens``), review by risk.
The first ``--read-share`` of each document counts as read: windows of 300 tokens in ``window_log``, and in every
``--hit-every``-th read sentence a private decision on a word no recognizer found (a hand mark), so that the risk
model is trained and routes.

Timed, through the store functions the annotation API calls (one transaction each, rolled back): the first
``assign_reading`` of the process (the model is fitted) and ``--repeats`` more, each after a person read the
next window and marked a word in it by hand (the model is cached as in a running server, and refitted when the
hand marks grow by more than 5 %), for each project.  Printed: the medians and the large project's against the
small one's beside the ratio of their sizes.  Targets: the large project's next window in < 1 s, and no cost that
grows faster than the project (ratio ≤ the ratio of the sizes: the plan is the whole project's, so it grows with
it).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from psycopg2.extras import execute_values  # noqa: E402

from psan.runtime import db  # noqa: E402

ABSOLUTE_TARGET_S = 1.0
WINDOW = 300


def prepare(conn, project_id: int, read_share: float, hit_every: int) -> tuple[int, int]:
    """Review by risk; the first ``read_share`` of each document shown in windows, with hand marks; (read
    sentences, hand marks)."""
    from psan.store.corpus.documents import load_document
    db.execute("UPDATE project SET review_mode = 'risk' WHERE id = %s", (project_id,), conn)
    account = db.query_one("SELECT account_id FROM project_member WHERE project_id = %s LIMIT 1",
                           (project_id,), conn)["account_id"]
    read = marks = 0
    for row in db.query("SELECT id FROM document WHERE project_id = %s ORDER BY id", (project_id,), conn):
        doc = load_document(conn, row["id"])
        covered = bytearray(len(doc.tokens))
        for e in doc.entities:
            covered[e.first_token:e.end_token] = b"\x01" * (e.end_token - e.first_token)
        limit = int(len(doc.tokens) * read_share)
        windows = [(first, min(first + WINDOW, limit)) for first in range(0, limit, WINDOW)]
        with conn.cursor() as cur:
            execute_values(cur, "INSERT INTO window_log (project_id, document_id, account_id, first_token, end_token, "
                           "decisions, forced, started_at, finished_at) VALUES %s",
                           [(project_id, row["id"], account, f, e) for f, e in windows],
                           template="(%s, %s, %s, %s, %s, 0, false, now(), now())")
        hands = []
        for s in doc.sentences:
            if s.end_token > limit:
                break
            read += 1
            free = [t for t in range(s.first_token + 1, s.end_token - 1) if not covered[t]]
            if read % hit_every == 0 and free:
                hands.append((row["id"], free[len(free) // 2], free[len(free) // 2] + 1, account))
        with conn.cursor() as cur:
            execute_values(cur, "INSERT INTO annotation (document_id, first_token, end_token, token_decision, "
                           "decided_by, decided_at) VALUES %s ON CONFLICT DO NOTHING", hands,
                           template="(%s, %s, %s, 'PRIVATE', %s, now())")
        marks += len(hands)
    return read, marks


def time_assign(app, project_id: int, repeats: int, read_share: float) -> tuple[float, list[float], str]:
    """Seconds of the first ``assign_reading`` and of ``repeats`` more, and the kind of window the last gave.

    Before each of the ``repeats``, a person has read the next 300 tokens after the read part (a window in
    ``window_log``, committed) and decided a word there private by hand: the project changed as between two
    windows of a working annotator.
    """
    from psan.store.review import risk_review
    times: list[float] = []
    kind = "none"
    with app.app_context():
        with db.transaction() as conn:
            account = db.query_one("SELECT account_id FROM project_member WHERE project_id = %s LIMIT 1",
                                   (project_id,), conn)["account_id"]
            document, tokens = db.query_one("SELECT id, token_count FROM document WHERE project_id = %s LIMIT 1",
                                            (project_id,), conn).values()
        at = int(tokens * read_share)
        for i in range(repeats + 1):
            if i:
                with db.transaction() as conn:
                    db.execute("INSERT INTO window_log (project_id, document_id, account_id, first_token, end_token, "
                               "decisions, forced, started_at, finished_at) VALUES (%s, %s, %s, %s, %s, 1, false, "
                               "now(), now())", (project_id, document, account, at, at + WINDOW), conn)
                    db.execute("INSERT INTO annotation (document_id, first_token, end_token, token_decision, "
                               "decided_by, decided_at) VALUES (%s, %s, %s, 'PRIVATE', %s, now()) "
                               "ON CONFLICT DO NOTHING", (document, at + 7, at + 8, account), conn)
                at += WINDOW
            with db.transaction() as conn:
                db.execute("INSERT INTO annotator_choice (account_id, project_id) VALUES (%s, %s) "
                           "ON CONFLICT (account_id) DO UPDATE SET project_id = excluded.project_id",
                           (account, project_id), conn)
                started = time.perf_counter()
                reading = risk_review.assign_reading(conn, account, False, WINDOW, 600)
                times.append(time.perf_counter() - started)
                kind = reading.reason if reading else "none"
                conn.rollback()
    return times[0], times[1:], kind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=25_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--read-share", type=float, default=0.2)
    parser.add_argument("--hit-every", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    from bench_annotation_latency import populate
    from throwaway import bench_app, throwaway_database
    with throwaway_database("psan_reading") as database:
        app = bench_app(database.url)
        setup = populate(app, {"small": args.small, "large": args.tokens}, 1, args.seed)
        with app.app_context(), db.transaction() as conn:
            for label, pid in setup.projects.items():
                read, marks = prepare(conn, pid, args.read_share, args.hit_every)
                print(f"  {label}: {read:,} sentences read, {marks} hand marks", flush=True)
        results = {}
        for label in ("small", "large"):
            first, warm, kind = time_assign(app, setup.projects[label], args.repeats, args.read_share)
            results[label] = (first, statistics.median(warm))
            print(f"{label} ({setup.tokens[label]:,} tokens): first {1000 * first:.0f} ms, then median "
                  f"{1000 * results[label][1]:.0f} ms (each: {', '.join(f'{1000 * t:.0f}' for t in warm)}); "
                  f"window kind {kind}", flush=True)
    ratio = results["large"][1] / results["small"][1]
    sizes = setup.tokens["large"] / setup.tokens["small"]
    ok = ratio <= sizes and results["large"][1] < ABSOLUTE_TARGET_S
    print(f"large / small, next reading window: {ratio:.2f}× for {sizes:.1f}× the tokens (target ≤ {sizes:.1f}×), "
          f"large {1000 * results['large'][1]:.0f} ms (target < {1000 * ABSOLUTE_TARGET_S:.0f} ms); first of the "
          f"process {results['large'][0] / results['small'][0]:.2f}×: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
