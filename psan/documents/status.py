"""Document statuses as words in the UI language, and whether Retry makes sense.

Why one place: the server-rendered list and the live JSON (documents.js) must say the same.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, lazy_gettext

WORDS = {
    "NEW": lazy_gettext("waiting"),
    "PROCESSING": lazy_gettext("processing"),
    "RECOGNIZED": lazy_gettext("processing"),
    "PRE_ANNOTATED": lazy_gettext("ready to annotate"),
    "DONE": lazy_gettext("done"),
    "FAILED": lazy_gettext("failed"),
}


def word(row: Mapping[str, Any]) -> str:
    """The status of a :func:`psan.store.documents.list_documents` row as a word."""
    if row.get("stale"):
        return gettext("stalled (worker stopped)")
    if row["status"] == "NEW" and row.get("unqueued"):
        return gettext("waiting for the queue")
    return str(WORDS.get(row["status"], row["status"]))


def retryable(row: Mapping[str, Any]) -> bool:
    """Retry only where nothing else will finish the document: FAILED, or a run whose worker died."""
    return row["status"] == "FAILED" or bool(row.get("stale"))
