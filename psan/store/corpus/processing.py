"""Pre-processing bookkeeping: who is working on a document, and what still has to be queued.

Why: a message acknowledged late stays invisible in Redis for the visibility timeout (an hour) when
its worker dies, and an upload made while Redis is down never reaches the broker at all.  The
database therefore records the work itself — ``queued_at`` when a document was handed to the broker,
``PROCESSING`` plus a ``heartbeat_at`` the running task refreshes, ``attempts`` per claim — so the
sweeper can re-queue stale or never-queued work, and a duplicate delivery never runs twice at once.
"""
from __future__ import annotations

from dataclasses import dataclass

from psan.runtime import db
from psan.store.shared.document_status import RUNNING, RUNNING_SQL, DocumentStatus, sql_value

_NEW = sql_value(DocumentStatus.NEW)
_FAILED = sql_value(DocumentStatus.FAILED)
_PROCESSING = sql_value(DocumentStatus.PROCESSING)
#: serializes every "what may be queued now" decision (upload, Retry, sweeper) across processes
_QUEUE_LOCK = "SELECT pg_advisory_xact_lock(hashtext('psan.document-queue'))"


@dataclass(frozen=True)
class Claim:
    """A task's lease on a document: valid while ``attempt`` is the document's ``attempts``."""

    document_id: int
    attempt: int


def claim(conn, document_id: int, stale_seconds: float) -> Claim | None:
    """Mark a waiting (or abandoned) document PROCESSING for this run; ``None`` if another run holds it.

    A document is claimable when NEW, or running with a heartbeat older than ``stale_seconds``
    (its worker died).  Finished and FAILED documents are never claimed again by a stray delivery.
    """
    row = db.query_one(
        "UPDATE document SET status = " + _PROCESSING + ", heartbeat_at = clock_timestamp(), "  # noqa: S608  # nosec B608
        "attempts = attempts + 1, error = NULL, updated_at = now() "
        "WHERE id = %(id)s AND (status = " + _NEW + " OR (status IN " + RUNNING_SQL + " AND "
        "(heartbeat_at IS NULL OR heartbeat_at < clock_timestamp() - make_interval(secs => %(stale)s)))) "
        "RETURNING attempts", {"id": document_id, "stale": float(stale_seconds)}, conn)
    return Claim(document_id, row["attempts"]) if row else None


def holds(conn, lease: Claim) -> bool:
    """Whether the run still owns the document (the sweeper may have handed it to another run).

    Locks the row until the caller's transaction ends, so no claim can slip in while it writes.
    """
    row = db.query_one("SELECT status::text AS status, attempts FROM document WHERE id = %s FOR UPDATE",
                       (lease.document_id,), conn)
    return row is not None and row["status"] in RUNNING and row["attempts"] == lease.attempt


def heartbeat(conn, lease: Claim) -> bool:
    """Refresh the lease; ``False`` once the document is no longer this run's."""
    return db.execute("UPDATE document SET heartbeat_at = clock_timestamp() WHERE id = %s AND attempts = %s "  # noqa: S608  # nosec B608
                      "AND status IN " + RUNNING_SQL, (lease.document_id, lease.attempt), conn) > 0


def mark_failed(conn, document_id: int, message: str, attempt: int | None = None) -> bool:
    """FAILED with a message the admin reads (only if still this run's, when ``attempt`` is given)."""
    return db.execute(
        "UPDATE document SET status = " + _FAILED + ", error = %s, heartbeat_at = NULL, "  # noqa: S608  # nosec B608
        "updated_at = now() WHERE id = %s AND (%s::int IS NULL OR (attempts = %s AND status IN " + RUNNING_SQL + "))",
        (message[:500], document_id, attempt, attempt), conn) > 0


def reset_for_retry(conn, document_id: int) -> None:
    """The admin's Retry: waiting again, not queued yet, a fresh attempt budget."""
    db.execute("UPDATE document SET status = " + _NEW + ", error = NULL, queued_at = NULL, heartbeat_at = NULL, "  # noqa: S608  # nosec B608
               "attempts = 0, updated_at = now() WHERE id = %s", (document_id,), conn)


def recover_stale(conn, stale_seconds: float, max_attempts: int, failed_message: str) -> dict[str, list[int]]:
    """Running documents whose heartbeat stopped: back to NEW (to be queued), or FAILED after ``max_attempts``."""
    rows = db.query(
        "UPDATE document SET status = (CASE WHEN attempts >= %(max)s THEN " + _FAILED + " ELSE " + _NEW +  # noqa: S608  # nosec B608
        " END)::document_status, "
        "error = CASE WHEN attempts >= %(max)s THEN %(message)s END, queued_at = NULL, heartbeat_at = NULL "
        "WHERE status IN " + RUNNING_SQL + " AND heartbeat_at IS NOT NULL "
        "AND heartbeat_at < clock_timestamp() - make_interval(secs => %(stale)s) "
        "RETURNING id, status::text AS status",
        {"max": int(max_attempts), "message": failed_message[:500], "stale": float(stale_seconds)}, conn)
    return {"requeued": sorted(r["id"] for r in rows if r["status"] == DocumentStatus.NEW),
            "failed": sorted(r["id"] for r in rows if r["status"] == DocumentStatus.FAILED)}


def take_waiting(conn, cap: int, ids: list[int] | None = None, unqueued_grace: float = 0.0,
                 queued_stale: float = 3600.0) -> list[dict]:
    """NEW documents to hand to the broker now, marked queued; at most ``cap`` in flight per project.

    In flight = queued and not yet finished (NEW with a recent ``queued_at``, or running).  Candidates
    are ``ids`` (an upload, a Retry) or every NEW document never queued for ``unqueued_grace``
    seconds or queued longer than ``queued_stale`` ago (its message was lost).  Returns
    ``{"id", "chars"}`` rows (the length sets the task's time limit), oldest first (``UPDATE … RETURNING``
    has no order of its own: the planner's join decides it).
    """
    db.execute(_QUEUE_LOCK, None, conn)
    rows = db.query(
        "WITH busy AS ("  # noqa: S608  # nosec B608
        "  SELECT project_id, count(*) AS n FROM document "
        "  WHERE (status = " + _NEW + " AND queued_at >= clock_timestamp() - make_interval(secs => %(stale)s)) "
        "     OR (status IN " + RUNNING_SQL + " AND heartbeat_at IS NOT NULL) "
        "  GROUP BY project_id), "
        "candidates AS ("
        "  SELECT id, project_id, row_number() OVER (PARTITION BY project_id ORDER BY id) AS rn FROM document "
        "  WHERE status = " + _NEW + " AND (%(ids)s::bigint[] IS NULL OR id = ANY(%(ids)s::bigint[])) "
        "    AND ((queued_at IS NULL AND updated_at <= clock_timestamp() - make_interval(secs => %(grace)s)) "
        "      OR queued_at < clock_timestamp() - make_interval(secs => %(stale)s))) "
        "UPDATE document d SET queued_at = clock_timestamp() "
        "FROM candidates c LEFT JOIN busy b ON b.project_id = c.project_id "
        "WHERE d.id = c.id AND c.rn <= %(cap)s - coalesce(b.n, 0) "
        "RETURNING d.id, length(d.text) AS chars",
        {"ids": ids, "grace": float(unqueued_grace), "stale": float(queued_stale), "cap": int(cap)}, conn)
    return sorted(rows, key=lambda r: r["id"])


def unmark_queued(conn, ids: list[int]) -> None:
    """The broker refused these: leave them waiting for the sweeper."""
    if ids:
        db.execute("UPDATE document SET queued_at = NULL WHERE id = ANY(%s::bigint[]) AND status = " + _NEW,  # noqa: S608  # nosec B608
                   (list(ids),), conn)


def work_item(conn, document_id: int) -> dict | None:
    """What a pre-processing run needs of a document: text, language, status, project and its pipeline."""
    return db.query_one("SELECT d.text, d.language, d.status::text AS status, d.project_id, p.pipeline "
                        "FROM document d JOIN project p ON p.id = d.project_id WHERE d.id = %s", (document_id,), conn)


def text_length(conn, document_id: int) -> int | None:
    """Characters of a document's text (for time-limit messages); ``None`` for a missing document."""
    row = db.query_one("SELECT length(text) AS chars FROM document WHERE id = %s", (document_id,), conn)
    return row["chars"] if row else None


def request_reannotation(conn, project_id: int) -> None:
    """Remember that a project's re-annotation could not be scheduled (Redis down); the sweeper will."""
    db.execute("UPDATE project SET reannotate_pending_since = coalesce(reannotate_pending_since, now()) "
               "WHERE id = %s", (project_id,), conn)


#: a rule change no project run applied after this long (its run failed, or was never queued): the sweeper
#: schedules the project's run (psan.store.corpus.rule_changes)
STALE_RULE_CHANGE_SECONDS = 600


def take_reannotation_requests(conn) -> list[int]:
    """Projects waiting for a re-annotation, cleared (re-request those that still fail), and projects with
    rule changes older than :data:`STALE_RULE_CHANGE_SECONDS`."""
    rows = db.query("UPDATE project SET reannotate_pending_since = NULL WHERE reannotate_pending_since IS NOT NULL "
                    "RETURNING id", None, conn)
    stale = db.query("SELECT DISTINCT project_id AS id FROM rule_change "
                     "WHERE created_at < now() - make_interval(secs => %s)", (STALE_RULE_CHANGE_SECONDS,), conn)
    return sorted({r["id"] for r in rows} | {r["id"] for r in stale})
