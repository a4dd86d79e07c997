"""A worker killed (SIGKILL) in the middle of pre-processing leaves no half-written data, and the retry finishes.

Why this matters: tasks are acknowledged late (``task_acks_late`` + ``task_reject_on_worker_lost``),
so Redis hands the message of a dead worker to another one after the visibility timeout; the task
must then find either nothing or a complete stage (the store writes one transaction per stage)
and finish the document exactly like a clean run.

The test starts its own worker with ``PSAN_CELERY_VISIBILITY_TIMEOUT=5`` on this session's queue;
a session worker of the ``celery_worker`` fixture, if running, stops consuming that queue meanwhile
(so the task certainly runs in the worker this test kills) and resumes afterwards.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults import wait_worker_ready
from tests.helpers import default_project, sql
from tests.services import CELERY_QUEUE, REPO, TEST_SECRET

pytestmark = pytest.mark.worker

PIPELINE = '{"tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}'
#: ~45k tokens with ~5k pattern entities: a few seconds of recognition and of re-annotation
TEXT = " ".join(f"Report {i} was sent by jan.novak{i % 50}@example.org on 2021-05-{i % 28 + 1:02d} to "
                f"+420 777 123 {i % 1000:03d}. The patient felt fine." for i in range(1700))


def _start_worker(database_url: str, redis_url: str, name: str, log_path: Path) -> subprocess.Popen:
    env = {**os.environ, "PSAN_CONFIG": "testing", "PSAN_SECRET_KEY": TEST_SECRET,
           "PSAN_DATABASE_URL": database_url, "PSAN_REDIS_URL": redis_url, "PSAN_CELERY_QUEUE": CELERY_QUEUE,
           "PSAN_REDIS_KEY_PREFIX": CELERY_QUEUE, "PSAN_CELERY_VISIBILITY_TIMEOUT": "5",
           # the redelivered run may claim the document once its heartbeat is 3 s old
           "PSAN_PROCESSING_STALE_SECONDS": "3", "PSAN_PROCESSING_HEARTBEAT_SECONDS": "1"}
    log = open(log_path, "w")  # noqa: SIM115 - the process writes it until it dies
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "psan.celery.worker", "worker", "--pool=solo", "--concurrency=1",
         "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", name, "-Q", CELERY_QUEUE],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture()
def session_worker_paused(app) -> Iterator[None]:
    """Stop this session's fixture worker (if any) from taking tasks of the queue during the test."""
    control = app.extensions["celery"].control
    ours = f"test-{os.getpid()}@"
    nodes = [n for reply in control.ping(timeout=1.0) or [] for n in reply if n.startswith(ours)]
    if nodes:
        control.cancel_consumer(CELERY_QUEUE, destination=nodes, reply=True, timeout=5)
    yield
    if nodes:
        control.add_consumer(CELERY_QUEUE, destination=nodes, reply=True, timeout=5)


def _counts(app, document_id: int) -> dict[str, int]:
    row = sql(app, "SELECT (SELECT count(*) FROM token WHERE document_id = %(d)s) AS tokens, "
                   "(SELECT count(*) FROM sentence WHERE document_id = %(d)s) AS sentences, "
                   "(SELECT count(*) FROM named_entity WHERE document_id = %(d)s) AS entities, "
                   "(SELECT count(*) FROM annotation WHERE document_id = %(d)s) AS annotations, "
                   "(SELECT token_count FROM document WHERE id = %(d)s) AS token_count", {"d": document_id})
    return row[0]


def _annotations(app, document_id: int) -> list[tuple]:
    return [(r["first_token"], r["end_token"], r["rule_level"]) for r in sql(
        app, "SELECT first_token, end_token, rule_level FROM annotation WHERE document_id = %s "
             "ORDER BY first_token, end_token", (document_id,))]


def _status(app, document_id: int) -> str:
    return sql(app, "SELECT status::text AS status FROM document WHERE id = %s", (document_id,))[0]["status"]


def _wait_finished(app, document_id: int, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = _status(app, document_id)
        if status in ("PRE_ANNOTATED", "DONE", "FAILED"):
            return status
        time.sleep(0.3)
    raise AssertionError(f"document {document_id} not finished within {timeout:.0f} s ({_status(app, document_id)})")


def _new_document(app, project: int, name: str) -> int:
    return sql(app, "INSERT INTO document (project_id, name, language, text) VALUES (%s, %s, 'en', %s) RETURNING id",
               (project, name, TEXT))[0]["id"]


def test_worker_killed_mid_task_leaves_no_half_written_data(clean_app, database_url, redis_url,
                                                            session_worker_paused):
    from psan.celery.tasks import pre_process
    app = clean_app
    project = default_project(app)
    before = sql(app, "SELECT pipeline::text AS pipeline FROM project WHERE id = %s", (project,))[0]["pipeline"]
    sql(app, "UPDATE project SET pipeline = %s::jsonb WHERE id = %s", (PIPELINE, project))
    artifacts = REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    first = _start_worker(database_url, redis_url, f"kill-{os.getpid()}-1@%h",
                          artifacts / f"celery-kill-{os.getpid()}-1.log")
    second = None
    try:
        wait_worker_ready(app, first, f"kill-{os.getpid()}-1@%h")
        killed = _new_document(app, project, "killed.txt")
        with app.app_context():
            pre_process.delay(killed)
        # kill as soon as the first stage (tokens, NEs) is committed: the second (annotations) is running
        deadline = time.monotonic() + 120
        while _status(app, killed) in ("NEW", "PROCESSING"):
            assert time.monotonic() < deadline, "the worker never started the task"
            assert first.poll() is None, "the worker died by itself"
            time.sleep(0.02)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        status_at_kill = _status(app, killed)
        after_kill = _counts(app, killed)
        # one transaction per stage: tokens, sentences, NEs complete or absent; annotations likewise
        assert after_kill["tokens"] in (0, after_kill["token_count"]), after_kill
        assert (after_kill["tokens"] == 0) == (after_kill["sentences"] == 0), after_kill
        if status_at_kill == "RECOGNIZED":
            assert after_kill["annotations"] == 0, after_kill  # the annotation stage rolled back whole

        second = _start_worker(database_url, redis_url, f"kill-{os.getpid()}-2@%h",
                               artifacts / f"celery-kill-{os.getpid()}-2.log")
        wait_worker_ready(app, second, f"kill-{os.getpid()}-2@%h")
        # redelivered after the visibility timeout (5 s) by the new worker's restore cycle
        assert _wait_finished(app, killed, timeout=180) == "PRE_ANNOTATED"

        clean = _new_document(app, project, "clean.txt")
        with app.app_context():
            pre_process.delay(clean)
        assert _wait_finished(app, clean, timeout=180) == "PRE_ANNOTATED"
        retried, reference = _counts(app, killed), _counts(app, clean)
        assert retried == reference, (status_at_kill, after_kill, retried, reference)
        assert reference["annotations"] > 1000 and reference["tokens"] > 30_000
        assert _annotations(app, killed) == _annotations(app, clean)
        print(f"killed at status {status_at_kill} with {after_kill}; retry finished with {retried}")
    finally:
        _stop(first)
        if second is not None:
            _stop(second)
        # the default project outlives this test: later tests must not run with its pipeline
        sql(app, "UPDATE project SET pipeline = %s::jsonb WHERE id = %s", (before, project))
