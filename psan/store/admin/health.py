"""The database side of the worker health check (``psan.health_check``)."""
from __future__ import annotations

from typing import Any

from psan.runtime import db


def database_probe(conn) -> dict[str, Any]:
    """Which database the caller reached and how many documents it holds (proves a real round-trip)."""
    return db.query_one("SELECT count(*) AS documents, current_database() AS database FROM document", None, conn)
