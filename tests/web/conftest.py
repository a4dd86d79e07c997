"""Fixtures of the web tests (the app, client and login fixtures are in tests/conftest.py)."""
from __future__ import annotations

import pytest


@pytest.fixture()
def reannotations(monkeypatch) -> list[int]:
    """Record schedule_project_reannotation calls instead of queueing Celery tasks."""
    import psan.celery.scheduling
    calls: list[int] = []
    monkeypatch.setattr(psan.celery.scheduling, "schedule_project_reannotation",
                        lambda project_id, exclude_document_id=None, delay=None: calls.append(project_id))
    return calls


#: concurrent sessions the busy app's pool serves (plus room for the test itself)
BUSY_SESSIONS = 20


@pytest.fixture()
def busy_app(clean_app, database_url, redis_url):
    """The app with a connection pool of its own big enough for 20 concurrent requests plus the test.

    Its URL differs from the session app's (``application_name``), so closing its pool afterwards
    leaves the session app's pool open.
    """
    from urllib.parse import urlsplit, urlunsplit

    from psan import create_app
    from psan.runtime import db
    from tests.services import app_config
    parts = urlsplit(database_url)
    url = urlunsplit(parts._replace(query=(parts.query + "&" if parts.query else "") + "application_name=psan-busy"))
    app = create_app(app_config(url, redis_url, DB_POOL_MAX=BUSY_SESSIONS + 10))
    yield app
    with app.app_context():
        db.app_pool(app).closeall()
    db._pools.pop(next((k for k in db._pools if k[1] == url), None), None)  # noqa: SLF001 - test-only pool
