"""The command line's key access log: every key written or used, with who, when and why (JSON lines).

Why: the web app logs key exports and de-pseudonymizations in its database
(psan.store.admin.key_access); the command line works without one, so it appends to a file the data
steward chooses (``--access-log``, ``$PSAN_KEY_ACCESS_LOG``), by default beside the key.  A run that
would write or use a key without a reason is refused, as in the web app.
"""
from __future__ import annotations

import getpass
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["MIN_REASON", "MAX_REASON", "clean_reason", "log_path", "append"]

MIN_REASON = 3
MAX_REASON = 1000


def clean_reason(reason: str | None) -> str | None:
    """The reason with spaces collapsed, or ``None`` when it is missing, shorter than 3 or longer than 1000."""
    text = " ".join((reason or "").split())
    return text if MIN_REASON <= len(text) <= MAX_REASON else None


def log_path(explicit: str | None, default: Path) -> Path:
    """``explicit`` (``--access-log``), else ``$PSAN_KEY_ACCESS_LOG``, else ``default``."""
    chosen = explicit or os.environ.get("PSAN_KEY_ACCESS_LOG")
    return Path(chosen) if chosen else default


def append(path: Path, action: str, reason: str, **fields: Any) -> None:
    """One line: when, who (the operating-system account), the action, why, and what was touched.

    OSError when the log cannot be written: the caller refuses to go on without a record.
    """
    record = {"when": datetime.now(UTC).isoformat(timespec="seconds"), "who": getpass.getuser(), "action": action,
              "reason": reason, **fields}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record, ensure_ascii=False) + "\n")
