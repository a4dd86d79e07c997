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
