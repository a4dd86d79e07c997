"""Client request ids of decisions: a retried request is recognized instead of decided twice.

Why: an answer can be lost after the decision was committed (a restart of PostgreSQL or of the
web worker, a dropped connection); the page then retries with the same id.  The id is claimed in
the decision's own transaction, so it exists exactly when the decision was saved.
"""
from __future__ import annotations

from psan.runtime import db

__all__ = ["claim", "seen", "forget_old"]

#: how long an id is remembered (a retry comes within seconds; a day is generous)
KEEP_HOURS = 24


def claim(conn, account_id: int, request_id: str) -> bool:
    """Claim the id in the caller's transaction; ``False``: the same request was saved already.

    A concurrent claim of the same id waits for the other transaction (the primary key), so two
    copies of one request never both decide.
    """
    row = db.query_one("INSERT INTO decision_request (account_id, request_id) VALUES (%s, %s) "
                       "ON CONFLICT DO NOTHING RETURNING 1 AS claimed", (account_id, request_id), conn)
    return row is not None


def seen(conn, account_id: int, request_id: str) -> bool:
    """Whether the request was saved before (a retry of it finds nothing left to do)."""
    return db.query_one("SELECT 1 AS x FROM decision_request WHERE account_id = %s AND request_id = %s",
                        (account_id, request_id), conn) is not None


def forget_old(conn, hours: int = KEEP_HOURS) -> int:
    """Drop ids older than ``hours`` (the sweeper calls it); returns how many."""
    return db.execute("DELETE FROM decision_request WHERE created_at < now() - make_interval(hours => %s)",
                      (hours,), conn)
