"""The ``instance_setting`` key/value table (e.g. the first-admin registration nonce)."""
from __future__ import annotations

from psan.runtime import db

_SELECT = "SELECT value FROM instance_setting WHERE key = %s"
_SELECT_FOR_UPDATE = "SELECT value FROM instance_setting WHERE key = %s FOR UPDATE"


def get(conn, key: str, lock: bool = False) -> str | None:
    """The value, or None; ``lock`` holds the row until the transaction ends (FOR UPDATE)."""
    row = db.query_one(_SELECT_FOR_UPDATE if lock else _SELECT, (key,), conn)
    return row["value"] if row else None


def add(conn, key: str, value: str) -> str:
    """Store ``value`` unless the key has one already (a concurrent writer won); returns the stored value."""
    db.execute("INSERT INTO instance_setting (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING",
               (key, value), conn)
    return get(conn, key)


def delete(conn, key: str) -> None:
    db.execute("DELETE FROM instance_setting WHERE key = %s", (key,), conn)
