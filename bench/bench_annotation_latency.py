"""Benchmark: latency of opening a window and posting a decision, 20 concurrent annotators, 10^6 tokens.

Run: ``.venv/bin/python bench/bench_annotation_latency.py [--tokens 1000000] [--clients 20] [--iterations 30]``

Issue 4 targets: p95 < 100 ms for opening a window and < 200 ms for posting a decision on a
1,000,000-token document with 20 concurrent annotators.

Set-up (not timed): a throw-away database ``psan_bench_<pid>`` on ``PSAN_BENCH_DATABASE_URL``
(default ``postgresql://postgres@127.0.0.1:5432/postgres``, dropped at the end) and Redis
``PSAN_BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/13``, only this run's queue and keys, deleted
at the end).  Two projects, each with one synthetic document (sentences of 8–20 tokens, about 5 % of
them person names "First Last" drawn from 200 × 3,000 invented names and place names from 300, every
name an entity; NE-type rules at confidence 0 make every entity suspicious), stored by
``save_recognized`` and annotated by ``reannotate_document_now``: the 10,000-token baseline and the
1,000,000-token document.  20 annotator accounts per project (window size 300).

The real app runs in uWSGI (``--processes 4 --threads 4``) on 127.0.0.1, or, without uWSGI, in
werkzeug's threaded server inside this process (then clients and server share one GIL: the numbers are
pessimistic).  No Celery worker runs: the background re-annotation of the *other* documents a decision
schedules stays queued (the decision's own document is updated by the request itself).

Each of the 20 client threads logs in, then loops (``--iterations`` times, at most ``--seconds``):
open a window (``GET /annotate/api/window`` the first time, then ``POST /annotate/api/next``), pick a
random suspicious span of the window and decide it – by token or by word type, PRIVATE or PUBLIC at
random (the word-type and PRIVATE token decisions create rules, applied to the document at once).
Printed: p50/p95/p99 per kind, requests/s, errors, the machine load, PASS/FAIL against the targets.
Only loopback traffic.
"""
from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import psycopg2  # noqa: E402
import redis  # noqa: E402
import requests  # noqa: E402
from throwaway import with_database  # noqa: E402

from psan.runtime import db, migrate  # noqa: E402
from psan.tool.text.document import Category, Document, Entity  # noqa: E402
from psan.tool.text.tokens import tokenize  # noqa: E402

WINDOW_TARGET_MS = 100.0
DECISION_TARGET_MS = 200.0
SECRET = "bench-secret-key-0123456789abcdef"
PASSWORD = "bench password 0123456789"
WORDS = ("the a of and to in was he she it that for on with as by at from his her they this which "
         "report hospital patient doctor street city meeting letter visit court case office").split()
SYLLABLES = "ka re lo mi na to sa vi de ro ja ne bu li po ze".split()


def _name(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def synthetic_document(n_tokens: int, seed: int) -> Document:
    """Sentences of plain words with person and place names; every name is an entity."""
    rng = random.Random(seed)
    firsts = sorted({_name(rng, 2) for _ in range(400)})[:200]
    lasts = sorted({_name(rng, 3) + "ová" * (i % 2) for i in range(4000)})[:3000]
    places = sorted({_name(rng, 2) + "burg" for _ in range(600)})[:300]
    parts: list[str] = []
    entities: list[Entity] = []
    idx = 0
    while idx < n_tokens:
        words: list[str] = []
        for _ in range(rng.randint(8, 20)):
            r = rng.random()
            if r < 0.03:
                words += [rng.choice(firsts), rng.choice(lasts)]
                entities.append(Entity(idx + len(words) - 2, idx + len(words), "PERSON", Category.PERSON, "bench"))
            elif r < 0.05:
                words.append(rng.choice(places))
                entities.append(Entity(idx + len(words) - 1, idx + len(words), "GPE", Category.LOCATION, "bench"))
            else:
                words.append(rng.choice(WORDS))
        words[0] = words[0].capitalize()
        parts.append(" ".join(words) + ".")
        idx += len(words) + 1
    text = " ".join(parts)
    tokens, sentences = tokenize(text, "en")
    assert len(tokens) == idx, (len(tokens), idx)  # nosec B101 - entity indexes rely on it
    return Document(text, tokens, sentences, entities, "en")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Setup:
    projects: dict[str, int] = field(default_factory=dict)
    accounts: dict[str, list[str]] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)


def populate(app, sizes: dict[str, int], clients: int, seed: int) -> Setup:
    """Projects, documents (full pre-annotation) and accounts; not timed."""
    from psan.identity import accounts
    from psan.store.admin.rules import ensure_ne_type_rules
    from psan.store.corpus.documents import create_document, save_recognized
    from psan.store.corpus.reannotate import reannotate_document_now
    setup = Setup()
    with app.app_context():
        with db.transaction() as conn:
            template = accounts.create("template@bench.invalid", "template", accounts.Role.USER, PASSWORD, 300, conn)
            hash_ = db.query_one("SELECT password_hash FROM account WHERE id = %s", (template.id,), conn)
        for label, n_tokens in sizes.items():
            started = time.perf_counter()
            doc = synthetic_document(n_tokens, seed)
            with db.transaction() as conn:
                project = db.query_one("INSERT INTO project (name, language) VALUES (%s, 'en') RETURNING id",
                                       (f"bench {label}",), conn)["id"]
                document = create_document(conn, project, f"{label}.txt", "en", doc.text, None)
                save_recognized(conn, document, doc, "<submission/>")
                ensure_ne_type_rules(conn, project, {e.type for e in doc.entities})
            with db.transaction() as conn:
                result = reannotate_document_now(conn, document, doc=doc)
            emails = [f"annotator{i}-{label}@bench.invalid" for i in range(clients)]
            with db.transaction() as conn:
                for email in emails:
                    row = db.query_one("INSERT INTO account (email, name, password_hash, role, window_size) "
                                       "VALUES (%s, %s, %s, 'USER', 300) RETURNING id",
                                       (email, email.split("@")[0], hash_["password_hash"]), conn)
                    db.execute("INSERT INTO project_member (project_id, account_id) VALUES (%s, %s)",
                               (project, row["id"]), conn)
            setup.projects[label], setup.accounts[label], setup.tokens[label] = project, emails, len(doc.tokens)
            print(f"  {label}: {len(doc.tokens):,} tokens, {len(doc.entities):,} entities, "
                  f"{result.matches if result else 0:,} annotations, status {result.status if result else '?'} "
                  f"(set-up {time.perf_counter() - started:.1f} s, not timed)", flush=True)
        with db.transaction() as conn:
            conn.autocommit = True
            db.execute("VACUUM ANALYZE", None, conn)
            conn.autocommit = False
    return setup


# --- server --------------------------------------------------------------------------------------------------
class Server:
    """uWSGI in a subprocess (preferred) or werkzeug's threaded server in a thread."""

    def __init__(self, env: dict[str, str], app_config: dict[str, Any]) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.thread: threading.Thread | None = None
        self._werkzeug = None
        uwsgi = shutil.which("uwsgi", path=str(Path(sys.executable).parent)) or shutil.which("uwsgi")
        if uwsgi:
            self.kind = "uWSGI --http-socket, 4 processes x 4 threads"
            self.log = open(REPO / "bench" / "out" / f"uwsgi-{os.getpid()}.log", "w")  # noqa: SIM115
            self.proc = subprocess.Popen(  # nosec B603 - fixed argument list, loopback only
                [uwsgi, "--http-socket", f"127.0.0.1:{self.port}", "--module", "psan.wsgi:app", "--master",
                 "--processes", os.environ.get("PSAN_BENCH_PROCESSES", "4"),
                 "--threads", os.environ.get("PSAN_BENCH_THREADS", "4"), "--lazy-apps", "--need-app", "--die-on-term",
                 "--buffer-size", "32768", "--post-buffering", "65536", "--disable-logging", "--log-5xx", "--log-4xx",
                 # --http-socket closes every connection; say so, or clients reuse a closed socket (RST)
                 "--add-header", "Connection: close"],
                cwd=REPO, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        else:
            from werkzeug.serving import make_server

            from psan import create_app
            self.kind = "werkzeug threaded (fallback: uWSGI not found; server shares the GIL with the clients)"
            self._werkzeug = make_server("127.0.0.1", self.port, create_app(app_config), threaded=True)
            self.thread = threading.Thread(target=self._werkzeug.serve_forever, daemon=True)
            self.thread.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError("uWSGI exited during start-up; see bench/out/uwsgi-*.log")
            try:
                if requests.get(self.url + "/auth/login", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("the server did not answer within 60 s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.log.close()
        if self._werkzeug is not None:
            self._werkzeug.shutdown()


# --- clients ---------------------------------------------------------------------------------------------------
@dataclass
class Stats:
    window: list[float] = field(default_factory=list)
    decision: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    no_window: int = 0
    no_suspicious: int = 0
    #: latencies of the untimed warm-up iterations (first requests of each server process: cold caches)
    warmup: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def login(base: str, email: str) -> requests.Session:
    session = requests.Session()
    session.headers["Connection"] = "close"  # uWSGI's --http-socket does not keep connections alive
    html = session.get(base + "/auth/login", timeout=30).text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html) or \
        re.search(r'name="csrf_token" value="([^"]+)"', html)
    response = session.post(base + "/auth/login", data={"email": email, "password": PASSWORD,
                                                        "csrf_token": token.group(1) if token else ""},
                            allow_redirects=False, timeout=30)
    if response.status_code != 302:
        raise RuntimeError(f"login of {email} failed: {response.status_code}")
    meta = re.search(r'<meta name="csrf-token" content="([^"]+)"', session.get(base + "/annotate/", timeout=30).text)
    if not meta:
        raise RuntimeError("no csrf-token meta on /annotate/")
    session.headers["X-CSRFToken"] = meta.group(1)
    return session


def client(base: str, session: requests.Session, iterations: int, deadline: float, seed: int, stats: Stats,
           start: threading.Barrier, think: float = 0.0, warmup: int = 0,
           timed: threading.Barrier | None = None) -> None:
    """``warmup`` untimed iterations, then (after every client has warmed up: ``timed``) the timed ones.

    Why wait for the others: a cold server process loads a 10^6-token document's text for seconds of
    CPU; timed requests running beside those loads would measure the warm-up, not the steady state.
    """
    rng = random.Random(seed)
    start.wait()
    for i in range(warmup):
        warm = Stats()
        _iteration(base, session, i, rng, warm, think)
        with stats.lock:
            stats.warmup += warm.window + warm.decision
            stats.errors += warm.errors
    if timed is not None:
        timed.wait()
    for i in range(warmup, warmup + iterations):
        if time.monotonic() > deadline:
            return
        if not _iteration(base, session, i, rng, stats, think):
            return


@dataclass
class Answer:
    status_code: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


#: what a failed request raises (connection refused or reset, a broken answer)
TRANSPORT_ERRORS = (OSError, http.client.HTTPException)


def _call(base: str, session: requests.Session, method: str, path: str, payload: Any = None) -> Answer:
    """One request with the session's cookies and CSRF header, through ``http.client``.

    Why not ``requests`` here: the clients share this 2-core machine with the server, and
    ``requests`` spent ~1.2 ms of CPU per request (a seventh of the whole machine's work per
    request); a browser's work happens on the annotator's own machine.
    """
    url = urlsplit(base)
    headers = {"Cookie": "; ".join(f"{c.name}={c.value}" for c in session.cookies),
               "X-CSRFToken": session.headers.get("X-CSRFToken", ""), "Connection": "close"}
    body = None
    if payload is not None:
        body = json.dumps(payload)
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, response.read().decode())
    finally:
        connection.close()


def _iteration(base: str, session: requests.Session, i: int, rng: random.Random, stats: Stats,
               think: float) -> bool:
    """One window + one decision; ``False`` when no window is left."""
    if think and i:
        time.sleep(rng.uniform(0.5 * think, 1.5 * think))
    t0 = time.perf_counter()
    try:
        if i == 0:
            response = _call(base, session, "GET", "/annotate/api/window")
        else:
            response = _call(base, session, "POST", "/annotate/api/next", {})
    except TRANSPORT_ERRORS as exc:
        with stats.lock:
            stats.errors.append(f"window: {exc.__class__.__name__}")
        return True
    elapsed = (time.perf_counter() - t0) * 1000
    with stats.lock:
        stats.window.append(elapsed)
        if response.status_code != 200:
            stats.errors.append(f"window: HTTP {response.status_code} {response.text[:120]}")
            return True
    data = response.json()
    if not data.get("window"):
        with stats.lock:
            stats.no_window += 1
        return False
    suspicious = [a for a in data["annotations"] if a["decision"] == "SUSPICIOUS"]
    if not suspicious:
        with stats.lock:
            stats.no_suspicious += 1
        return True
    span = rng.choice(suspicious)
    if think:
        time.sleep(rng.uniform(0.5 * think, 1.5 * think))  # reading the window
    payload = {"document_id": data["window"]["document_id"], "first_token": span["first_token"],
               "end_token": span["end_token"], "decision": rng.choice(["PRIVATE", "PRIVATE", "PUBLIC"]),
               "scope": rng.choice(["token", "word_type"])}
    t0 = time.perf_counter()
    try:
        response = _call(base, session, "POST", "/annotate/api/decide", payload)
    except TRANSPORT_ERRORS as exc:
        with stats.lock:
            stats.errors.append(f"decision: {exc.__class__.__name__}")
        return True
    elapsed = (time.perf_counter() - t0) * 1000
    with stats.lock:
        stats.decision.append(elapsed)
        if response.status_code != 200:
            stats.errors.append(f"decision: HTTP {response.status_code} {response.text[:120]}")
    return True


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


class CpuMeter:
    """CPU seconds spent by the clients (this process), the web server and PostgreSQL during a phase.

    Why: with 20 closed-loop clients on a 2-core machine the latencies follow from the throughput
    (Little's law), and the throughput from the CPU each request costs; this says whose CPU it is.
    """

    def __init__(self, server_pid: int | None, database: str | None) -> None:
        self.server_pid, self.database = server_pid, database

    def _pids(self) -> dict[str, list[int]]:
        import psutil
        server: list[int] = []
        if self.server_pid is not None:
            with contextlib.suppress(psutil.Error):
                root = psutil.Process(self.server_pid)
                server = [root.pid, *(c.pid for c in root.children(recursive=True))]
        backends = []
        if self.database:
            for proc in psutil.process_iter(["name", "cmdline"]):
                cmd = " ".join(proc.info["cmdline"] or [])
                if proc.info["name"] == "postgres" and f" {self.database} " in f" {cmd} ":
                    backends.append(proc.pid)
        return {"server": server, "postgres": backends}

    def read(self) -> dict[str, float]:
        import psutil
        out = {"clients": time.process_time(), "server": 0.0, "postgres": 0.0}
        for kind, pids in self._pids().items():
            for pid in pids:
                with contextlib.suppress(psutil.Error):
                    t = psutil.Process(pid).cpu_times()
                    out[kind] += t.user + t.system
        return out


def run_phase(base: str, emails: list[str], iterations: int, seconds: float, seed: int,
              think: float = 0.0, warmup: int = 0, meter: CpuMeter | None = None) -> dict[str, Any]:
    sessions = [login(base, e) for e in emails]
    stats = Stats()
    barrier = threading.Barrier(len(sessions) + 1)
    timed = threading.Barrier(len(sessions) + 1)
    deadline = time.monotonic() + seconds + 5  # the clients' own stop
    threads = [threading.Thread(target=client, args=(base, s, iterations, deadline, seed * 1000 + i, stats, barrier,
                                                     think, warmup, timed))
               for i, s in enumerate(sessions)]
    for t in threads:
        t.start()
    barrier.wait()
    timed.wait()  # every client has warmed up: the timed part starts now
    load_before = os.getloadavg()
    cpu_before = meter.read() if meter else {}
    started = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    cpu = {k: v - cpu_before[k] for k, v in meter.read().items()} if meter else {}
    requests_done = len(stats.window) + len(stats.decision)
    return {"stats": stats, "wall": wall, "rps": requests_done / wall if wall else 0.0,
            "load_before": load_before, "load_after": os.getloadavg(), "cpu": cpu, "requests": requests_done}


def report(label: str, tokens: int, result: dict[str, Any]) -> dict[str, float]:
    s: Stats = result["stats"]
    out = {}
    print(f"\n{label}: {tokens:,}-token document, {len(s.window)} window + {len(s.decision)} decision requests "
          f"in {result['wall']:.1f} s = {result['rps']:.1f} requests/s; errors: {len(s.errors)}; "
          f"windows without suspicious span: {s.no_suspicious}; no window left: {s.no_window}")
    print(f"  load average before {result['load_before'][0]:.2f}, after {result['load_after'][0]:.2f} "
          f"(1 min; {os.cpu_count()} CPUs)")
    if result.get("cpu") and result["requests"]:
        cpu, n = result["cpu"], result["requests"]
        print(f"  CPU {sum(cpu.values()):.1f} s of {result['wall'] * (os.cpu_count() or 1):.1f} s available; per "
              "request: " + ", ".join(f"{k} {1000 * v / n:.1f} ms" for k, v in cpu.items()))
    for kind, values in (("window", s.window), ("decision", s.decision)):
        p50, p95, p99 = (percentile(values, p) for p in (50, 95, 99))
        out[kind] = p95
        mean = statistics.fmean(values) if values else float("nan")
        print(f"  {kind:9s} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   p99 {p99:7.1f} ms   mean {mean:7.1f} ms   "
              f"max {max(values, default=float('nan')):7.1f} ms")
    if s.warmup:
        print(f"  warm-up (untimed, first iteration of each client: cold per-process caches): "
              f"{len(s.warmup)} requests, max {max(s.warmup):.1f} ms")
    for err in s.errors[:5]:
        print(f"  error: {err}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--baseline-tokens", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=150.0, help="each phase stops itself after this")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed iterations per client first (server processes load each document's text "
                             "and sentence boundaries once, then serve from memory)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds an annotator reads a window before deciding and before asking for the "
                             "next one (uniform 0.5x-1.5x); 0 = closed loop, every client fires its next request "
                             "at once (a stress test: 20 clients then behave like far more people)")
    args = parser.parse_args()
    server_url = os.environ.get("PSAN_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    redis_url = os.environ.get("PSAN_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
    name = f"psan_bench_{os.getpid()}"
    queue = f"psan-bench-{os.getpid()}"
    (REPO / "bench" / "out").mkdir(parents=True, exist_ok=True)
    admin = psycopg2.connect(server_url)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    url = with_database(server_url, name)
    server: Server | None = None
    try:
        migrate.upgrade(url)
        config = {"PSAN_CONFIG": "testing", "SECRET_KEY": SECRET, "DATABASE_URL": url, "REDIS_URL": redis_url,
                  "CELERY_QUEUE": queue, "REDIS_KEY_PREFIX": queue, "RATELIMIT_KEY_PREFIX": queue,
                  "RATELIMIT_ENABLED": False}
        from psan import create_app
        app = create_app(config)
        print(f"set-up in database {name} (not timed):", flush=True)
        setup = populate(app, {"baseline": args.baseline_tokens, "large": args.tokens}, args.clients, args.seed)
        db.close_pools()
        env = {**os.environ, "PSAN_CONFIG": "testing", "PSAN_SECRET_KEY": SECRET, "PSAN_DATABASE_URL": url,
               "PSAN_REDIS_URL": redis_url, "PSAN_CELERY_QUEUE": queue, "PSAN_REDIS_KEY_PREFIX": queue,
               "PSAN_RATELIMIT_KEY_PREFIX": queue, "PSAN_RATELIMIT_ENABLED": "false", "PSAN_DB_POOL_MAX": "8"}
        server = Server(env, config)
        print(f"server: {server.kind} on {server.url}; {args.clients} concurrent clients, "
              f"{args.iterations} iterations each (at most {args.seconds:.0f} s per phase), think time "
              f"{args.think:.1f} s, {args.warmup} untimed warm-up iteration(s) per client", flush=True)
        p95 = {}
        for label in ("baseline", "large"):
            meter = CpuMeter(server.proc.pid if server.proc else None, name)
            result = run_phase(server.url, setup.accounts[label], args.iterations, args.seconds, args.seed,
                               args.think, args.warmup, meter)
            p95[label] = report(label, setup.tokens[label], result)
            p95[label]["errors"] = len(result["stats"].errors)
        large, base = p95["large"], p95["baseline"]
        print(f"\nratio large/baseline p95: window {large['window'] / base['window']:.2f}x, "
              f"decision {large['decision'] / base['decision']:.2f}x")
        ok_window = large["window"] < WINDOW_TARGET_MS
        ok_decision = large["decision"] < DECISION_TARGET_MS
        ok_errors = large["errors"] == 0 and base["errors"] == 0
        print(f"window   p95 {large['window']:.1f} ms (target < {WINDOW_TARGET_MS:.0f} ms): "
              f"{'PASS' if ok_window else 'FAIL'}")
        print(f"decision p95 {large['decision']:.1f} ms (target < {DECISION_TARGET_MS:.0f} ms): "
              f"{'PASS' if ok_decision else 'FAIL'}")
        print(f"errors {large['errors'] + base['errors']} (target 0): {'PASS' if ok_errors else 'FAIL'}")
        return 0 if ok_window and ok_decision and ok_errors else 1
    finally:
        if server is not None:
            server.stop()
        db.close_pools()
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
        client_ = redis.Redis.from_url(redis_url)
        for key in [queue, *client_.scan_iter(f"*{queue}*")]:
            client_.delete(key)


if __name__ == "__main__":
    raise SystemExit(main())
