"""psan behind its proxy: X-Forwarded-For is trusted only as configured (so it cannot bypass the login rate
limit), Compose trusts exactly its own proxy, and uWSGI announces when it closes a connection.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.helpers import (
    csrf_token,
)
from tests.services import TEST_SECRET


# --- uWSGI announces that it closes the connection ----------------------------------------------------------
def test_uwsgi_announces_connection_close_and_clients_reusing_connections_get_no_reset(database_url,
                                                                                                 redis_url):
    import http.client
    import shutil
    import subprocess
    import sys

    from tests.faults import free_port, service_env, stop_process
    from tests.services import CELERY_QUEUE, REPO
    uwsgi = shutil.which("uwsgi", path=str(Path(sys.executable).parent)) or shutil.which("uwsgi")
    if uwsgi is None:
        pytest.skip("uWSGI is not installed (make install puts it into .venv)")
    port = free_port()
    env = service_env(database_url, redis_url, CELERY_QUEUE, PSAN_BIND=f"127.0.0.1:{port}")
    log = (REPO / "test-artifacts").joinpath("uwsgi-connection-close.log")
    log.parent.mkdir(exist_ok=True)
    proc = subprocess.Popen([uwsgi, "--ini", str(REPO / "uwsgi.ini"), "--processes", "1", "--threads", "2"],  # noqa: S603
                            cwd=REPO, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:  # the app loads lazily in the worker: wait for its first answer
            assert proc.poll() is None, log.read_text()[-2000:]
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                probe.request("GET", "/auth/login")
                if probe.getresponse().status == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, "uWSGI did not answer"
                time.sleep(0.5)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # one client reusing its connection
        failures, announced = [], set()
        for i in range(80):
            method, path = ("GET", "/auth/login") if i % 2 else ("POST", "/auth/login")
            try:
                conn.request(method, path, body=b"email=x&password=y" if method == "POST" else None,
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
                response = conn.getresponse()
                response.read()
                announced.add(response.getheader("Connection"))
                assert response.status < 500, response.status
            except (ConnectionError, http.client.HTTPException) as exc:
                failures.append(repr(exc))
                conn.close()
        assert failures == [], failures[:3]
        assert announced == {"close"}
    finally:
        stop_process(proc)


# --- X-Forwarded-For cannot bypass the login rate limit -----------------------------------------------------
def test_forwarded_for_is_not_trusted_by_default(client, clean_app):
    from flask import Flask

    from psan.runtime.settings import load_config
    production = Flask("psan")
    load_config(production, {"PSAN_CONFIG": "production", "SECRET_KEY": TEST_SECRET, "DATABASE_URL": "postgresql://x"},
                environ={})
    assert production.config["PROXY_FIX_X_FOR"] == 0
    assert clean_app.config["PROXY_FIX_X_FOR"] == 0
    token = csrf_token(client)
    statuses = [client.post("/auth/login", data={"email": "x@example.org", "password": "wrong password",
                                                 "csrf_token": token},
                            headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(12)]
    assert statuses[-1] == 429 and statuses.count(429) == 2, statuses


def test_compose_trusts_exactly_its_proxy():
    from pathlib import Path
    compose = (Path(__file__).resolve().parents[2] / "docker-compose.yaml").read_text()
    assert "PSAN_PROXY_FIX_X_FOR: ${PSAN_PROXY_FIX_X_FOR:-1}" in compose
