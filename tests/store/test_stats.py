"""ANALYZE after bulk loads (psan.store.shared.stats): statistics follow a large load without autovacuum."""
from __future__ import annotations

import time

import pytest

from psan.runtime import db
from psan.store.shared.stats import analyze_after_load, stale_tables
from tests.documents import add_document, plain_sentences
from tests.helpers import sql


def _wait_until_counted(app, table: str, rows: int, timeout: float = 30.0) -> None:
    """Wait until the cumulative statistics show the load: a backend flushes its counts up to seconds after
    its commit, and a count arriving after the ANALYZE would make the fresh statistics look stale again."""
    deadline = time.monotonic() + timeout
    while sql(app, "SELECT coalesce(n_mod_since_analyze, 0) AS n FROM pg_stat_user_tables WHERE relid = %s::regclass",
              (table,))[0]["n"] < rows:
        assert time.monotonic() < deadline, f"the load of {table} never reached the statistics"
        time.sleep(0.2)


def _reltuples(app, table: str) -> float:
    return float(sql(app, "SELECT reltuples FROM pg_class WHERE oid = %s::regclass", (table,))[0]["reltuples"])


def test_large_load_is_analyzed_small_one_is_not(clean_app) -> None:
    app = clean_app
    text = plain_sentences(0, 600)
    document_id = add_document(app, text)
    tokens = sql(app, "SELECT count(*) AS n FROM token WHERE document_id = %s", (document_id,))[0]["n"]
    sentences = sql(app, "SELECT count(*) AS n FROM sentence WHERE document_id = %s", (document_id,))[0]["n"]
    assert tokens > 3000
    _wait_until_counted(app, "token", tokens)
    _wait_until_counted(app, "sentence", sentences)
    with app.app_context(), db.transaction() as conn:
        analyzed = analyze_after_load(conn, {"token": tokens, "sentence": sentences})
    assert set(analyzed) == {"token", "sentence"}
    # the planner now knows about (at least) the rows just loaded
    assert _reltuples(app, "token") >= tokens * 0.9
    assert _reltuples(app, "sentence") >= sentences * 0.9
    with app.app_context(), db.transaction() as conn:
        # a load far below autovacuum's threshold (50 rows + 10 %) leaves the fresh statistics alone
        assert stale_tables(conn, {"token": 10}) == []
        assert analyze_after_load(conn, {"token": 10}) == []


def test_only_bulk_tables_are_accepted(clean_app) -> None:
    with clean_app.app_context(), db.transaction() as conn:
        with pytest.raises(ValueError, match="not a bulk-loaded table"):
            stale_tables(conn, {"account; DROP TABLE token": 1})
