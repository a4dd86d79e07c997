"""Running one statement on a given connection: rows as dicts, or the number of affected rows.

Why here and not in :mod:`psan.db`: ``psan.db`` owns connections and transactions (pool, request
and task scopes); executing statements belongs to the store.  ``psan.db.query`` and ``psan.db.execute`` run
these on the request's connection when no ``conn`` is passed.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg2.extras

Params = Sequence[Any] | dict[str, Any] | None


def rows(conn, sql: str, params: Params = None) -> list[dict[str, Any]]:
    """Run a statement and return all rows as dicts (empty list for statements without rows)."""
    with conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor) as cur:
        cur.execute(sql, params)
        return [dict(row) for row in cur.fetchall()] if cur.description else []


def run(conn, sql: str, params: Params = None) -> int:
    """Run a statement and return the number of affected rows."""
    with conn.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount
