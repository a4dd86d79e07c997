"""Profile decisions on a large document in one process: cProfile plus time per SQL statement.

Run: ``.venv/bin/python bench/profile_decision.py [TOKENS=1000000] [DECISIONS=40]``
(``PSAN_PROF_CPU=1``: no cProfile, CPU of this process and of PostgreSQL's backends per decision;
``PSAN_PROF_TOP=N``: how many statements to list; ``PSAN_PROF_KEEP=1``: keep the database for EXPLAIN;
``PSAN_PROF_NEXT=1``: list the statements of opening the next window instead of the decision's;
``PSAN_PROF_PGLOG=1``: log every statement's server-side duration in PostgreSQL's log.)

Why: ``bench_annotation_latency`` says how slow a decision is under load, not where the time goes.
This builds the same synthetic document (``populate``, untimed) in a throw-away database, logs one
annotator in through Flask's test client and decides random suspicious spans of its windows as the
latency benchmark's clients do; printed: decision latency (one client, no concurrency), the SQL
statements by total time (count, milliseconds) and the cProfile of the decide requests.
"""
import contextlib
import cProfile
import io
import os
import pstats
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import psycopg2  # noqa: E402
from bench_annotation_latency import PASSWORD, SECRET, populate  # noqa: E402
from throwaway import throwaway_database  # noqa: E402

from psan import create_app  # noqa: E402


def _decide_loop(client, n: int, prof: cProfile.Profile, recording: list[bool],
                 window_times: list[float]) -> list[float]:
    """``n`` decisions (a new window every third one or when none is left to decide); their latencies."""
    rng = random.Random(7)
    next_window = bool(os.environ.get("PSAN_PROF_NEXT"))  # list the statements of opening a window instead
    times: list[float] = []
    data = client.get("/annotate/api/window").get_json()
    for i in range(n):
        suspicious = [a for a in data["annotations"] if a["decision"] == "SUSPICIOUS"]
        if not suspicious:
            data = client.post("/annotate/api/next", json={}).get_json()
            continue
        span = rng.choice(suspicious)
        payload = {"document_id": data["window"]["document_id"], "first_token": span["first_token"],
                   "end_token": span["end_token"], "decision": rng.choice(["PRIVATE", "PRIVATE", "PUBLIC"]),
                   "scope": rng.choice(["token", "word_type"])}
        started = time.perf_counter()
        recording[0] = not next_window
        prof.enable()
        response = client.post("/annotate/api/decide", json=payload)
        prof.disable()
        recording[0] = False
        times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(response.get_data(as_text=True)[:300])
        data = response.get_json()
        if i % 3 == 2:
            started = time.perf_counter()
            recording[0] = next_window
            data = client.post("/annotate/api/next", json={}).get_json()
            recording[0] = False
            window_times.append(time.perf_counter() - started)
    return times


class _NoProfile:
    def enable(self) -> None:
        pass

    def disable(self) -> None:
        pass

    def getstats(self) -> list:
        return []


def _backend_cpu(admin, name: str) -> float:
    """CPU seconds (user + system) of the PostgreSQL backends connected to database ``name``."""
    ticks = os.sysconf("SC_CLK_TCK")
    with admin.cursor() as cur:
        cur.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,))
        pids = [r[0] for r in cur.fetchall()]
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _record_sql(recording: list[bool]) -> dict[str, list[float]]:
    """Wrap psan.runtime.sql's statement runner: statement (first 150 chars) -> [count, seconds]."""
    from psan.runtime import sql as store_sql
    stats: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    original = store_sql._execute  # noqa: SLF001 - profiling hook

    def execute(conn, cur, query, params=None, lead=""):  # noqa: ANN001, ANN202 - the runner's own signature
        started = time.perf_counter()
        try:
            return original(conn, cur, query, params, lead)
        finally:
            if recording[0]:
                text = query.sql if isinstance(query, store_sql.Statement) else str(query)
                key = " ".join(text.split())[:150]
                stats[key][0] += 1
                stats[key][1] += time.perf_counter() - started
    store_sql._execute = execute  # noqa: SLF001
    return stats


def main() -> None:
    tokens = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    with throwaway_database("psan_prof", keep=bool(os.environ.get("PSAN_PROF_KEEP"))) as database, \
            contextlib.closing(psycopg2.connect(database.server_url)) as admin:
        admin.autocommit = True
        if os.environ.get("PSAN_PROF_PGLOG"):  # every statement's server-side duration in PostgreSQL's log
            with admin.cursor() as cur:
                cur.execute(f'ALTER DATABASE "{database.name}" SET log_min_duration_statement = 0')
        _profile(database, admin, tokens, n)


def _profile(database, admin, tokens: int, n: int) -> None:  # noqa: ANN001 - throwaway.Database, a connection
    queue = f"psan-prof-{os.getpid()}"
    app = create_app({"PSAN_CONFIG": "testing", "SECRET_KEY": SECRET, "DATABASE_URL": database.url,
                      "REDIS_URL": os.environ.get("PSAN_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"),
                      "CELERY_QUEUE": queue, "REDIS_KEY_PREFIX": queue, "RATELIMIT_KEY_PREFIX": queue,
                      "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False})
    setup = populate(app, {"large": tokens}, 1, 7)
    client = app.test_client()
    client.post("/auth/login", data={"email": setup.accounts["large"][0], "password": PASSWORD})
    prof = cProfile.Profile()
    recording = [False]
    sql = _record_sql(recording)
    window_times: list[float] = []
    if os.environ.get("PSAN_PROF_CPU"):  # no profiler: CPU of this process and of PostgreSQL's backends
        prof = _NoProfile()
    backends = _backend_cpu(admin, database.name)
    cpu = time.process_time()
    times = sorted(_decide_loop(client, n, prof, recording, window_times))
    cpu = time.process_time() - cpu
    pg_cpu = _backend_cpu(admin, database.name) - backends
    print(f"PostgreSQL CPU {1000 * pg_cpu / len(times):.1f} ms per decision (with its share of windows)")
    window_times.sort()
    if window_times:
        print(f"windows {len(window_times)}: median {1000 * window_times[len(window_times) // 2]:.1f} ms, "
              f"max {1000 * window_times[-1]:.1f} ms; client+app CPU {1000 * cpu / len(times):.1f} ms "
              "per decision (incl. profiling)")
    print(f"decisions {len(times)}: median {1000 * times[len(times) // 2]:.1f} ms, "
          f"mean {1000 * sum(times) / len(times):.1f} ms, max {1000 * times[-1]:.1f} ms (one client)")
    print("SQL by total time (count, ms, statement):")
    top = int(os.environ.get("PSAN_PROF_TOP", 25))
    statements = sum(count for count, _ in sql.values())
    print(f"{statements / len(times):.1f} statements per decision (with its share of windows)")
    for statement, (count, seconds) in sorted(sql.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{int(count):5d} {seconds * 1000:8.1f}  {statement}")
    if not isinstance(prof, _NoProfile):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(40)
        print(out.getvalue())


if __name__ == "__main__":
    main()
