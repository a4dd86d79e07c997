"""Many workers, one queue: two worker processes share 20 documents, none is done twice.

Two real Celery workers (separate processes, as on two machines) consume this session's queue on the
real Redis and write to the real PostgreSQL.  Each worker's log names the tasks it finished; together
they must cover all 20 documents, each exactly once, with work on both workers.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import sql
from tests.services import CELERY_QUEUE, REPO, TEST_SECRET

pytestmark = pytest.mark.worker

DOCUMENTS = 20
#: recognition without NER models (regex tokenizer, patterns, gazetteers): fast, needs nothing shared
PIPELINE = '{"tokenizer": "regex", "ner": [], "recognizers": ["patterns", "gazetteers"]}'
DONE_RE = re.compile(r"Task psan\.pre_process\[([0-9a-f-]+)\] succeeded")


def _start_worker(name: str, queue: str, env: dict[str, str], log_path: Path) -> subprocess.Popen:
    log = open(log_path, "w")  # noqa: SIM115 - closed by the process end
    return subprocess.Popen(  # noqa: S603  # nosec B603
        [sys.executable, "-m", "celery", "-A", "psan.celery.worker", "worker", "--pool=solo", "--concurrency=1",
         "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", f"{name}@%h", "-Q", queue],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)


def test_two_workers_split_twenty_documents(clean_app, database_url, redis_url, tmp_path):
    app = clean_app
    queue = f"{CELERY_QUEUE}-many"
    env = {**os.environ, "PSAN_CONFIG": "testing", "PSAN_SECRET_KEY": TEST_SECRET,
           "PSAN_DATABASE_URL": database_url, "PSAN_REDIS_URL": redis_url, "PSAN_CELERY_QUEUE": queue,
           "PSAN_REDIS_KEY_PREFIX": CELERY_QUEUE}  # the session's: kombu's broadcast (ping) keys carry it
    logs = [tmp_path / "worker-a.log", tmp_path / "worker-b.log"]
    workers = [_start_worker(f"many-a-{os.getpid()}", queue, env, logs[0]),
               _start_worker(f"many-b-{os.getpid()}", queue, env, logs[1])]
    celery_app = app.extensions["celery"]
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:  # both must be consuming before any work is queued
            assert all(w.poll() is None for w in workers), [p.read_text() for p in logs]
            replies = celery_app.control.ping(timeout=0.5, destination=None) or []
            if sum(1 for r in replies for name in r if name.startswith("many-")) >= 2:
                break
        else:
            raise AssertionError("the two workers did not answer within 90 s")
        # a project of its own (the default project's pipeline must stay as other tests expect it)
        project = sql(app, "INSERT INTO project (name, language, pipeline) VALUES ('many workers', 'en', %s::jsonb) "
                           "RETURNING id", (PIPELINE,))[0]["id"]
        text = " ".join(f"Jan Novák wrote to jan.novak{n}@example.org on 3 May 2001 from Praha." for n in range(400))
        ids = [sql(app, "INSERT INTO document (project_id, name, language, text) VALUES (%s, %s, 'en', %s) "
                        "RETURNING id", (project, f"doc{n}.txt", text))[0]["id"] for n in range(DOCUMENTS)]
        task_of = {}
        for document_id in ids:
            result = celery_app.send_task("psan.pre_process", args=[document_id], queue=queue)
            task_of[result.id] = document_id
        deadline = time.monotonic() + 240
        rows: list[dict] = []
        while time.monotonic() < deadline:
            rows = sql(app, "SELECT id, status::text AS status FROM document WHERE id = ANY(%s)", (ids,))
            if all(r["status"] in ("PRE_ANNOTATED", "DONE", "FAILED") for r in rows):
                break
            time.sleep(0.5)
        assert {r["status"] for r in rows} <= {"PRE_ANNOTATED", "DONE"}, rows
        time.sleep(1.0)  # the "succeeded" log line follows the database commit
    finally:
        for w in workers:
            w.terminate()
        for w in workers:
            try:
                w.wait(timeout=20)
            except subprocess.TimeoutExpired:
                w.kill()
    done = [Counter(DONE_RE.findall(p.read_text())) for p in logs]
    per_worker = [set(d) for d in done]
    assert all(n == 1 for d in done for n in d.values()), done  # no task twice on one worker
    assert not (per_worker[0] & per_worker[1])  # ... nor on both
    assert per_worker[0] | per_worker[1] == set(task_of)  # every document's task ran
    assert per_worker[0] and per_worker[1], [len(s) for s in per_worker]  # the work was split
    # and the database shows each document recognized once: one token row per index, no duplicates
    dupes = sql(app, "SELECT document_id, idx FROM token WHERE document_id = ANY(%s) GROUP BY 1, 2 "
                     "HAVING count(*) > 1 LIMIT 1", (ids,))
    assert dupes == []
    counts = {r["document_id"]: r["n"] for r in sql(
        app, "SELECT document_id, count(*) AS n FROM token WHERE document_id = ANY(%s) GROUP BY 1", (ids,))}
    assert len(set(counts.values())) == 1 and len(counts) == DOCUMENTS
    print(f"\nworker a: {len(per_worker[0])} documents, worker b: {len(per_worker[1])} documents")
