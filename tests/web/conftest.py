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
