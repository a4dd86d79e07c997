"""Benchmark: SQL round trips and commits per annotation decision (counted, not timed).

Run: ``.venv/bin/python bench/bench_decision_round_trips.py [--tokens 100000] [--decisions 60] [--statements]``

Why count: on the 2 shared cores a decision's latency under 20 annotators is dominated by how many times
the request waits for PostgreSQL (each round trip is a wake-up of the backend and of the app thread)
and by its commits (each one a WAL flush); counts do not depend on the machine's load.

Set-up (not timed): a throw-away database with ``bench_annotation_latency``'s synthetic document and one
annotator, logged in through Flask's test client.  The decisions are those of the latency benchmark's
clients: a random suspicious span of the window, by token or by word type, PRIVATE or PUBLIC; a new
window (``POST /annotate/api/next``) after every third decision or when nothing is left to decide.
Round trips are counted by a cursor class that counts ``execute``/``executemany``/``copy_expert`` calls
(several statements sent in one ``execute`` are one round trip) and the ``BEGIN`` psycopg2 sends before a
transaction's first statement, and by ``commit``/``rollback`` of an open transaction on the app's
connections (a statement in autocommit mode is its own transaction, no round trip more).  The first
``--warmup`` decisions (statements prepared on first use per connection) are not counted.  Printed:
round trips and commits per decision (median, max, mean) by kind, against the targets (≤ 8 round trips,
1 commit); with ``--statements`` the statements of the counted decisions.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import psycopg2.extensions  # noqa: E402

from psan.runtime.sql import PendingCursor  # noqa: E402

ROUND_TRIPS_TARGET = 8
COMMITS_TARGET = 1


class Counts:
    """What the app's connections sent while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.round_trips = 0
        self.commits = 0
        self.statements: Counter[str] = Counter()
        #: statements sent ahead of another in its round trip (psan.runtime.db.defer)
        self.deferred: Counter[str] = Counter()
        #: the text of the prepared statement being executed (for the listing)
        self.current: str | None = None

    def add(self, what: str, n: int = 1) -> None:
        if self.on:
            self.round_trips += n
            text = self.current if self.current and "EXECUTE psan_" in str(what) else what
            key = " ".join(str(text).split())[:200 if n else 70] + _caller()
            if n:
                self.statements[key] += n
            else:
                self.deferred[key] += 1


COUNTS = Counts()


def _caller() -> str:
    """`` <- module:function`` of the psan code outside psan.runtime that sent the statement."""
    import traceback
    for frame in reversed(traceback.extract_stack()[:-3]):
        if "/psan/" in frame.filename and "/psan/runtime/" not in frame.filename:
            return f"  <- {frame.filename.rsplit('/psan/', 1)[1]}:{frame.name}"
    return ""


class CountingCursor(PendingCursor):
    """A cursor that counts its round trips in :data:`COUNTS` (the bench only).

    psycopg2 sends ``BEGIN`` as a round trip of its own before the first statement of a transaction
    (not in autocommit mode): counted too.
    """

    def _begin(self) -> None:
        conn = self.connection
        if not conn.autocommit and conn.status == psycopg2.extensions.STATUS_READY:
            COUNTS.add("BEGIN")

    def _deferred(self) -> None:
        """Statements deferred to this round trip (psan.runtime.db.defer): listed, no round trip of their own;
        a ``COMMIT`` among them is a commit."""
        for statement in getattr(self.connection, "pending", ()):
            COUNTS.add("(deferred) " + statement, 0)
            if statement == "COMMIT" and COUNTS.on:
                COUNTS.commits += 1

    def execute(self, query, vars=None):  # noqa: A002, ANN001, ANN201 - psycopg2's own signature
        self._begin()
        self._deferred()
        text = query if isinstance(query, str) else query.decode()
        if text or not getattr(self.connection, "pending", None):
            COUNTS.add(text)
        else:
            COUNTS.add("(the deferred statements alone)")
        return super().execute(query, vars)

    def executemany(self, query, vars_list):  # noqa: ANN001, ANN201
        self._begin()
        self._deferred()
        vars_list = list(vars_list)
        COUNTS.add(query, len(vars_list))
        return super().executemany(query, vars_list)

    def copy_expert(self, sql, file, size=8192):  # noqa: ANN001, ANN201
        self._begin()
        self._deferred()
        COUNTS.add(sql)
        return super().copy_expert(sql, file, size)


def _instrument() -> None:
    """Every connection of the app's pool gets counting cursors; commits and rollbacks are counted."""
    from psan.runtime import db
    base = db.TrackedConnection

    def cursor(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        kwargs.setdefault("cursor_factory", CountingCursor)
        return psycopg2.extensions.connection.cursor(self, *args, **kwargs)

    def commit(self) -> None:  # noqa: ANN001
        if COUNTS.on and not self.autocommit and self.status != psycopg2.extensions.STATUS_READY:
            COUNTS.commits += 1  # psycopg2 sends nothing for a commit outside a transaction
            COUNTS.add("COMMIT")
        base_commit(self)

    def rollback(self) -> None:  # noqa: ANN001
        if not self.autocommit and self.status != psycopg2.extensions.STATUS_READY:
            COUNTS.add("ROLLBACK")
        psycopg2.extensions.connection.rollback(self)

    from psan.runtime import sql as store_sql
    runner = store_sql._execute  # noqa: SLF001 - names the prepared statements in the listing

    def execute(conn, cur, query, params=None, lead=""):  # noqa: ANN001, ANN202
        COUNTS.current = query.sql if isinstance(query, store_sql.Statement) else None
        try:
            return runner(conn, cur, query, params, lead)
        finally:
            COUNTS.current = None

    store_sql._execute = execute  # noqa: SLF001
    base_commit = base.commit
    base.cursor = cursor
    base.commit = commit
    base.rollback = rollback


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=100_000)
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--statements", action="store_true", help="list the counted statements")
    args = parser.parse_args()
    _instrument()
    from bench_annotation_latency import PASSWORD, SECRET, populate
    from bench_cold_window import _app
    from throwaway import throwaway_database
    rng = random.Random(args.seed)
    per_kind: dict[str, list[tuple[int, int]]] = defaultdict(list)
    with throwaway_database("psan_trips") as database:
        app = _app(database.url, SECRET)
        setup = populate(app, {"large": args.tokens}, 1, args.seed)
        client = app.test_client()
        client.post("/auth/login", data={"email": setup.accounts["large"][0], "password": PASSWORD})
        data = client.get("/annotate/api/window").get_json()
        done = 0
        while done < args.warmup + args.decisions:
            suspicious = [a for a in data["annotations"] if a["decision"] == "SUSPICIOUS"]
            if not suspicious:
                data = client.post("/annotate/api/next", json={}).get_json()
                continue
            span = rng.choice(suspicious)
            decision, scope = rng.choice(["PRIVATE", "PRIVATE", "PUBLIC"]), rng.choice(["token", "word_type"])
            payload = {"document_id": data["window"]["document_id"], "first_token": span["first_token"],
                       "end_token": span["end_token"], "decision": decision, "scope": scope}
            counted = done >= args.warmup
            before = (COUNTS.round_trips, COUNTS.commits)
            COUNTS.on = counted
            response = client.post("/annotate/api/decide", json=payload)
            COUNTS.on = False
            if response.status_code != 200:
                raise SystemExit(f"decision failed: {response.status_code} {response.get_data(as_text=True)[:300]}")
            if counted:
                per_kind[f"{scope} {decision}"].append((COUNTS.round_trips - before[0], COUNTS.commits - before[1]))
            done += 1
            data = response.get_json()
            if done % 3 == 0:
                data = client.post("/annotate/api/next", json={}).get_json()
    everything = [x for runs in per_kind.values() for x in runs]
    print(f"{len(everything)} decisions on a {setup.tokens['large']:,}-token document (after {args.warmup} uncounted)")
    for kind, runs in sorted(per_kind.items()):
        trips, commits = [t for t, _ in runs], [c for _, c in runs]
        print(f"  {kind:<18} {len(runs):3d}: round trips median {statistics.median(trips):g}, max {max(trips)}, "
              f"mean {statistics.mean(trips):.1f}; commits median {statistics.median(commits):g}, max {max(commits)}")
    trips, commits = [t for t, _ in everything], [c for _, c in everything]
    if args.statements:
        print("statements (count over the counted decisions):")
        for statement, n in COUNTS.statements.most_common():
            print(f"  {n:5d}  {statement}")
        print("deferred statements (sent ahead of one above, in its round trip):")
        for statement, n in COUNTS.deferred.most_common():
            print(f"  {n:5d}  {statement}")
    ok = max(trips) <= ROUND_TRIPS_TARGET and max(commits) <= COMMITS_TARGET
    print(f"round trips per decision: median {statistics.median(trips):g}, max {max(trips)} "
          f"(target ≤ {ROUND_TRIPS_TARGET}); commits: median {statistics.median(commits):g}, max {max(commits)} "
          f"(target ≤ {COMMITS_TARGET}): {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
