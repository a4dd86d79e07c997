"""Running one statement on a given connection: rows as dicts, or the number of affected rows.

Why here, next to :mod:`psan.runtime.db` and not in the store: ``psan.runtime.db`` owns connections and
transactions (pool, request and task scopes) and its ``query``/``execute`` run these on the request's
connection when no ``conn`` is passed; with this module in the store, the pool imported the layer above it.
It knows no table of psan: every statement psan runs is written in :mod:`psan.store`.
"""
from __future__ import annotations

import functools
import hashlib
import io
import re
import threading
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg2.extras

Params = Sequence[Any] | dict[str, Any] | None

#: psycopg2's placeholders: ``%(name)s``, ``%s`` and the escaped ``%%``
_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%s|%%")


class Statement:
    """A statement PostgreSQL parses and plans once per connection (``PREPARE``), then only executes.

    Why: the annotation endpoints run about twenty short statements per request, and parsing and
    planning them cost PostgreSQL as much CPU as executing them (measured with pg_stat_statements
    under 20 annotators).  Written with psycopg2's placeholders like any other statement; run with
    :func:`rows` / :func:`run` (``psan.runtime.db.query`` …) as usual.  Parameter types are inferred by
    PostgreSQL from the statement, so only statements whose every parameter has a type from its
    context (a column, a cast) may be prepared; one statement only (no ``;``).  Needs session-level
    connections (not a transaction-pooling proxy).
    """

    __slots__ = ("sql", "name", "body", "names", "prefix")

    def __init__(self, sql: str, generic: bool = False) -> None:
        self.sql = sql
        #: ``generic``: the generic plan from the first execution, planned once per connection, where the
        #: statement is a transaction of its own (autocommit: ``SET LOCAL plan_cache_mode`` sent with
        #: ``EXECUTE`` ends with it); inside a transaction PostgreSQL chooses (the setting would outlive
        #: the statement and force generic plans on the rest of the transaction)
        self.prefix = "SET LOCAL plan_cache_mode = force_generic_plan; " if generic else ""
        self.name = "psan_" + hashlib.blake2b(sql.encode(), digest_size=8).hexdigest()
        names: list[str | None] = []
        numbers: dict[str, int] = {}

        def dollar(match: re.Match[str]) -> str:
            if match.group(0) == "%%":
                return "%"
            name = match.group(1)
            if name is not None and name in numbers:
                return f"${numbers[name]}"
            names.append(name)
            if name is not None:
                numbers[name] = len(names)
            return f"${len(names)}"

        self.body = _PLACEHOLDER.sub(dollar, sql)
        self.names = names

    def arguments(self, params: Params) -> list[Any]:
        """The parameters in ``$n`` order."""
        if params is None:
            return []
        if isinstance(params, dict):
            return [params[n] for n in self.names]  # type: ignore[index]
        return list(params)


@functools.lru_cache(maxsize=1024)
def prepared(sql: str, generic: bool = False) -> Statement:
    """The :class:`Statement` of a text (made once: call sites may wrap a literal in place)."""
    return Statement(sql, generic)


_prepared: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
_prepared_lock = threading.Lock()


def _execute(conn, cur, sql: str | Statement, params: Params, lead: str = "") -> None:
    """Run ``sql``; ``lead``: statements without parameters sent first, in the same round trip."""
    if not isinstance(sql, Statement):
        cur.execute(lead + sql, params)
        return
    with _prepared_lock:
        names = _prepared.setdefault(conn, set())
    if sql.name not in names:
        cur.execute(f"PREPARE {sql.name} AS {sql.body}")  # not transactional: it outlives a rollback
        names.add(sql.name)
    arguments = sql.arguments(params)
    prefix = lead + sql.prefix if conn.autocommit else lead
    if arguments:
        cur.execute(f"{prefix}EXECUTE {sql.name} ({', '.join(['%s'] * len(arguments))})", arguments)
    else:
        cur.execute(f"{prefix}EXECUTE {sql.name}")


def rows(conn, sql: str | Statement, params: Params = None, lead: str = "") -> list[dict[str, Any]]:
    """Run a statement and return all rows as dicts (empty list for statements without rows).

    ``lead``: statements without parameters (``SET LOCAL …``, a lock) sent before it in the same
    round trip; the rows are those of ``sql``.

    Plain tuples zipped with the column names: a third of the CPU of psycopg2's RealDictCursor,
    whose rows are filled one item at a time (measured: the largest Python cost of a window).
    """
    with conn.cursor() as cur:
        _execute(conn, cur, sql, params, lead)
        if not cur.description:
            return []
        names = [c.name for c in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def run(conn, sql: str | Statement, params: Params = None) -> int:
    """Run a statement and return the number of affected rows."""
    with conn.cursor() as cur:
        _execute(conn, cur, sql, params)
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
