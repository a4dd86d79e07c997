"""Database ids taken from URLs and forms."""
from __future__ import annotations

from typing import Any

MAX_ID = 2**63 - 1  # bigint: larger ids would make PostgreSQL raise instead of returning nothing


def valid_id(value: Any) -> int | None:
    """``value`` as a database id, or None when it is not a positive bigint."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 0 < number <= MAX_ID else None
