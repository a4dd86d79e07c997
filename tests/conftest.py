"""Fixtures for integration tests against real PostgreSQL, Redis and a real Celery worker."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import services
from tests.helpers import Auth, logged_in_client
from tests.services import CELERY_QUEUE, REPO, TEST_SECRET, app_config

SHARED = Path(os.environ.get("PSAN_SHARED_DIR", REPO.parent / "shared"))


#: PSAN_* variables the suite itself reads; every other PSAN_* variable of the user is hidden from tests
SUITE_VARIABLES = ("PSAN_TEST_", "PSAN_SHARED_DIR", "PSAN_CHROMIUM")


def user_variables(environ) -> list[str]:
    """The PSAN_* variables a user may have set (``make run``, a shell profile) that tests must not see."""
    return [key for key in environ if key.startswith("PSAN_") and not key.startswith(SUITE_VARIABLES)]


@pytest.fixture(scope="session", autouse=True)
def isolated_environment(tmp_path_factory) -> Iterator[Path]:
    """Tests never read the user's ``instance/`` folder or ``PSAN_*`` environment (``make run`` writes both).

    The instance folder becomes an empty temporary one; a test that wants a setting sets it itself
    (``monkeypatch.setenv``); child processes started by fixtures inherit the scrubbed environment.
    """
    instance = tmp_path_factory.mktemp("instance")
    with pytest.MonkeyPatch.context() as mp:
        for key in user_variables(os.environ):
            mp.delenv(key)
        mp.setenv("PSAN_INSTANCE_PATH", str(instance))
        yield instance


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"needs the shared models/data folder ({SHARED}); set PSAN_SHARED_DIR to run this test")
    return SHARED


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    with services.postgres_server() as server, services.fresh_database(server) as url:
        from psan.runtime import migrate
        migrate.upgrade(url)
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with services.redis_server() as url:
        yield url


@pytest.fixture(scope="session")
def app(database_url, redis_url):
    from psan import create_app
    return create_app(app_config(database_url, redis_url))


#: the session's Celery worker, once a test asked for it (its delayed tasks must not outlive their test)
SESSION_WORKERS: list[subprocess.Popen] = []


def _revoke_scheduled(app) -> None:
    """Revoke the tasks the session's worker holds for later (a debounced re-annotation's countdown).

    Why: the queue purge cannot reach them; one would run in the next test on its fresh rows (ids restart), e.g.
    apply rules to a document that test left in RECOGNIZED on purpose.
    """
    import contextlib
    control = app.extensions["celery"].control
    with contextlib.suppress(Exception):
        replies = control.inspect(limit=1, timeout=2).scheduled() or {}
        ids = [entry["request"]["id"] for tasks in replies.values() for entry in tasks]
        if ids:
            control.revoke(ids)


def _wait_for_background_work(app, timeout: float = 20) -> None:
    """Let what an earlier test left running in the session's worker finish (queued tasks are dropped).

    Why: a re-annotation or retrain still running would deadlock with the TRUNCATE below, or write
    its rows into the next test's fresh database.
    """
    import contextlib

    from psan.runtime import db
    with contextlib.suppress(Exception):  # no broker: nothing can be queued either
        app.extensions["celery"].control.purge()
    if any(worker.poll() is None for worker in SESSION_WORKERS):
        _revoke_scheduled(app)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with app.app_context(), db.transaction() as conn:
            busy = db.query_one("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() "
                                "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')",
                                None, conn)["n"]
        if not busy:
            return
        time.sleep(0.05)


def reset_database(app) -> None:
    import psycopg2.errors

    from psan.runtime import db
    from psan.store.annotation.suggestions import forget_statistics
    from psan.store.review.risk_review import forget_models
    _wait_for_background_work(app)
    for attempt in range(5):
        try:
            with app.app_context(), db.transaction() as conn:
                db.execute("TRUNCATE account, instance_setting, document, label, rule, annotation, annotation_rule, "
                           "decision_log, annotation_window, project_member, project_model, qa_sample, entity, "
                           "action, action_change, pseudonym_key, rule_change, risk_sample RESTART IDENTITY CASCADE",
                           None, conn)
                db.execute("DELETE FROM project WHERE NOT is_default", None, conn)
                # the default project survives: its workspace settings (migrations 0024-0025) and the admin's
                # sensitive list (0017) take their defaults
                db.execute("UPDATE project SET annotators_choose_document = false, double_share = 0, "
                           "review_mode = 'full', qa_target = 0.005, sensitive_types = '{}' WHERE is_default",
                           None, conn)
            # this process's per-type decision counts are keyed by project id, and ids restart (the default
            # project keeps its id): counts of an earlier test's log-less decisions would outlive it
            forget_statistics()
            forget_models()
            return
        except psycopg2.errors.DeadlockDetected:  # a late background transaction: it wins, we retry
            if attempt == 4:
                raise
            time.sleep(0.2)


@pytest.fixture()
def clean_app(app):
    """The app with an empty database and fresh rate limits (only this session's limit counters)."""
    import redis
    reset_database(app)
    client = redis.Redis.from_url(app.config["REDIS_URL"])
    # only the limiter's counters: the instance prefix also names the queue bindings a running worker needs
    for key in client.scan_iter(f"*LIMITER/{app.config['RATELIMIT_KEY_PREFIX']}/*"):
        client.delete(key)
    # pending-run markers of re-annotations whose queued task reset_database dropped
    for key in client.scan_iter(f"{app.config['REDIS_KEY_PREFIX']}:reannotate:*"):
        client.delete(key)
    return app


@pytest.fixture()
def client(clean_app):
    return clean_app.test_client()


@pytest.fixture()
def auth(client) -> Auth:
    """Log the ``client`` fixture in and out: ``auth.login(email=…, password=…)``, ``auth.logout()``."""
    return Auth(client)


@pytest.fixture()
def admin_client(clean_app):
    return logged_in_client(clean_app, "admin@example.org", "ADMIN")


@pytest.fixture()
def user_client(clean_app):
    return logged_in_client(clean_app, "annotator@example.org", "USER")


@pytest.fixture(scope="session")
def celery_worker(app, database_url, redis_url) -> Iterator[subprocess.Popen]:
    """A real Celery worker process consuming from the test Redis."""
    env = {**os.environ, "PSAN_CONFIG": "testing", "PSAN_SECRET_KEY": TEST_SECRET,
           "PSAN_DATABASE_URL": database_url, "PSAN_REDIS_URL": redis_url, "PSAN_CELERY_QUEUE": CELERY_QUEUE,
           "PSAN_REDIS_KEY_PREFIX": CELERY_QUEUE,
           # no sweeper here: tests insert NEW documents they expect to stay NEW (tests/web/test_faults.py sweeps)
           "PSAN_SWEEP_INTERVAL_SECONDS": "0",
           # webhook receivers of tests listen on 127.0.0.1; retries come fast and end soon
           "PSAN_WEBHOOK_ALLOW_PRIVATE_ADDRESSES": "true", "PSAN_WEBHOOK_RETRY_BASE_SECONDS": "0.2",
           "PSAN_WEBHOOK_MAX_ATTEMPTS": "3"}
    artifacts = REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    log = open(artifacts / f"celery-worker-{os.getpid()}.log", "w")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "psan.celery.worker", "worker", "--pool=solo", "--concurrency=1",
         "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", f"test-{os.getpid()}@%h",
         "-Q", CELERY_QUEUE],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    celery_app = app.extensions["celery"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the Celery worker exited during start-up; see test-artifacts/celery-worker.log")
        if celery_app.control.ping(timeout=0.5):
            break
    else:
        proc.terminate()
        raise RuntimeError("the Celery worker did not answer within 60 s")
    SESSION_WORKERS.append(proc)
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
