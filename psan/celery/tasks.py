"""Background tasks.  Later issues add pre-processing and re-annotation here."""
from __future__ import annotations

import socket

from celery import shared_task

from psan import db


@shared_task(name="psan.health_check")
def health_check(nonce: str) -> dict:
    """Prove the whole worker round-trip: broker → worker → PostgreSQL → result backend."""
    with db.transaction() as conn:
        row = db.query_one("SELECT count(*) AS documents, current_database() AS database FROM document", None, conn)
    return {"nonce": nonce, "worker": socket.gethostname(), "database": row["database"], "documents": row["documents"]}
