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
import psycopg2.extensions
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
#: statements whose PREPARE went in a round trip that failed (prepared or not: asked on the next use)
_unsure: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


#: statements a new connection prepares and plans at once (:func:`warm_on_open`): name → (statement, example)
_on_open: dict[str, tuple[str | Statement, Params]] = {}


def warm_on_open(sql: str | Statement, example: Params = None) -> str | Statement:
    """Have every new connection prepare ``sql`` (a :class:`Statement`) and plan it once with ``example``
    parameters, in one round trip when it opens (:func:`warm_up`); a plain text is only planned.

    Why: the first use of a statement on a new connection parses it and plans it in a backend whose caches
    hold none of its tables' catalog entries and statistics yet: up to a few milliseconds per statement, paid
    by the first request of a process (its first annotation window took 3-6 times a warm one under load, 2-2.5
    times with its statements warmed when the connection opened: ``bench/bench_cold_window.py``).
    Planning with ``EXPLAIN`` runs nothing, so any statement (an ``UPDATE`` too) can be warmed; ``example``
    should look like real parameters (ids, not ``NULL``: a ``NULL`` comparison is folded away unplanned).
    Returns ``sql``.
    """
    key = sql.name if isinstance(sql, Statement) else sql
    _on_open[key] = (sql, example)
    return sql


def warmed() -> list[tuple[str | Statement, Params]]:
    """The statements (and example parameters) a new connection prepares or plans (:func:`warm_on_open`)."""
    return list(_on_open.values())


def warm_up(conn, statements: Sequence[tuple[str | Statement, Params]] | None = None) -> bool:
    """Prepare and plan ``statements`` (default: those of :func:`warm_on_open`) on a connection just opened, in
    one round trip; whether they were.

    Never raises for a statement that does not fit the database (a schema not yet migrated): the connection
    is then left as it was (nothing prepared) and each statement is prepared at its first use as before.
    """
    statements = warmed() if statements is None else statements
    if not statements:
        return True
    plain: list[str] = []
    generic: list[str] = []
    names: list[str] = []
    with conn.cursor() as cur:
        for sql, example in statements:
            if not isinstance(sql, Statement):
                plain.append(cur.mogrify(f"EXPLAIN {sql}", example).decode())
                continue
            arguments = sql.arguments(example)
            execute = cur.mogrify(f"EXECUTE {sql.name} ({', '.join(['%s'] * len(arguments))})", arguments).decode() \
                if arguments else f"EXECUTE {sql.name}"
            # a generic statement's first EXPLAIN builds the very plan its executions reuse
            (generic if sql.prefix else plain).append(f"PREPARE {sql.name} AS {sql.body}; EXPLAIN {execute}")
            names.append(sql.name)
    text = "; ".join(plain + (["SET LOCAL plan_cache_mode = force_generic_plan", *generic] if generic else []))
    previous = conn.autocommit
    conn.autocommit = True  # one implicit transaction: no BEGIN round trip, nothing left open
    try:
        with conn.cursor() as cur:
            cur.execute(text)
    except psycopg2.Error:
        with conn.cursor() as cur:
            cur.execute("DEALLOCATE ALL")  # the ones before the failing one: a new connection has no other
        return False
    finally:
        conn.autocommit = previous
    with _prepared_lock:
        _prepared.setdefault(conn, set()).update(names)
    return True


def _execute(conn, cur, sql: str | Statement, params: Params, lead: str = "") -> None:
    """Run ``sql``; ``lead``: statements without parameters sent first, in the same round trip."""
    if not isinstance(sql, Statement):
        cur.execute(lead + sql, params)
        return
    with _prepared_lock:
        names = _prepared.setdefault(conn, set())
        unsure = _unsure.setdefault(conn, set())
    arguments = sql.arguments(params)
    if sql.name in unsure:  # an earlier round trip with its PREPARE failed: was it prepared before the error?
        cur.execute("SELECT 1 FROM pg_prepared_statements WHERE name = %s", (sql.name,))
        if cur.fetchone():
            names.add(sql.name)
        unsure.discard(sql.name)
    # the first use on a connection prepares it in the same round trip (PREPARE is not transactional: it
    # outlives a rollback); the body's own % signs are escaped when arguments follow
    prepare = "" if sql.name in names else \
        f"PREPARE {sql.name} AS {sql.body.replace('%', '%%') if arguments else sql.body}; "
    # (not inside a transaction begun by text: the setting would outlive the statement)
    prefix = lead + sql.prefix if conn.autocommit and not getattr(conn, "in_text_transaction", False) else lead
    if lead and arguments:
        prefix = prefix.replace("%", "%%")
    try:
        if arguments:
            cur.execute(f"{prepare}{prefix}EXECUTE {sql.name} ({', '.join(['%s'] * len(arguments))})", arguments)
        else:
            cur.execute(f"{prepare}{prefix}EXECUTE {sql.name}")
    except Exception:
        if prepare:
            unsure.add(sql.name)
        raise
    if prepare:
        names.add(sql.name)


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


class PendingCursor(psycopg2.extensions.cursor):
    """A cursor that sends its connection's deferred statements (:func:`psan.runtime.db.defer`) ahead of its own.

    Why: a decision writes rows whose answer nothing reads (the decision log, the lock, a transaction's
    ``BEGIN``); sent with the next statement, each costs no wake-up of its own.  The deferred statements run
    first and in order; an error in one aborts the round trip (and so the transaction) as it would alone.
    """

    def _take(self) -> str:
        pending = getattr(self.connection, "pending", None)
        if not pending:
            return ""
        text = "".join(statement + "; " for statement in pending)
        pending.clear()
        return text

    def execute(self, query, vars=None):  # noqa: A002, ANN001, ANN201 - psycopg2's own signature
        if getattr(self.connection, "pending", None) and self.name is not None:
            with self.connection.cursor() as plain:  # a named (server-side) cursor only declares its query
                plain.execute("")
        elif getattr(self.connection, "pending", None) and isinstance(query, str | bytes):
            lead = self._take()
            if vars is not None:
                lead = lead.replace("%", "%%")  # the deferred text is final; only the query's placeholders count
            query = lead + (query.decode() if isinstance(query, bytes) else query)
        elif getattr(self.connection, "pending", None):
            self.execute(self._take())
        return super().execute(query, vars)

    def executemany(self, query, vars_list):  # noqa: ANN001, ANN201
        if getattr(self.connection, "pending", None):
            self.execute(self._take())
        return super().executemany(query, vars_list)

    def copy_expert(self, sql, file, size=8192):  # noqa: ANN001, ANN201
        if getattr(self.connection, "pending", None):
            self.execute(self._take())
        return super().copy_expert(sql, file, size)


def flush(conn) -> None:
    """Send the connection's deferred statements now (:class:`PendingCursor`), if any: one round trip."""
    if getattr(conn, "pending", None):
        with conn.cursor() as cur:
            cur.execute("")  # only the deferred statements


def send(conn, text: str) -> None:
    """Run a statement without parameters or rows (``ROLLBACK`` of a transaction begun by text)."""
    with conn.cursor() as cur:
        cur.execute(text)


def bind(conn, sql: str | Statement, params: Params) -> str:
    """The text of a statement with its parameters bound (to be sent later, or inside another)."""
    text = sql.sql if isinstance(sql, Statement) else sql
    if params is None:
        return text
    with conn.cursor() as cur:
        return cur.mogrify(text, params).decode()


#: a read of :func:`read_together`: a statement returning at most one row, and its parameters
Read = tuple[str | Statement, Params]


def read_together(conn, reads: Sequence[Read | None]) -> list[dict[str, Any] | None]:
    """The rows of several one-row reads, in one round trip (``None``: no row, or no read given).

    Why: after a decision several modules each read one row (the status, the learning's new decisions,
    the retraining's count); side by side in one statement they cost one wake-up instead of one each.
    Each statement's parameters are bound into its text; each is a lateral subquery of one ``SELECT`` (its
    first row only), its columns told apart by a marker column.
    """
    live = [(i, r) for i, r in enumerate(reads) if r is not None]
    out: list[dict[str, Any] | None] = [None] * len(reads)
    if not live:
        return out
    texts = [bind(conn, sql, params) for _, (sql, params) in live]
    # the statements are the store's own, their parameters bound above
    columns = ", ".join(f"r{k}.*" for k in range(len(texts)))
    joins = " ".join(f"LEFT JOIN LATERAL (SELECT true AS psan_read_{k}, q.* FROM ({text}) q LIMIT 1) r{k} ON true"  # noqa: S608  # nosec B608
                     for k, text in enumerate(texts))
    with conn.cursor() as cur:
        cur.execute(f"SELECT {columns} FROM (SELECT 1) base {joins}")  # noqa: S608  # nosec B608
        names = [c.name for c in cur.description]
        values = cur.fetchone()
    k = -1
    row: dict[str, Any] = {}
    present = False
    for name, value in zip(names, values, strict=True):
        if name == f"psan_read_{k + 1}":
            if k >= 0:
                out[live[k][0]] = row if present else None
            k, row, present = k + 1, {}, value is not None
        else:
            row[name] = value
    out[live[k][0]] = row if present else None
    return out
