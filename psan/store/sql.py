"""Running one statement on a given connection: rows as dicts, or the number of affected rows.

Why here and not in :mod:`psan.db`: ``psan.db`` owns connections and transactions (pool, request
and task scopes); executing statements belongs to the store.  ``psan.db.query`` and ``psan.db.execute`` run
these on the request's connection when no ``conn`` is passed.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
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


def upsert(conn, sql: str, rows: list[tuple[Any, ...]], template: str | None = None) -> tuple[int, int]:
    """Run an ``INSERT … VALUES %s ON CONFLICT … DO UPDATE … RETURNING (xmax = 0) AS inserted`` over
    ``rows`` (in pages); returns (inserted, updated).  Rows the ``DO UPDATE … WHERE`` skipped count as neither.
    """
    if not rows:
        return 0, 0
    with conn.cursor() as cur:
        result = psycopg2.extras.execute_values(cur, sql, rows, template=template, page_size=1000, fetch=True)
    inserted = sum(1 for (new,) in result if new)
    return inserted, len(result) - inserted


def copy_integers(conn, sql: str, params: Params = None) -> np.ndarray:
    """Integer columns of ``COPY (sql) TO STDOUT`` as one flat int64 array, row after row.

    Why: 10^6 token rows as dicts cost seconds; NumPy parses the COPY text ~10x faster than split() + int().
    """
    with conn.cursor() as cur:
        buf = io.StringIO()
        cur.copy_expert(f"COPY ({cur.mogrify(sql, params).decode()}) TO STDOUT", buf)
    return np.fromstring(buf.getvalue(), dtype=np.int64, sep=" ")
