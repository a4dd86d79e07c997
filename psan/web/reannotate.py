"""Re-annotating a project after an admin changed its rules or labels."""
from __future__ import annotations

import kombu.exceptions
import redis
from flask import current_app

from psan.runtime import db


def reannotate(project_id: int) -> None:
    """Ask for a (debounced) re-annotation of the project after a rule or label change.

    Imported lazily: the annotation store is written concurrently and must not be an import-time
    dependency of these pages.  Tests replace this function to observe the calls.
    If Redis is down, the change is kept and the project marked in the request's transaction; the
    worker's sweeper schedules the run once Redis answers again.
    """
    from psan.celery.scheduling import schedule_project_reannotation
    try:
        schedule_project_reannotation(project_id)
    except (redis.RedisError, kombu.exceptions.OperationalError, OSError):
        current_app.logger.warning("could not schedule re-annotation of project %s; the sweeper will", project_id)
        from psan.store.corpus.processing import request_reannotation
        request_reannotation(db.get_conn(), project_id)
