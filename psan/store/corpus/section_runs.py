"""SQL of a document recognized as a chord of section tasks (:mod:`psan.celery.sections`).

Why apart from :mod:`psan.store.corpus.processing`: only the chord reads a document by character slices
and asks which running documents nobody has beaten lately (their tasks may be waiting in the queue);
the lease itself (claim, holds, heartbeat) stays in ``processing``.
"""
from __future__ import annotations

from psan.runtime import db
from psan.store.corpus import processing
from psan.store.shared.document_status import RUNNING


def section_source(conn, lease: processing.Claim, start: int = 0, end: int | None = None) -> dict | None:
    """Text (characters ``start:end``, all by default), language, project and pipeline, if ``lease`` still holds it.

    Locks the document row (:func:`psan.store.corpus.processing.holds`) until the caller's transaction ends.
    """
    if not processing.holds(conn, lease):
        return None
    # substr counts characters (code points) from 1, as Python slices count them from 0
    return db.query_one("SELECT substr(d.text, %s, COALESCE(%s, length(d.text))) AS text, d.language, "
                        "d.project_id, p.pipeline FROM document d JOIN project p ON p.id = d.project_id "
                        "WHERE d.id = %s", (start + 1, None if end is None else end - start, lease.document_id),
                        conn)


def quiet_runs(conn, older_than: float) -> list[processing.Claim]:
    """Running documents whose heartbeat is older than ``older_than`` seconds: no task of theirs beats now.

    A running task beats every ``PROCESSING_HEARTBEAT_SECONDS``; a quiet document is either abandoned
    or a chord whose tasks wait in the queue (the sweeper tells them apart before they turn stale).
    """
    rows = db.query("SELECT id, attempts FROM document WHERE status = ANY(%s::document_status[]) "
                    "AND heartbeat_at IS NOT NULL AND heartbeat_at < clock_timestamp() - make_interval(secs => %s) "
                    "ORDER BY id", ([s.value for s in RUNNING], float(older_than)), conn)
    return [processing.Claim(r["id"], r["attempts"]) for r in rows]
