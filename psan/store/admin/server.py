"""The PostgreSQL server itself rather than psan's tables: reachability, version, creating the database."""
from __future__ import annotations

from typing import Any

import psycopg2
from psycopg2 import sql

from psan.runtime import db


def ping(conn) -> None:
    """Raise unless the server answers a trivial query on ``conn``."""
    db.query_one("SELECT 1 AS ok", None, conn)


def server_info(conn) -> dict[str, Any]:
    """``version`` (the server's version string) and ``name`` (the current database)."""
    return db.query_one("SELECT version() AS version, current_database() AS name", None, conn)


def ensure_database(admin_url: str, name: str) -> bool:
    """Create database ``name`` unless it exists (connecting to ``admin_url``); True when created.

    CREATE DATABASE cannot run inside a transaction, hence its own autocommit connection.
    """
    conn = psycopg2.connect(admin_url)
    try:
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
            if cur.fetchone() is not None:
                return False
            cur.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True
    finally:
        conn.close()
