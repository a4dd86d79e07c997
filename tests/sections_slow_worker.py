"""A Celery worker whose recognition is slowed down, for the chord lease tests (``tests/web/test_sections_lease.py``).

Start it as ``celery -A tests.sections_slow_worker worker``: it is psan's worker app with
``Pipeline.recognize_packed`` (one section) sleeping ``PSAN_TEST_SLOW_SECTION_SECONDS`` and
``Pipeline.process`` (a whole document) sleeping ``PSAN_TEST_SLOW_DOCUMENT_SECONDS`` first, so a test
can keep a section running, or the worker busy with another document, for longer than the stale age.
(``PSAN_TEST_*`` variables never become config values.)
"""
from __future__ import annotations

import os
import time

from psan.tool.detection.pipeline import Pipeline

SECTION_SECONDS = float(os.environ.get("PSAN_TEST_SLOW_SECTION_SECONDS", "0"))
DOCUMENT_SECONDS = float(os.environ.get("PSAN_TEST_SLOW_DOCUMENT_SECONDS", "0"))

_recognize_packed = Pipeline.recognize_packed
_process = Pipeline.process


def _slow_recognize_packed(self: Pipeline, text: str) -> list:
    time.sleep(SECTION_SECONDS)
    return _recognize_packed(self, text)


def _slow_process(self: Pipeline, text: str):  # noqa: ANN202 - psan.tool.text.document.Document
    time.sleep(DOCUMENT_SECONDS)
    return _process(self, text)


Pipeline.recognize_packed = _slow_recognize_packed
Pipeline.process = _slow_process

from psan.celery.worker import celery_app, flask_app  # noqa: E402 - after the patch, as the worker imports it

__all__ = ["celery_app", "flask_app"]
