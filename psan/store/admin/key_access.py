"""Who looked at the key: every key export and every de-pseudonymization, with who, when and why.

Why a log and a required reason: the key turns the released data back into personal data; data
protection law and every ethics board ask who used it and for what.  Recording happens in the same
transaction as the export is built, so a logged export is one that was served (a failure rolls both
back); a request without a reason is refused before the key is read.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from psan.runtime import db

__all__ = ["ACTIONS", "MIN_REASON", "MAX_REASON", "ReasonRequired", "clean_reason", "record", "entries"]

ACTIONS = ("export", "depseudonymize")
MIN_REASON = 3
MAX_REASON = 1000


class ReasonRequired(ValueError):
    """The key was asked for without a usable reason (the message says what is expected)."""


def clean_reason(reason: str | None) -> str:
    """The reason as it is stored (spaces collapsed); ReasonRequired when it is missing, too short or too long."""
    text = " ".join((reason or "").split())
    if len(text) < MIN_REASON:
        raise ReasonRequired(f"give the reason for using the key (at least {MIN_REASON} characters)")
    if len(text) > MAX_REASON:
        raise ReasonRequired(f"the reason is longer than {MAX_REASON} characters")
    return text


def record(conn, action: str, reason: str | None, account_id: int | None, account: str,
           project_id: int | None = None, document_id: int | None = None,
           detail: Mapping[str, Any] | None = None) -> int:
    """Log one use of the key; returns the entry id.  ``project_id``/``document_id`` that do not exist are
    kept in ``detail`` only (an uploaded key may name a project deleted since)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown key action {action!r}")
    text = clean_reason(reason)
    extra = dict(detail or {})
    if project_id is not None and db.query_one("SELECT 1 FROM project WHERE id = %s", (project_id,), conn) is None:
        extra["project"], project_id = project_id, None
    if document_id is not None and db.query_one("SELECT 1 FROM document WHERE id = %s", (document_id,),
                                                conn) is None:
        extra["document"], document_id = document_id, None
    row = db.query_one(
        "INSERT INTO key_access_log (project_id, document_id, account_id, account, action, reason, detail) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb) RETURNING id",
        (project_id, document_id, account_id, account[:254], action, text,
         json.dumps(extra, ensure_ascii=False, sort_keys=True)), conn)
    return int(row["id"]) if row else 0


def entries(conn, project_id: int, limit: int = 500) -> list[dict[str, Any]]:
    """The project's log, newest first (id, when, who, action, document, reason, detail)."""
    return db.query("SELECT id, created_at, account, action, document_id, reason, detail FROM key_access_log "
                    "WHERE project_id = %s ORDER BY id DESC LIMIT %s", (project_id, limit), conn)
