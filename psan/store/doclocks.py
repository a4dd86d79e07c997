"""Document write locks: exclusive for writers that touch many annotations, shared for one-span decisions.

Why: every decision used to lock the document row, so 20 annotators of one document queued behind
each other even when each only decided its own span.  Writers that update many annotations of a
document (rule applications, full re-annotation, model predictions) must still exclude each other
and everyone else — two of them updating rows in different orders would deadlock — but a token
decision that changes no rule touches only its own annotation row and may run beside others.
Transaction-scoped advisory locks give exactly that: ``exclusive`` waits for all holders,
``shared`` only for an exclusive one.  Every writer takes its advisory lock before any row lock, so
waits always point the same way.
"""
from __future__ import annotations

from psan import db

#: first key of the document locks ("psad"); the second key is the document id folded into int4
DOCUMENT_LOCK_KEY = 0x70736164
_INT4 = 2**31


def _key(document_id: int) -> int:
    return document_id % _INT4  # ids beyond 2^31 share a key with a smaller one: only extra waiting


def lock_exclusive(conn, document_id: int) -> None:
    """Until the transaction ends, no other writer of this document (shared or exclusive) runs."""
    db.execute("SELECT pg_advisory_xact_lock(%s, %s)", (DOCUMENT_LOCK_KEY, _key(document_id)), conn)


def lock_shared(conn, document_id: int) -> None:
    """Until the transaction ends, no exclusive writer of this document runs (shared ones may)."""
    db.execute("SELECT pg_advisory_xact_lock_shared(%s, %s)", (DOCUMENT_LOCK_KEY, _key(document_id)), conn)
