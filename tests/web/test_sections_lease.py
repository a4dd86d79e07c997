"""The lease of a document recognized as a chord of sections (psan.celery.sections), on real services.

Why: the chord is on by default only if (a) a live chord is never taken over, however long its tasks
wait in the queue or run, and (b) a chord whose workers were killed is taken over within about
PROCESSING_STALE_SECONDS, not after the document's time limit.  The workers here run
``tests.sections_slow_worker`` (recognition slowed by PSAN_TEST_SLOW_* seconds) on queues of their own,
with a stale age of 3 s, so waiting and running both last longer than the stale age.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
import redis

from psan.celery.queue import enqueue
from psan.celery.runs import time_limits
from psan.celery.sections import LEASE_HEADER, held_leases, keep_waiting_chords_alive, queued_leases, section_chord
from psan.celery.sweeper import sweep_once
from psan.store.corpus.processing import Claim
from psan.tool.detection.pipeline import Pipeline
from tests.faults import ARTIFACTS, REPO, WORKER_OPTIONS, service_env, stop_process, wait_for, wait_worker_ready
from tests.helpers import sql

pytestmark = pytest.mark.worker

STALE = 3.0
LEASE_ENV = {"PSAN_PROCESSING_STALE_SECONDS": str(STALE), "PSAN_PROCESSING_HEARTBEAT_SECONDS": "0.5",
             "PSAN_SWEEP_INTERVAL_SECONDS": "0.5"}
#: about three sections of this module's text
CONFIG = {"tokenizer": "regex", "ner": [], "recognizers": ["patterns", "gazetteers"],
          "sections": {"min_chars": 2000, "chars": 1200}}
FINISHED = ("PRE_ANNOTATED", "DONE", "FAILED")


def _text(paragraphs: int = 24) -> str:
    return "\n\n".join(f"Paragraph {i}: John Smith wrote to jane.doe{i}@example.com from London.\n"
                       f"Call +44 20 7946 0{i:03d} or visit Mary Brown in Paris on 12 May 2021."
                       for i in range(paragraphs))


def _queue(tag: str) -> str:
    return f"psan-lease-{os.getpid()}-{tag}"


def _start_slow_worker(env: dict[str, str], queue: str, name: str) -> subprocess.Popen:
    """A solo worker of ``tests.sections_slow_worker`` in a session of its own (killed as a group)."""
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"celery-{name.split('@')[0]}.log", "w")  # noqa: SIM115 - the process writes it
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.sections_slow_worker", "worker", "--pool=solo",
         "--concurrency=1", *WORKER_OPTIONS, "--loglevel=INFO", "-n", name, "-Q", queue],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _project(app, name: str, config: dict) -> int:
    return sql(app, "INSERT INTO project (name, pipeline) VALUES (%s, %s) RETURNING id",
               (name, json.dumps(config)))[0]["id"]


def _document(app, project: int, name: str, text: str) -> int:
    return sql(app, "INSERT INTO document (project_id, name, language, text) VALUES (%s, %s, 'en', %s) RETURNING id",
               (project, name, text))[0]["id"]


def _doc(app, document_id: int) -> dict:
    return sql(app, "SELECT status::text AS status, error, attempts, heartbeat_at FROM document WHERE id = %s",
               (document_id,))[0]


def _assert_equals_serial(app, document_id: int, text: str) -> None:
    """Stored once and exactly as the serial run stores it (no rows of a second run)."""
    serial = Pipeline(dict(CONFIG, language="en")).process(text)
    tokens = sql(app, "SELECT start_char, end_char FROM token WHERE document_id = %s ORDER BY idx", (document_id,))
    assert [(t["start_char"], t["end_char"]) for t in tokens] == [(t.start, t.end) for t in serial.tokens]
    entities = sql(app, "SELECT first_token, end_token, type FROM named_entity WHERE document_id = %s",
                   (document_id,))
    assert sorted((e["first_token"], e["end_token"], e["type"]) for e in entities) == \
        sorted((e.first_token, e.end_token, e.type) for e in serial.entities)
    assert len(serial.entities) > 20


def _drop_queue(app, queue: str) -> None:
    """Messages nobody will take (a killed worker's chord) out of the session's Redis."""
    client = redis.Redis.from_url(app.config["REDIS_URL"])
    prefix = app.config["REDIS_KEY_PREFIX"] + ":"
    for key in client.scan_iter(f"{prefix}{queue}*"):
        client.delete(key)
    client.close()


def test_default_config_runs_large_documents_as_a_chord(app) -> None:
    from config import default
    assert default.PREPROCESS_SECTIONS_IN_PARALLEL is True


def test_held_leases_are_the_chord_tasks_this_worker_holds(monkeypatch) -> None:
    from celery.worker import state

    class Held:
        def __init__(self, request_dict: dict) -> None:
            self.request_dict = request_dict

    monkeypatch.setattr(state, "reserved_requests", {
        Held({"task": "psan.recognize_section", LEASE_HEADER: [4, 2]}),
        Held({"task": "psan.merge_sections", LEASE_HEADER: [7, 1]}),
        Held({"task": "psan.pre_process", LEASE_HEADER: [5, 1]}),  # not a chord task
        Held({"task": "psan.recognize_section"}),  # queued before the header existed
        Held({"task": "psan.recognize_section", LEASE_HEADER: "8:1"})})
    assert held_leases() == {Claim(4, 2), Claim(7, 1)}


def test_waiting_chord_tasks_are_vouched_for_and_not_taken_over(clean_app, monkeypatch) -> None:
    """No worker at all: the chord's messages wait in a queue; the sweep refreshes the lease instead of taking it."""
    app = clean_app
    queue = _queue("vouch")
    monkeypatch.setitem(app.config, "CELERY_QUEUE", queue)
    monkeypatch.setitem(app.config, "PROCESSING_STALE_SECONDS", STALE)
    monkeypatch.setitem(app.config, "PROCESSING_HEARTBEAT_SECONDS", 0.5)
    text = _text()
    project = _project(app, "vouch", CONFIG)
    waiting, abandoned, other_run = (_document(app, project, name, text) for name in ("waiting", "abandoned", "old"))
    sql(app, "UPDATE document SET status = 'PROCESSING', attempts = 2, queued_at = now(), "
             "heartbeat_at = now() - interval '1 hour' WHERE id = ANY(%s)", ([waiting, abandoned, other_run],))
    ranges = Pipeline(dict(CONFIG, language="en")).sections(text)
    assert len(ranges) >= 3
    try:
        with app.app_context():
            chord = section_chord(Claim(waiting, 2), ranges, app.config)
            for task in chord.tasks:
                task.apply_async(queue=queue)
            chord.body.apply_async(([None] * len(ranges),), queue=queue)  # as the chord queues its merge
            # a task of an earlier run of another document vouches for nothing
            section_chord(Claim(other_run, 1), ranges, app.config).tasks[0].apply_async(queue=queue)
        client = redis.Redis.from_url(app.config["REDIS_URL"])
        key = f"{app.config['REDIS_KEY_PREFIX']}:{queue}"
        messages = [json.loads(raw) for raw in client.lrange(key, 0, -1)]
        assert {m["headers"]["task"] for m in messages} == {"psan.recognize_section", "psan.merge_sections"}
        assert all(m["headers"][LEASE_HEADER] in ([waiting, 2], [other_run, 1]) for m in messages)
        assert queued_leases(client, [key]) == {Claim(waiting, 2), Claim(other_run, 1)}
        client.close()

        with app.app_context():
            assert keep_waiting_chords_alive(app) == [waiting]
        sql(app, "UPDATE document SET heartbeat_at = now() - interval '1 hour' WHERE id = %s", (waiting,))
        swept = sweep_once(app)
        assert swept["vouched"] == [waiting]
        assert sorted(swept["requeued"]) == sorted([abandoned, other_run])
        assert _doc(app, waiting)["status"] == "PROCESSING" and _doc(app, waiting)["attempts"] == 2
        assert _doc(app, abandoned)["status"] == "NEW"  # queued again (nobody consumes this queue)
    finally:
        _drop_queue(app, queue)


def test_sweeper_takes_nothing_over_while_it_cannot_read_the_queue(clean_app, monkeypatch) -> None:
    app = clean_app
    monkeypatch.setitem(app.config, "PROCESSING_STALE_SECONDS", STALE)
    document = _document(app, _project(app, "unreadable", CONFIG), "quiet", _text())
    sql(app, "UPDATE document SET status = 'PROCESSING', attempts = 1, heartbeat_at = now() - interval '1 hour' "
             "WHERE id = %s", (document,))
    monkeypatch.setitem(app.config, "REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    swept = sweep_once(app)
    assert swept["requeued"] == [] and swept["vouched"] == []
    assert _doc(app, document)["status"] == "PROCESSING"
    monkeypatch.undo()
    monkeypatch.setitem(app.config, "PROCESSING_STALE_SECONDS", STALE)
    monkeypatch.setitem(app.config, "CELERY_QUEUE", _queue("unreadable"))
    try:
        assert sweep_once(app)["requeued"] == [document]  # the queue is readable again: no task of it waits
    finally:
        _drop_queue(app, _queue("unreadable"))


def test_live_chord_waiting_and_running_longer_than_the_stale_age_is_not_taken_over(clean_app, database_url,
                                                                                      redis_url) -> None:
    """One worker: another document keeps it busy while the sections wait, then each section runs 4 s."""
    app = clean_app
    queue = _queue("live")
    name = f"lease-live-{os.getpid()}@%h"
    text = _text()
    chorded = _document(app, _project(app, "chorded", CONFIG), "big", text)
    blocker = _document(app, _project(app, "blocker", dict(CONFIG, sections=False)), "slow", "Mail jan@example.org.")
    config = {**app.config, "CELERY_QUEUE": queue}
    with app.app_context():  # both queued before the worker starts: the sections queue up behind the blocker
        assert enqueue(config, [chorded]).queued == [chorded]
        assert enqueue(config, [blocker]).queued == [blocker]
    env = service_env(database_url, redis_url, queue, **LEASE_ENV, PSAN_TEST_SLOW_SECTION_SECONDS="4",
                      PSAN_TEST_SLOW_DOCUMENT_SECONDS="6")
    # the clock starts with the worker: under load it may finish its work before it answers a ping
    started = time.monotonic()
    worker = _start_slow_worker(env, queue, name)
    try:
        wait_worker_ready(app, worker, name)
        row = wait_for(lambda: (r := _doc(app, chorded))["status"] in FINISHED and r, timeout=180, step=0.2,
                       what="the chorded document finished")
        took = time.monotonic() - started
        assert row["status"] == "PRE_ANNOTATED" and row["error"] is None, row
        assert row["attempts"] == 1, row  # never taken over
        assert took > 2 * STALE  # it really waited (6 s) and ran (4 s a section) longer than the stale age
        assert _doc(app, blocker)["attempts"] == 1
        _assert_equals_serial(app, chorded, text)
        log = (ARTIFACTS / f"celery-{name.split('@')[0]}.log").read_text()
        assert f"'vouched': [{chorded}]" in log  # the sweeper kept the waiting chord alive
        assert "'requeued': [" not in log.replace("'requeued': []", "")
        print(f"chord of {len(Pipeline(dict(CONFIG, language='en')).sections(text))} sections finished in "
              f"{took:.1f} s with a stale age of {STALE} s, attempt 1")
    finally:
        stop_process(worker)
        _drop_queue(app, queue)


def test_chord_of_a_killed_worker_is_taken_over_within_the_stale_age(clean_app, database_url, redis_url) -> None:
    """The only worker is killed while a section runs: its section is lost (unacknowledged for an hour).

    The restarted worker runs the sections still queued (they belong to the live attempt), then nothing
    vouches and the sweeper takes the document over after the stale age; the new run stores it once.
    """
    from psan.celery.tasks import pre_process
    app = clean_app
    queue = _queue("kill")
    text = _text()
    sections = len(Pipeline(dict(CONFIG, language="en")).sections(text))
    document = _document(app, _project(app, "killed", CONFIG), "big", text)
    env = service_env(database_url, redis_url, queue, **LEASE_ENV, PSAN_TEST_SLOW_SECTION_SECONDS="3")
    first = _start_slow_worker(env, queue, f"lease-kill-{os.getpid()}-1@%h")
    second = None
    try:
        wait_worker_ready(app, first, f"lease-kill-{os.getpid()}-1@%h")
        with app.app_context():
            started = pre_process.apply_async((document,), queue=queue).get(timeout=120)
        assert started == {"document_id": document, "sections": sections}
        client = redis.Redis.from_url(app.config["REDIS_URL"])
        key = f"{app.config['REDIS_KEY_PREFIX']}:{queue}"
        wait_for(lambda: client.llen(key) == sections - 1, timeout=60, step=0.05, what="the first section taken")
        client.close()
        time.sleep(0.5)  # the first section sleeps in the worker
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        assert _doc(app, document)["status"] == "PROCESSING"

        second = _start_slow_worker(env, queue, f"lease-kill-{os.getpid()}-2@%h")
        spawned = time.monotonic()
        last_beat = None  # of the first attempt: its last section still queued, run by the new worker, or a vouch
        while True:
            now = sql(app, "SELECT attempts, heartbeat_at, clock_timestamp() AS now FROM document WHERE id = %s",
                      (document,))[0]
            if now["attempts"] >= 2:
                break
            if now["heartbeat_at"] is not None:
                last_beat = now["heartbeat_at"]
            assert time.monotonic() - spawned < 120, "not taken over"
            time.sleep(0.05)
        taken_over = time.monotonic() - spawned
        assert last_beat is not None
        quiet = (now["now"] - last_beat).total_seconds()
        # nothing vouched once the chord's visible tasks were done: taken over a stale age (+ a sweep) later
        assert STALE <= quiet < STALE + 0.5 + 2.5, quiet
        assert taken_over < time_limits(len(text), app.config)[0]  # not the document's time limit
        row = wait_for(lambda: (r := _doc(app, document))["status"] in FINISHED and r, timeout=180, step=0.2,
                       what="finished after the takeover")
        assert row["status"] == "PRE_ANNOTATED" and row["error"] is None and row["attempts"] == 2, row
        _assert_equals_serial(app, document, text)
        print(f"killed during a chord of {sections} sections: taken over {quiet:.1f} s after its last beat, "
              f"{taken_over:.1f} s after the restart (time limit {time_limits(len(text), app.config)[0]:.0f} s)")
    finally:
        stop_process(first, kill=True)
        stop_process(second)
        _drop_queue(app, queue)
