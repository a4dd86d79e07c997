"""Benchmark: the first annotation window of a fresh process on a 10^6-token document against a warm one.

Run: ``.venv/bin/python bench/bench_cold_window.py [--tokens 1000000] [--processes 3] [--warm 5] [--profile]
[--base-tree DIR]``

Why: every uWSGI process keeps the document's text, token offsets and token index in a per-process
cache (:mod:`psan.store.corpus.document_text`); the first request of each process on a large document
pays for loading them.  Under 20 annotators every process restart (deploy, ``max-requests``) puts that
cost in front of an annotator.

Set-up (not timed): a throw-away database with ``bench_annotation_latency``'s synthetic document of
``--tokens`` tokens (pre-annotated, NE-type rules suspicious) and one annotator.  Then ``--processes``
times, a new Python process (imports, app and login untimed) times its first ``GET /annotate/api/window``
(cold: nothing of the document cached; until its JSON is read), closes the response (what the WSGI server
does once the answer is sent: psan caches the whole document then; timed apart) and times ``--warm`` more
of the same window (warm: median), then the
CPU time of building the document's word index (the rule search's, built on a process's first word-type
decision) vectorised and with the per-token generator it replaced, in the same process.  Printed:
cold and warm times per process, the index times and their ratio, the median cold time, the cold/warm ratio
and PASS/FAIL against the targets (cold < 1 s, cold/warm ≤ 3); with ``--profile`` the cProfile of the last
process's cold request, its statements and those of one more warm request.  The login before the cold request
is timed too: it opens the process's connection (which prepares the statements of
:func:`psan.runtime.sql.warm_on_open`).  With ``--base-tree`` another checkout's processes (its psan, this
measurement code) alternate with this tree's on the same database, so a loaded machine shows in both.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess  # nosec B404 - runs this benchmark's own child
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

COLD_TARGET_S = 1.0
RATIO_TARGET = 3.0


def _app(url: str, secret: str):  # noqa: ANN202 - a Flask app
    from psan import create_app
    queue = f"psan-cold-{os.getpid()}"
    return create_app({"PSAN_CONFIG": "testing", "SECRET_KEY": secret, "DATABASE_URL": url,
                       "REDIS_URL": os.environ.get("PSAN_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"),
                       "CELERY_QUEUE": queue, "REDIS_KEY_PREFIX": queue, "RATELIMIT_KEY_PREFIX": queue,
                       "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False})


def child(url: str, email: str, warm: int, profile: bool) -> None:
    """One fresh process: log in (untimed), then the cold window and ``warm`` warm ones; JSON on stdout.

    The app's secret and the account's password come in the environment (``bench_annotation_latency``, which
    defines them, imports this checkout's psan, and the child may run another's)."""
    secret, password = os.environ["PSAN_COLD_SECRET"], os.environ["PSAN_COLD_PASSWORD"]
    app = _app(url, secret)
    client = app.test_client()
    started = time.perf_counter()
    response = client.post("/auth/login", data={"email": email, "password": password})
    login = time.perf_counter() - started
    if response.status_code not in (200, 302):
        raise SystemExit(f"login failed: {response.status_code}")
    prof = cProfile.Profile() if profile else None
    statements = _timed_statements()  # always: the cold and one warm request's SQL time are printed
    started = time.perf_counter()
    if prof:
        prof.enable()
    response = client.get("/annotate/api/window")
    if prof:
        prof.disable()
    cold_statements = list(statements)
    body = response.get_json()
    cold = time.perf_counter() - started
    if response.status_code != 200 or not body or not body.get("tokens"):
        raise SystemExit(f"window failed: {response.status_code} {response.get_data(as_text=True)[:300]}")
    # what a WSGI server does once the answer is sent (uWSGI: in the same worker thread, the client has it)
    started = time.perf_counter()
    response.close()
    after = time.perf_counter() - started
    warm_times = []
    for _ in range(warm):
        started = time.perf_counter()
        response = client.get("/annotate/api/window")
        warm_times.append(time.perf_counter() - started)
        again = response.get_json()
        if response.status_code != 200 or again["range"] != body["range"] or again["tokens"] != body["tokens"]:
            raise SystemExit("the warm request did not show the same window")
    out = {"cold": cold, "warm": warm_times, "tokens": len(body["tokens"]), "after": after, "login": login,
           "index": _index_times(), "connect": _connect_times(url)}
    # one more warm request, its statements beside the cold one's
    del statements[:]
    started = time.perf_counter()
    client.get("/annotate/api/window").close()
    warm_ms = (time.perf_counter() - started) * 1000
    warm_statements = list(statements)
    out["sql"] = {"cold": sum(ms for ms, _ in cold_statements), "warm": sum(ms for ms, _ in warm_statements),
                  "cold_n": len(cold_statements), "warm_n": len(warm_statements)}
    if prof:
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(15)
        text.write("the cold request's statements (ms, text):\n" + "".join(
            f"  {ms:6.1f}  {sql}\n" for ms, sql in cold_statements))
        text.write(f"a warm request's statements ({warm_ms:.1f} ms in all):\n" + "".join(
            f"  {ms:6.1f}  {sql}\n" for ms, sql in warm_statements))
        out["profile"] = text.getvalue()
    print(json.dumps(out))


def _timed_statements() -> list:
    """(milliseconds, statement) of every statement this process runs from now on (``--profile``)."""
    from psan.runtime import sql as store_sql
    runner = store_sql._execute  # noqa: SLF001 - the bench's own instrument
    seen: list = []

    def execute(conn, cur, query, params=None, lead=""):  # noqa: ANN001, ANN202
        started = time.perf_counter()
        try:
            return runner(conn, cur, query, params, lead)
        finally:
            text = query.sql if isinstance(query, store_sql.Statement) else str(query)
            seen.append(((time.perf_counter() - started) * 1000, " ".join(text.split())[:110]))

    store_sql._execute = execute  # noqa: SLF001
    return seen


def _connect_times(url: str) -> dict[str, float]:
    """Seconds to open a connection as the pool does, and to warm it up (where the tree has a warm-up)."""
    import psycopg2

    from psan.runtime import db
    from psan.runtime import sql as store_sql
    started = time.perf_counter()
    conn = psycopg2.connect(url, connection_factory=db.TrackedConnection)
    times = {"open": time.perf_counter() - started}
    warm_up = getattr(store_sql, "warm_up", None)
    if warm_up is not None:
        started = time.perf_counter()
        warm_up(conn)
        times["warm_up"] = time.perf_counter() - started
    conn.close()
    return times


def _index_times() -> dict[str, float]:
    """Seconds to build the word index of the cached document: vectorised, and the generator it replaced."""
    import numpy as np

    from psan.store.corpus import document_text
    doc = next(iter(document_text._cache.values()))  # noqa: SLF001 - the document the window loaded
    times = {}
    for fold in (False, True):
        started = time.process_time()
        hashes = document_text.word_hashes(doc.text, doc.starts, doc.ends, fold)
        np.argsort(hashes, kind="stable")
        times[f"vectorised fold={fold}"] = time.process_time() - started
        started = time.process_time()
        words = (doc.text[a:b] for a, b in zip(doc.starts.tolist(), doc.ends.tolist(), strict=True))
        old = np.fromiter((hash(w.casefold() if fold else w) for w in words), dtype=np.int64, count=doc.token_count)
        np.argsort(old, kind="stable")
        times[f"generator fold={fold}"] = time.process_time() - started
    return times


def _run_child(tree: Path, url: str, email: str, warm: int, profile: bool) -> dict:
    """One fresh process running ``tree``'s psan (this benchmark's own measurement code)."""
    cmd = [sys.executable, __file__, "--child", url, email, "--warm", str(warm), "--tree", str(tree)]
    if profile:
        cmd.append("--profile")
    from bench_annotation_latency import PASSWORD, SECRET
    env = dict(os.environ, PSAN_COLD_SECRET=SECRET, PSAN_COLD_PASSWORD=PASSWORD)
    result = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=tree, env=env)  # nosec B603
    if result.returncode:
        raise SystemExit(f"child failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def _report(name: str, i: int, out: dict) -> float:
    """Print one process's figures; its cold/warm ratio."""
    warm = statistics.median(out["warm"])
    print(f"{name} process {i + 1}: cold {1000 * out['cold']:.0f} ms, warm median {1000 * warm:.1f} ms "
          f"({out['tokens']} tokens in the window), ratio {out['cold'] / warm:.2f}; login before it (opens the "
          f"connection) {1000 * out['login']:.0f} ms; after the cold response (closing it: the server's work once "
          f"the answer is sent) {1000 * out['after']:.0f} ms", flush=True)
    sql = out["sql"]
    print(f"  SQL (statements of psan.runtime.sql): cold {sql['cold']:.1f} ms in {sql['cold_n']}, one more warm "
          f"request {sql['warm']:.1f} ms in {sql['warm_n']}", flush=True)
    connect = out["connect"]
    print(f"  a new connection: opening it {1000 * connect['open']:.1f} ms" + (
        f", preparing and planning the registered statements {1000 * connect['warm_up']:.1f} ms"
        if "warm_up" in connect else ""), flush=True)
    index = out["index"]
    parts = []
    for f in (False, True):
        new, old = index[f"vectorised fold={f}"], index[f"generator fold={f}"]
        parts.append(f"fold={f}: vectorised {new:.3f} vs generator {old:.3f} ({old / new:.1f}x)")
    print("  word index (CPU s): " + ", ".join(parts), flush=True)
    if "profile" in out:
        print(out["profile"])
    return out["cold"] / warm


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--base-tree", type=Path, help="another checkout, its processes interleaved with this "
                        "tree's on the same database (same schema)")
    parser.add_argument("--child", nargs=2, metavar=("URL", "EMAIL"), help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, default=REPO, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        tree = args.tree.resolve()
        sys.path.insert(0, str(tree))  # that checkout's psan
        import psan
        if not Path(psan.__file__).resolve().is_relative_to(tree):
            raise SystemExit(f"psan imported from {psan.__file__}, not from {tree}")
        child(*args.child, args.warm, args.profile)
        return 0
    from bench_annotation_latency import populate
    from throwaway import throwaway_database
    trees = {"this": REPO} | ({"base": args.base_tree.resolve()} if args.base_tree else {})
    with throwaway_database("psan_cold") as database:
        from bench_annotation_latency import SECRET
        setup = populate(_app(database.url, SECRET), {"large": args.tokens}, 1, args.seed)
        email = setup.accounts["large"][0]
        colds: dict[str, list[float]] = {name: [] for name in trees}
        ratios: dict[str, list[float]] = {name: [] for name in trees}
        for i in range(args.processes):
            order = list(trees) if i % 2 == 0 else list(trees)[::-1]  # neither tree always first
            for name in order:
                out = _run_child(trees[name], database.url, email, args.warm,
                                 args.profile and i == args.processes - 1)
                ratios[name].append(_report(name, i, out))
                colds[name].append(out["cold"])
    for name in trees:
        cold, ratio = statistics.median(colds[name]), statistics.median(ratios[name])
        print(f"{name} ({trees[name]}): cold first window on {setup.tokens['large']:,} tokens: median "
              f"{1000 * cold:.0f} ms (target < {1000 * COLD_TARGET_S:.0f} ms); cold/warm median {ratio:.2f} "
              f"(target ≤ {RATIO_TARGET:g}), per process {', '.join(f'{r:.2f}' for r in ratios[name])}")
    cold, ratio = statistics.median(colds["this"]), statistics.median(ratios["this"])
    ok = cold < COLD_TARGET_S and ratio <= RATIO_TARGET
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
