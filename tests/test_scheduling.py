"""Scheduling a project's re-annotation (psan.celery.scheduling): calls within the delay are debounced."""
from __future__ import annotations

import time

import pytest

from psan.celery.markers import debounce_key
from psan.celery.markers import redis_client as _redis
from psan.celery.scheduling import schedule_project_reannotation
from tests.helpers import default_project


@pytest.mark.worker
def test_debounced_project_reannotation(clean_app, celery_worker):
    app = clean_app
    pid = default_project(app)
    with app.app_context():
        _redis().delete(debounce_key(pid))
        for _ in range(5):
            schedule_project_reannotation(pid, exclude_document_id=7, delay=1)
        assert _redis().get(debounce_key(pid)) == b"7"
        schedule_project_reannotation(pid, exclude_document_id=8, delay=1)
        assert _redis().get(debounce_key(pid)) == b""  # the pending run now covers every document
        deadline = time.monotonic() + 30
        while _redis().exists(debounce_key(pid)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _redis().exists(debounce_key(pid))
