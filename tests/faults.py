"""Private PostgreSQL and Redis servers that fault tests may stop and restart, and app/worker processes.

Why private: the machine's PostgreSQL and Redis serve every other test session; stopping them would
break those.  Each server here runs on a free port in a temporary folder and is removed afterwards.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import requests

from tests.services import CELERY_QUEUE, REPO, TEST_SECRET

PG_BIN = Path(os.environ.get("PSAN_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))
ARTIFACTS = REPO / "test-artifacts"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(cmd: list[str]) -> list[str]:
    """initdb refuses to run as root: run the server's tools as the postgres user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


class PrivatePostgres:
    """A PostgreSQL cluster of this test alone (initdb + pg_ctl on a free port)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60",
                                     "-l", str(self.folder / "postgres.log"), *args]),
                       check=True, capture_output=True)

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        subprocess.run(_as_postgres([str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
                                     "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]),
                       check=True, capture_output=True)
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{self.folder}'\nfsync = off\nmax_connections = 60\n")

    def start(self) -> None:
        self._ctl("-o", f"-p {self.port}", "start")

    def stop(self) -> None:
        self._ctl("-m", "fast", "stop")

    def restart(self) -> None:
        self._ctl("-m", "fast", "restart")


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A started private cluster with psan's schema migrated into its ``postgres`` database."""
    if not (PG_BIN / "initdb").exists():
        import pytest
        pytest.skip(f"needs PostgreSQL server binaries in {PG_BIN} (set PSAN_TEST_PG_BIN)")
    folder = Path(tempfile.mkdtemp(prefix="psan-fault-pg-"))
    server = PrivatePostgres(folder)
    try:
        server.init()
        server.start()
        from psan.runtime import migrate
        migrate.upgrade(server.url)
        yield server
    finally:
        with contextlib.suppress(Exception):
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


class PrivateRedis:
    """A redis-server of this test alone, persisting to an append-only file like the compose service."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        redis_server = shutil.which("redis-server")
        assert redis_server, "redis-server is not installed"
        self.proc = subprocess.Popen([redis_server, "--port", str(self.port), "--bind", "127.0.0.1",  # noqa: S603
                                      "--dir", str(self.folder), "--appendonly", "yes", "--save", ""],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return
            time.sleep(0.05)
        raise AssertionError("the private redis-server did not start")

    def stop(self) -> None:
        """Stop like a crash or a restart does: SIGTERM (the append-only file keeps what was accepted)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        self.proc = None


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    if not shutil.which("redis-server"):
        import pytest
        pytest.skip("needs redis-server on PATH")
    folder = Path(tempfile.mkdtemp(prefix="psan-fault-redis-"))
    server = PrivateRedis(folder)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def service_env(database_url: str, redis_url: str, queue: str, **extra: str) -> dict[str, str]:
    """Environment of an app or worker process of a fault test (its own queue and rate-limit prefix).

    The Redis key prefix is the session's: it also prefixes kombu's broadcast keys, and the tests ping
    these workers through the session app's control channel.
    """
    return {**os.environ, "PSAN_CONFIG": "testing", "PSAN_SECRET_KEY": TEST_SECRET,
            "PSAN_DATABASE_URL": database_url, "PSAN_REDIS_URL": redis_url, "PSAN_CELERY_QUEUE": queue,
            "PSAN_REDIS_KEY_PREFIX": CELERY_QUEUE, "PSAN_RATELIMIT_KEY_PREFIX": queue, **extra}


#: the options run.sh, `make run` and compose start the worker with (gossip and mingle off: psan needs
#: neither, and gossip's restart after a lost Redis connection crashed the worker, kombu issue 582)
WORKER_OPTIONS = ("--without-gossip", "--without-mingle")


def start_worker(env: dict[str, str], queue: str, name: str, pool: str = "solo",
                 options: tuple[str, ...] = WORKER_OPTIONS) -> subprocess.Popen:
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"celery-{name.split('@')[0]}.log", "w")  # noqa: SIM115 - the process writes it
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "psan.celery.worker", "worker", f"--pool={pool}", "--concurrency=1",
         *options, "--loglevel=INFO", "-n", name, "-Q", queue],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def start_web(env: dict[str, str], name: str) -> tuple[subprocess.Popen, str]:
    """The app in a threaded Werkzeug server of its own (own Flask and Celery apps, own limiter)."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = free_port()
    log = open(ARTIFACTS / f"web-{name}.log", "w")  # noqa: SIM115 - the process writes it
    proc = subprocess.Popen([sys.executable, "-m", "flask", "--app", "psan", "run", "--port", str(port),  # noqa: S603
                             "--no-reload", "--no-debugger", "--with-threads"],
                            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the web app exited; see test-artifacts/web-{name}.log"
        with contextlib.suppress(requests.RequestException):
            requests.get(base + "/auth/login", timeout=2)
            return proc, base
        time.sleep(0.2)
    raise AssertionError("the web app did not answer within 60 s")


def stop_process(proc: subprocess.Popen | None, kill: bool = False) -> None:
    """Stop a process started here (its own session: the whole group, children included)."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, 9 if kill else 15)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()


def web_login(base: str, email: str, password: str) -> requests.Session:
    session = requests.Session()
    html = session.get(base + "/auth/login", timeout=10).text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    response = session.post(base + "/auth/login", data={"email": email, "password": password, "csrf_token": token},
                            allow_redirects=False, timeout=10)
    assert response.status_code == 302, response.text[:500]
    return session


def wait_for(predicate, timeout: float, step: float = 0.2, what: str = "condition", describe=None):
    """``predicate()`` once truthy; on time-out ``describe()`` (when given) says what the state was instead."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    state = f"\n{describe()}" if describe is not None else ""
    raise AssertionError(f"{what} not reached within {timeout:.0f} s{state}")


def worker_log_tail(name: str, lines: int = 40) -> str:
    """The last lines of a worker's log (``start_worker`` names it after the node): why a wait timed out."""
    path = ARTIFACTS / f"celery-{name.split('@')[0]}.log"
    if not path.exists():
        return f"(no log at {path})"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def wait_worker_ready(app, proc: subprocess.Popen, name: str, timeout: float = 60) -> str:
    """The worker's full node name once it answers a ping (other sessions' workers are ignored)."""
    control = app.extensions["celery"].control
    prefix = name.split("@")[0] + "@"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the worker {name} exited during start-up"
        for reply in control.ping(timeout=0.5) or []:
            for node in reply:
                if node.startswith(prefix):
                    return node
    raise AssertionError(f"the worker {name} did not answer within {timeout:.0f} s")
