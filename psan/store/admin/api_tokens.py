"""SQL for personal API tokens and their use log.

The rules (how a secret is made and hashed, which scope an account may hold, what a scope may call) live in
:mod:`psan.identity.api_tokens` and :mod:`psan.web.api_auth`; these functions only read and write rows.
Only the secret's hash is ever stored or read back.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from psan.runtime import db
from psan.runtime.sql import prepared

#: the columns a token is read with (never the hash)
_COLUMNS = ("t.id, t.account_id, t.name, t.scope, t.all_projects, t.prefix, t.created_at, t.last_used_at, "
            "t.revoked_at, a.email AS account_email, a.name AS account_name, a.role AS account_role, "
            "a.active AS account_active, coalesce((SELECT array_agg(tp.project_id ORDER BY tp.project_id) "
            "FROM api_token_project tp WHERE tp.token_id = t.id), '{}') AS project_ids")
_FROM = " FROM api_token t JOIN account a ON a.id = t.account_id "
# constant SQL: the statements below interpolate only the constants above
_BY_ID = f"SELECT {_COLUMNS}{_FROM}WHERE t.id = %s"  # noqa: S608  # nosec B608
_ALL = (f"SELECT {_COLUMNS}, (SELECT count(*) FROM api_token_use u WHERE u.token_id = t.id) AS uses{_FROM}"  # noqa: S608  # nosec B608
        "ORDER BY t.revoked_at IS NOT NULL, t.created_at DESC, t.id DESC")


def create(conn, account_id: int, name: str, scope: str, all_projects: bool, project_ids: Iterable[int],
           secret_hash: str, prefix: str, created_by: int | None) -> int:
    """The new token's id; its projects are the ``project_ids`` that exist."""
    row = db.query_one("INSERT INTO api_token (account_id, name, scope, all_projects, secret_hash, prefix, created_by) "
                       "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
                       (account_id, name, scope, all_projects, secret_hash, prefix, created_by), conn)
    token_id = int(row["id"])
    db.execute("INSERT INTO api_token_project (token_id, project_id) SELECT %s, p.id FROM project p "
               "WHERE p.id = ANY(%s) ON CONFLICT DO NOTHING", (token_id, sorted(set(project_ids))), conn)
    return token_id


def get(conn, token_id: int) -> dict[str, Any] | None:
    return db.query_one(_BY_ID, (token_id,), conn)


def list_all(conn) -> list[dict[str, Any]]:
    """Every token, live ones first, newest first, with how often each was used."""
    return db.query(_ALL, None, conn)


def revoke(conn, token_id: int) -> bool:
    """Revoke a live token; False when it does not exist or was revoked before."""
    return db.execute("UPDATE api_token SET revoked_at = now() WHERE id = %s AND revoked_at IS NULL",
                      (token_id,), conn) == 1


#: the token of a secret hash with its owner's account row, and its use logged, in one statement
_USE = ("WITH t AS (SELECT t.id, t.account_id, t.name, t.scope, t.all_projects, t.revoked_at, "
        "coalesce((SELECT array_agg(tp.project_id ORDER BY tp.project_id) FROM api_token_project tp "
        "WHERE tp.token_id = t.id), '{}') AS project_ids, a.email, a.name AS account_name, a.role, a.window_size, "
        "a.active, a.password_hash, a.session_version FROM api_token t JOIN account a ON a.id = t.account_id "
        "WHERE t.secret_hash = %s), "
        "used AS (UPDATE api_token SET last_used_at = now() FROM t WHERE api_token.id = t.id RETURNING t.id), "
        "logged AS (INSERT INTO api_token_use (token_id, account_id, method, endpoint, path) "
        "SELECT t.id, t.account_id, %s::text, %s::text, %s::text FROM t RETURNING id) "
        "SELECT t.* FROM t")


def use(conn, secret_hash: str, method: str, endpoint: str, path: str) -> dict[str, Any] | None:
    """The token of ``secret_hash`` with its owner (``account_*``; revoked ones too: the caller says why), its use
    logged (who, when, which endpoint) and its last use stamped — one statement, one round trip.

    Committed without waiting for the disk (``synchronous_commit off``, in the statement's own transaction when
    the connection is in autocommit): a server crash may lose the last fraction of a second of the log, never
    leave it inconsistent; waiting for the flush made every API call a commit slower than its page.
    """
    row = db.query_one(prepared(_USE), (secret_hash, method, endpoint, path[:2000]), conn,
                       lead="SET LOCAL synchronous_commit TO off; ")
    if row is None:
        return None
    account = {"id": row["account_id"], "email": row.pop("email"), "name": row.pop("account_name"),
               "role": row.pop("role"), "window_size": row.pop("window_size"), "active": row.pop("active"),
               "password_hash": row.pop("password_hash"), "session_version": row.pop("session_version")}
    return {**row, "account": account}


def uses(conn, token_id: int, limit: int = 100) -> list[dict[str, Any]]:
    """The token's newest uses (who, when, which endpoint)."""
    return db.query("SELECT u.used_at, u.method, u.endpoint, u.path, a.email AS account_email FROM api_token_use u "
                    "LEFT JOIN account a ON a.id = u.account_id WHERE u.token_id = %s "
                    "ORDER BY u.used_at DESC, u.id DESC LIMIT %s", (token_id, limit), conn)
