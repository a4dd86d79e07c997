"""The connection pool under concurrency: no leaks, failed requests roll back."""
from concurrent.futures import ThreadPoolExecutor

import psycopg2

from psan.runtime import db
from psan.runtime import sql as store_sql
from tests.services import app_config


def test_concurrent_requests_do_not_leak_connections(clean_app):
    client_factory = clean_app.test_client

    def hit(_):
        return client_factory().get("/health").status_code

    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = list(pool.map(hit, range(200)))
    assert codes == [200] * 200
    pool = db.app_pool(clean_app)
    assert len(pool._used) == 0  # every connection went back to the pool
    assert len(pool._pool) <= clean_app.config["DB_POOL_MAX"]


def test_error_response_rolls_back(clean_app, database_url, redis_url):
    from flask import abort

    from psan import create_app
    from psan.web.access import public

    app = create_app(app_config(database_url, redis_url))

    @app.route("/_test_rollback")
    @public
    def _rollback():
        db.execute("INSERT INTO instance_setting (key, value) VALUES ('rollback-test', 'x')")
        abort(409)

    assert app.test_client().get("/_test_rollback").status_code == 409
    with app.app_context(), db.transaction() as conn:
        assert db.query_one("SELECT 1 FROM instance_setting WHERE key = 'rollback-test'", None, conn) is None


def test_deferred_statements_run_first_and_the_commit_is_sent_when_the_block_ends(clean_app):
    with clean_app.app_context(), db.transaction() as conn:
        conn.autocommit = True  # a lean request's connection
        with db.write_transaction(conn):
            db.defer("INSERT INTO instance_setting (key, value) VALUES ('deferred-a', %s)", ("50%",), conn)
            assert conn.pending  # nothing sent yet (BEGIN and the insert wait for the next statement)
            row = db.query_one("SELECT value FROM instance_setting WHERE key = %s", ("deferred-a",), conn)
            assert row == {"value": "50%"}  # the deferred insert ran first, in the same transaction
            db.defer("INSERT INTO instance_setting (key, value) VALUES ('deferred-c', 'x')", None, conn)
        assert not conn.pending  # the last deferred write and the COMMIT went when the block ended
        assert conn.info.transaction_status == 0  # idle: committed, nothing waits for a later statement
        db.defer("INSERT INTO instance_setting (key, value) VALUES ('deferred-b', 'x')", None, conn)
        conn.rollback()  # a statement deferred after the block is dropped by a rollback
        assert not conn.pending
        conn.autocommit = False
        keys = {r["key"] for r in db.query("SELECT key FROM instance_setting WHERE key LIKE 'deferred-%%'",
                                           None, conn)}
    assert keys == {"deferred-a", "deferred-c"}


def test_a_failed_write_transaction_by_text_is_rolled_back(clean_app):
    with clean_app.app_context(), db.transaction() as conn:
        conn.autocommit = True
        try:
            with db.write_transaction(conn):
                db.execute("INSERT INTO instance_setting (key, value) VALUES ('text-tx', 'x')", None, conn)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
        assert conn.info.transaction_status == 0  # idle: the ROLLBACK was sent
        assert db.query_one("SELECT 1 FROM instance_setting WHERE key = 'text-tx'", None, conn) is None


def test_reads_together_give_each_read_its_row(clean_app):
    with clean_app.app_context(), db.transaction() as conn:
        rows = db.read_together(conn, [("SELECT 1 AS a, %(t)s::text AS b", {"t": "x%"}), None,
                                       ("SELECT 2 AS a WHERE false", None),
                                       ("WITH z AS (SELECT 3 AS c) SELECT c, 'y' AS b FROM z", None)])
    assert rows == [{"a": 1, "b": "x%"}, None, None, {"c": 3, "b": "y"}]


def test_a_new_connection_prepares_the_registered_statements(clean_app):
    """The statements a process's first window runs are prepared when its connection opens, and it is left
    idle and in transaction mode as psycopg2 opened it."""
    registered = {sql.name for sql, _ in store_sql.warmed() if isinstance(sql, store_sql.Statement)}
    assert registered  # the window's statements are registered by the store modules
    pool = db.KeepingPool(1, 1, clean_app.config["DATABASE_URL"], connection_factory=db.TrackedConnection)
    try:
        conn = pool.getconn()
        assert not conn.autocommit and conn.info.transaction_status == 0
        prepared = {r["name"] for r in store_sql.rows(conn, "SELECT name FROM pg_prepared_statements")}
        assert registered <= prepared
        conn.rollback()
    finally:
        pool.closeall()


def test_a_statement_that_does_not_fit_the_database_leaves_the_connection_unprepared(clean_app):
    conn = psycopg2.connect(clean_app.config["DATABASE_URL"], connection_factory=db.TrackedConnection)
    try:
        good = store_sql.prepared("SELECT value FROM instance_setting WHERE key = %s")
        bad = store_sql.prepared("SELECT 1 FROM no_such_table WHERE id = %s")
        assert not store_sql.warm_up(conn, [(good, ("x",)), (bad, (0,))])
        assert store_sql.rows(conn, "SELECT name FROM pg_prepared_statements") == []
        conn.rollback()
        assert store_sql.rows(conn, good, ("x",)) == []  # prepared at its first use, as without the warm-up
        conn.rollback()
        assert store_sql.warm_up(conn, [(store_sql.prepared("SELECT key FROM instance_setting WHERE key = %s"),
                                         ("x",))])
    finally:
        conn.close()


def test_open_pool_opens_the_connection_at_start_and_survives_a_missing_database(clean_app, database_url,
                                                                                redis_url):
    from psan import create_app
    assert db.open_pool(clean_app)
    assert db.app_pool(clean_app)._pool  # the first connection is open, before any request
    from psan.runtime.throwaway import with_database
    gone = create_app(app_config(with_database(database_url, "psan_no_such_database"), redis_url))
    # a new app makes its Celery app the default, whose tasks run in that app's context: give it back, or a later
    # test calling a task directly runs it against the missing database
    clean_app.extensions["celery"].set_current()
    clean_app.extensions["celery"].set_default()
    assert not db.open_pool(gone)  # logged; the first request tries again
