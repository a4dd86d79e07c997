"""Document statuses as words in the user's language (the codes NEW, PRE_ANNOTATED… are for machines).

Why one helper: the documents list, its live-status JSON, the annotation window and API messages
must all say the same word for a status, in English and in Czech.  Templates use the
``status_name`` filter; JSON answers carry ``status_name`` next to the code.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_babel import gettext, lazy_gettext

#: status code → what it means for the people using psan
STATUS_NAMES = {
    "NEW": lazy_gettext("Waiting for recognition"),
    "PROCESSING": lazy_gettext("Processing"),
    "RECOGNIZED": lazy_gettext("Applying rules"),
    "PRE_ANNOTATED": lazy_gettext("To annotate"),
    "DONE": lazy_gettext("Done"),
    "FAILED": lazy_gettext("Failed"),
}


def status_name(status: object) -> str:
    """The status as a word in the current language; an unknown code is shown as it is."""
    code = getattr(status, "value", status)  # a str-valued Enum or a plain string
    name = STATUS_NAMES.get(str(code))
    return str(name) if name is not None else str(code)


def document_status_word(row: Mapping[str, Any]) -> str:
    """The status of a :func:`psan.store.corpus.documents.list_documents` row, including what the sweeper knows."""
    if row.get("stale"):
        return gettext("Stalled (worker stopped)")
    if row["status"] == "NEW" and row.get("unqueued"):
        return gettext("Waiting for the queue")
    return status_name(row["status"])


def retryable(row: Mapping[str, Any]) -> bool:
    """Retry only where nothing else will finish the document: FAILED, a run whose worker died, or a
    document queued long ago that no worker took (its message may be lost)."""
    return row["status"] == "FAILED" or bool(row.get("stale")) or bool(row.get("waiting_long"))


def init_app(app: Flask) -> None:
    app.add_template_filter(status_name, "status_name")
