"""The connection pool under concurrency: no leaks, failed requests roll back."""
from concurrent.futures import ThreadPoolExecutor

from psan.runtime import db
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
