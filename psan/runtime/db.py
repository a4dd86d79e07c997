"""PostgreSQL access: a per-process connection pool and one transaction per request or task.

Why not an ORM: the annotation queries are set-based SQL over large token tables, and psycopg2
with explicit SQL keeps them visible and fast.  Connections come from a ``ThreadedConnectionPool``
created lazily in each process (so uWSGI/Celery forks never share a socket); a request borrows
one connection, commits when the view returns normally and rolls back otherwise.
"""
from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import psycopg2
import psycopg2.pool
from flask import Flask, current_app, g, request

from psan.runtime import sql as store_sql


class KeepingPool(psycopg2.pool.ThreadedConnectionPool):
    """A thread-safe pool that keeps every connection it opened (up to ``maxconn``) for reuse.

    Why: psycopg2's pool closes each connection returned while ``minconn`` others are idle, so
    under concurrent requests nearly every request opened a new PostgreSQL backend (a fork, cold
    catalogue caches: milliseconds of CPU each, measured as the largest server cost of a decision
    under 20 annotators).  Here a connection is kept; the pool holds at most as many as were ever
    in use at once.  A connection it opens prepares the statements the first requests of a process need
    (:func:`psan.runtime.sql.warm_up`), so a process's first annotation window does not plan them.
    """

    def _connect(self, key=None):  # noqa: ANN001, ANN202 - psycopg2's own signature
        """A new connection, with the statements of :func:`psan.runtime.sql.warm_on_open` prepared and planned."""
        conn = super()._connect(key)
        store_sql.warm_up(conn)
        return conn

    def _putconn(self, conn, key=None, close=False):  # noqa: ANN001, ANN202 - psycopg2's own signature
        keep = self.minconn
        self.minconn = self.maxconn  # called under the pool's lock (ThreadedConnectionPool.putconn)
        try:
            return super()._putconn(conn, key, close)
        finally:
            self.minconn = keep


class TrackedConnection(psycopg2.extensions.connection):
    """A connection that knows whether it committed (or tried to) since it was checked out.

    Why: an error after a commit (the workflow commits a decision before refreshing statuses), or a
    COMMIT whose answer was lost with the server, must not be reported as "nothing was saved"
    (:func:`request_may_have_saved`).  Statements in autocommit mode count as committed.

    It also holds the statements deferred to its next round trip (:func:`defer`) and whether a
    transaction it began by text (:func:`write_transaction`) is open.
    """

    committed = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cursor_factory = store_sql.PendingCursor
        #: statements sent ahead of the next one (:func:`defer`)
        self.pending: list[str] = []
        #: a transaction begun by text in autocommit mode is open (:func:`write_transaction`)
        self.in_text_transaction = False

    def commit(self) -> None:
        self.committed = True  # before: a COMMIT that fails on the way may still have been applied
        store_sql.flush(self)  # deferred statements (a deferred COMMIT among them) go now
        super().commit()

    def rollback(self) -> None:
        if "COMMIT" in self.pending:  # a transaction committed already (its COMMIT deferred) stays committed
            last = len(self.pending) - self.pending[::-1].index("COMMIT")
            del self.pending[last:]
            store_sql.flush(self)  # only the pending statements up to the COMMIT
        self.pending.clear()
        super().rollback()
        if self.autocommit and self.info.transaction_status != psycopg2.extensions.TRANSACTION_STATUS_IDLE:
            store_sql.send(self, "ROLLBACK")  # a transaction begun by text: psycopg2 knows nothing of it
        self.in_text_transaction = False


_pools: dict[tuple[int, str], psycopg2.pool.ThreadedConnectionPool] = {}
_pools_lock = threading.Lock()


def _pool(url: str, minconn: int, maxconn: int) -> psycopg2.pool.ThreadedConnectionPool:
    key = (os.getpid(), url)
    pool = _pools.get(key)
    if pool is None:
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = KeepingPool(minconn, maxconn, url, connection_factory=TrackedConnection)
                _pools[key] = pool
    return pool


def app_pool(app: Flask | None = None) -> psycopg2.pool.ThreadedConnectionPool:
    app = app or current_app
    return _pool(app.config["DATABASE_URL"], app.config["DB_POOL_MIN"], app.config["DB_POOL_MAX"])


def open_pool(app: Flask) -> bool:
    """Open the app's pool (and its first connection, prepared: :func:`psan.runtime.sql.warm_up`) now; whether
    it could.

    Why: a uWSGI worker builds its app after the fork (``lazy-apps``); opening its connection then, before any
    request, spares the worker's first request the connection and the statements' first planning.  A database
    not reachable yet is no error here: the first request opens the pool as it always did.
    """
    try:
        app_pool(app)
    except psycopg2.OperationalError:
        app.logger.warning("database not reachable at start: the first request opens the connection")
        return False
    return True


def close_pools() -> None:
    """Close every pool of this process (tests, worker shutdown)."""
    with _pools_lock:
        for key, pool in list(_pools.items()):
            if key[0] == os.getpid():
                pool.closeall()
                del _pools[key]


def _alive(conn: psycopg2.extensions.connection) -> bool:
    """Whether an idle pooled connection still has its server, without a round trip.

    An idle connection has nothing to read; after a server restart or ``pg_terminate_backend`` the
    socket holds the server's goodbye (an error message) or EOF.  ``MSG_PEEK`` leaves it unread.
    """
    if conn.closed:
        return False
    sock = socket.socket(fileno=conn.fileno())
    try:
        sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (BlockingIOError, InterruptedError):
        return True
    except OSError:
        return False
    finally:
        sock.detach()
    return False


def checkout(pool: psycopg2.pool.ThreadedConnectionPool) -> psycopg2.extensions.connection:
    """A live connection from the pool: dead ones (PostgreSQL restarted) are closed and replaced."""
    for _ in range(pool.maxconn + 1):
        conn = pool.getconn()
        if _alive(conn):
            return conn
        pool.putconn(conn, close=True)
    return pool.getconn()


def get_conn() -> psycopg2.extensions.connection:
    """The request's connection; the transaction ends in :func:`_end_request`."""
    if "db_conn" not in g:
        conn = checkout(app_pool())
        conn.autocommit = False
        conn.pending.clear()
        conn.committed = False
        g.db_conn = conn
    return g.db_conn


def request_may_have_saved() -> bool:
    """Whether the request's connection committed anything (or tried to): only if not may an error
    answer say that nothing was saved."""
    conn = g.get("db_conn")
    return bool(getattr(conn, "committed", False))


def autocommit_from_here(conn: psycopg2.extensions.connection | None = None) -> None:
    """Commit now; the rest of the request runs each statement as its own transaction (autocommit).

    Why: every transaction costs two round trips of its own (``BEGIN``, ``COMMIT``) besides its
    statements; a window's answer is a handful of reads that need no common snapshot, and a window
    claim is one statement (:func:`psan.store.annotation.windows.claim_first_free`).  Only for such work: no
    statement after this may depend on another.  The connection goes back to transactions at its
    next checkout (:func:`get_conn`, :func:`transaction`).
    """
    conn = conn or get_conn()
    if conn.autocommit:  # already one statement per transaction (:func:`write_transaction` commits its own)
        return
    conn.commit()
    conn.autocommit = True  # from here every statement commits by itself (``committed`` is set)


def defer(sql: str | store_sql.Statement, params: store_sql.Params = None,
          conn: psycopg2.extensions.connection | None = None) -> None:
    """Send a statement whose answer nobody reads ahead of the connection's next one (same round trip).

    Why: every round trip of a decision is a wake-up of the app thread and of PostgreSQL's backend; a
    lock, a log row or a ``BEGIN`` can ride with the statement after it.  The statement runs before
    that one, in order; an error surfaces there.  Parameters are bound now (the text is final).
    """
    conn = conn or get_conn()
    if not isinstance(getattr(conn, "pending", None), list):  # a plain psycopg2 connection: now
        store_sql.run(conn, sql, params)
        return
    conn.pending.append(store_sql.bind(conn, sql, params))


@contextlib.contextmanager
def write_transaction(conn: psycopg2.extensions.connection) -> Iterator[psycopg2.extensions.connection]:
    """One transaction for the block, committed when it ends normally (rolled back when it raises).

    In autocommit mode (:func:`lean_request`) the transaction is begun and committed by text: ``BEGIN``
    rides with the block's first statement and ``COMMIT`` with the statements still deferred at its end, sent
    when the block ends (one round trip fewer than psycopg2's own ``BEGIN`` and ``commit()``).  The COMMIT is
    not left to ride with a later statement: what follows the block (the answer, the queue) treats the
    transaction as saved, so it must be sent before anything else happens.
    Outside autocommit it is psycopg2's transaction and ``commit()``; a failure is the caller's to roll back.
    """
    if not conn.autocommit:
        yield conn
        conn.commit()
        return
    conn.pending.append("BEGIN")
    conn.in_text_transaction = True
    try:
        yield conn
    except BaseException:
        conn.rollback()
        raise
    conn.pending.append("COMMIT")
    conn.in_text_transaction = False
    conn.committed = True  # before: a COMMIT that fails on the way may still have been applied
    store_sql.flush(conn)


def lean_request(conn: psycopg2.extensions.connection | None = None) -> psycopg2.extensions.connection:
    """The request's connection in autocommit mode: reads are single statements and writes go in
    :func:`write_transaction` (a request made of reads and one write transaction: the decision)."""
    conn = conn or get_conn()
    if not conn.autocommit and conn.status == psycopg2.extensions.STATUS_READY:
        conn.autocommit = True
    return conn


@contextlib.contextmanager
def single_statements(conn: psycopg2.extensions.connection) -> Iterator[None]:
    """Run the block's statements each as its own transaction (no ``BEGIN``/``COMMIT`` round trips).

    Only between transactions (the caller has just committed) and for statements that need no
    common transaction.
    """
    previous = conn.autocommit
    conn.autocommit = True
    conn.committed = True  # each statement of the block commits by itself
    try:
        yield
    finally:
        conn.autocommit = previous


def _commit_response(response):
    """Commit before the response leaves, so a failed commit becomes an error instead of lost data.

    Error responses (status >= 400, including ``abort()`` inside a view) roll back.
    """
    conn = g.get("db_conn")
    if conn is not None and response.status_code < 400 and not g.pop("db_rollback", False):
        try:
            conn.commit()
        except (psycopg2.OperationalError, psycopg2.InterfaceError) as exc:
            # the server went away with the transaction: answer as to any outage (503), not with a 500
            failed = current_app.make_response(current_app.handle_user_exception(exc))
            for key, value in response.headers.items():
                if key.lower() not in ("content-type", "content-length") and key not in failed.headers:
                    failed.headers[key] = value
            return failed
        g.db_committed = True
    return response


def _end_request(exc: BaseException | None) -> None:
    conn = g.pop("db_conn", None)
    if conn is None:
        return
    broken = conn.closed != 0
    try:
        if not g.pop("db_committed", False) and not broken:
            conn.rollback()
    except psycopg2.Error:
        broken = True
    finally:
        app_pool().putconn(conn, close=broken)


def mark_rollback() -> None:
    """Roll the request's transaction back even though the view returns normally (e.g. a form error)."""
    g.db_rollback = True


@contextlib.contextmanager
def transaction(app: Flask | None = None) -> Iterator[psycopg2.extensions.connection]:
    """A connection with one transaction outside a request (CLI, Celery tasks)."""
    pool = app_pool(app)
    conn = checkout(pool)
    conn.autocommit = False
    conn.pending.clear()
    broken = False
    try:
        yield conn
        conn.commit()
    except BaseException:
        with contextlib.suppress(psycopg2.Error):
            conn.rollback()
        broken = conn.closed != 0
        raise
    finally:
        pool.putconn(conn, close=broken)


def query(sql: str | store_sql.Statement, params: store_sql.Params = None,
          conn: psycopg2.extensions.connection | None = None, lead: str = "") -> list[dict[str, Any]]:
    """Rows of a statement as dicts, on ``conn`` or the request's connection (:func:`psan.runtime.sql.rows`)."""
    return store_sql.rows(conn or get_conn(), sql, params, lead)


def query_one(sql: str | store_sql.Statement, params: store_sql.Params = None,
              conn: psycopg2.extensions.connection | None = None, lead: str = "") -> dict[str, Any] | None:
    rows = query(sql, params, conn, lead)
    return rows[0] if rows else None


def execute(sql: str | store_sql.Statement, params: store_sql.Params = None,
            conn: psycopg2.extensions.connection | None = None) -> int:
    """Number of rows a statement affected, on ``conn`` or the request's connection."""
    return store_sql.run(conn or get_conn(), sql, params)


#: the attribute :func:`lean` sets on a view
LEAN_ATTR = "psan_lean"
F = TypeVar("F", bound=Callable)


#: a read of :func:`read_together`: a statement returning at most one row, and its parameters
Read = store_sql.Read


def read_together(conn: psycopg2.extensions.connection, reads: list[Read | None]) -> list[dict[str, Any] | None]:
    """The rows of several one-row reads, in one round trip (:func:`psan.runtime.sql.read_together`)."""
    return store_sql.read_together(conn, reads)


def lean(view: F) -> F:
    """Declare a view made of single-statement reads and write transactions (:func:`write_transaction`):
    its request's connection is in autocommit mode from the first statement on (the login's read included)."""
    setattr(view, LEAN_ATTR, True)
    return view


def _lean_endpoint() -> None:
    """``before_request`` (registered before the login's): a :func:`lean` view's connection starts in autocommit."""
    view = current_app.view_functions.get(request.endpoint or "")
    if getattr(view, LEAN_ATTR, False):
        lean_request()


def init_app(app: Flask) -> None:
    app.before_request(_lean_endpoint)
    app.after_request(_commit_response)
    app.teardown_request(_end_request)
