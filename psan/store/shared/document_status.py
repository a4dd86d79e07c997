"""The document life cycle in one place: status codes, the groups code asks about, and their SQL.

Why one module: "annotatable", "annotated", "still has suspicious spans" and the status literals used to
be spelled out in many queries, and a new status (PROCESSING) had to be added to each by hand.  Every
query and every check imports its status words from here.
"""
from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class DocumentStatus(StrEnum):
    """Values of the ``document_status`` PostgreSQL enum (migrations 0001 and 0008)."""

    NEW = "NEW"                      # uploaded, waiting for the worker
    PROCESSING = "PROCESSING"        # a worker holds the lease and recognizes it
    RECOGNIZED = "RECOGNIZED"        # recognized; rules not applied yet
    PRE_ANNOTATED = "PRE_ANNOTATED"  # suspicious spans wait for people
    DONE = "DONE"                    # nothing left undecided
    FAILED = "FAILED"                # recognition failed; the admin may retry


#: documents whose spans can be annotated and re-annotated by rules
ANNOTATABLE: tuple[DocumentStatus, ...] = (DocumentStatus.RECOGNIZED, DocumentStatus.PRE_ANNOTATED,
                                           DocumentStatus.DONE)
#: documents whose rules have been applied (what downloads and the model train on)
ANNOTATED: tuple[DocumentStatus, ...] = (DocumentStatus.PRE_ANNOTATED, DocumentStatus.DONE)
#: a worker is (or was, if its heartbeat stopped) working on the document
RUNNING: tuple[DocumentStatus, ...] = (DocumentStatus.PROCESSING, DocumentStatus.RECOGNIZED)
#: the document list shows a spinner: something will still change without anyone acting
BUSY: tuple[DocumentStatus, ...] = (DocumentStatus.NEW, DocumentStatus.PROCESSING, DocumentStatus.RECOGNIZED)


def sql_list(statuses: Iterable[DocumentStatus]) -> str:
    """``('A', 'B')`` for composing a constant ``status IN …`` into a query (values are enum members only)."""
    return "(" + ", ".join(f"'{DocumentStatus(s).value}'" for s in statuses) + ")"


def sql_value(status: DocumentStatus) -> str:
    """``'DONE'`` for composing a constant ``status = …`` into a query."""
    return f"'{DocumentStatus(status).value}'"


ANNOTATABLE_SQL = sql_list(ANNOTATABLE)
ANNOTATED_SQL = sql_list(ANNOTATED)
RUNNING_SQL = sql_list(RUNNING)

#: an annotation (alias ``a``) of a project (alias ``p``) that still waits for a person
SUSPICIOUS_SQL = ("a.token_decision IS NULL AND a.rule_level > p.private_threshold "
                  "AND a.rule_level < p.public_threshold")

#: the status an annotated document (alias ``d``) should have: PRE_ANNOTATED while a span is open, else DONE
STATUS_FROM_SPANS_SQL = (
    "(CASE WHEN EXISTS (SELECT 1 FROM annotation a JOIN project p ON p.id = d.project_id "  # noqa: S608  # nosec B608
    "WHERE a.document_id = d.id AND " + SUSPICIOUS_SQL + ") "
    "THEN 'PRE_ANNOTATED' ELSE 'DONE' END)::document_status")
