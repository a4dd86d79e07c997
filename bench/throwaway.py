"""A throw-away PostgreSQL database for one benchmark run: created, migrated, dropped at the end.

Why one helper: every database benchmark needs the same create → migrate → close pools → drop steps
on ``PSAN_BENCH_DATABASE_URL``, and a copy that forgets ``close_pools`` cannot drop its database.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import psycopg2

from psan.runtime import db, migrate

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass(frozen=True)
class Database:
    url: str
    name: str
    server_url: str


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead."""
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


@contextlib.contextmanager
def throwaway_database(prefix: str, keep: bool = False) -> Iterator[Database]:
    """A migrated database ``<prefix>_<pid>``; dropped afterwards unless ``keep`` (then its URL is printed)."""
    server_url = os.environ.get("PSAN_BENCH_DATABASE_URL", DEFAULT_SERVER)
    name = f"{prefix}_{os.getpid()}"
    admin = psycopg2.connect(server_url)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    url = with_database(server_url, name)
    try:
        migrate.upgrade(url)
        yield Database(url, name, server_url)
    finally:
        db.close_pools()
        if keep:
            print(f"kept database {url}")
        else:
            with admin.cursor() as cur:
                cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def bench_app(url: str, **config: object):
    """A psan app in testing mode on the throw-away database ``url`` (Redis db 13, no rate limit), plus ``config``.

    Why one helper: the database benchmarks need the same app settings, and a copy that forgets the
    rate limit measures 429s.
    """
    from psan import create_app
    return create_app({"PSAN_CONFIG": "testing", "SECRET_KEY": "bench-secret-key-0123456789abcdef",
                       "DATABASE_URL": url,
                       "REDIS_URL": os.environ.get("PSAN_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"),
                       "RATELIMIT_ENABLED": False, **config})
