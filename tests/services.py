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
from collections.abc import Iterator
from pathlib import Path

from psan.runtime import throwaway

REPO = Path(__file__).resolve().parent.parent
TEST_SECRET = "test-secret-key-0123456789abcdef"
#: a queue of this test session only, so sessions sharing one Redis never take each other's tasks
CELERY_QUEUE = f"psan-test-{os.getpid()}"


def app_config(database_url: str, redis_url: str, **extra) -> dict:
    """Flask configuration of an app of this test session (its database, Redis, queue and key prefixes)."""
    return {"PSAN_CONFIG": "testing", "SECRET_KEY": TEST_SECRET, "DATABASE_URL": database_url,
            "REDIS_URL": redis_url, "SERVER_URL": "http://localhost", "CELERY_QUEUE": CELERY_QUEUE,
            "RATELIMIT_KEY_PREFIX": CELERY_QUEUE, "REDIS_KEY_PREFIX": CELERY_QUEUE, **extra}


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """URL of a PostgreSQL server's maintenance database (PSAN_TEST_DATABASE_URL, else an embedded one)."""
    with throwaway.postgres_server(os.environ.get("PSAN_TEST_DATABASE_URL")) as url:
        yield url


@contextlib.contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """Create an empty database for this session and drop it afterwards."""
    with throwaway.fresh_database(server_url, "psan_test") as url:
        yield url


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """PSAN_TEST_REDIS_URL (not flushed: other sessions may share it; each has its own queue), else embedded."""
    with throwaway.redis_server(os.environ.get("PSAN_TEST_REDIS_URL")) as url:
        yield url
