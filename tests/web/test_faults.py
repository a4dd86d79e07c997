"""Reliability under faults (time limits, a killed worker, Redis and PostgreSQL outages), on real services.

Every test runs its own Celery worker (and, for outages, its own web server and a private Redis or
PostgreSQL it may stop) on a queue of its own, so the session's worker and the machine's shared
servers are never disturbed.  Measured figures are printed (``pytest -s``) for the closing note.
"""
from __future__ import annotations

import os
import re
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import requests

from psan.celery.queue import enqueue
from psan.celery.runs import time_limits
from tests.documents import add_document, plain_sentences, token_index
from tests.faults import (
    WORKER_OPTIONS,
    private_postgres,
    private_redis,
    service_env,
    start_web,
    start_worker,
    stop_process,
    wait_for,
    wait_worker_ready,
    web_login,
    worker_log_tail,
)
from tests.helpers import PASSWORD, csrf_token, default_project, make_account, sql
from tests.services import REPO

pytestmark = pytest.mark.worker

PIPELINE = '{"tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}'
#: ~45k tokens with ~5k pattern entities per copy: seconds of work on the test machine
TEXT = " ".join(f"Report {i} was sent by jan.novak{i % 50}@example.org on 2021-05-{i % 28 + 1:02d} to "
                f"+420 777 123 {i % 1000:03d}. The patient felt fine." for i in range(1700))
#: work that overruns the time-limit test's 0.2 s and 0.5 s by a wide margin on a fast, quiet machine too (one
#: copy of TEXT once finished within 0.2 s there)
SLOW_TEXT = " ".join([TEXT] * 8)
FINISHED = ("PRE_ANNOTATED", "DONE", "FAILED")
PO_FILE = Path(__file__).resolve().parents[2] / "psan" / "translations" / "cs" / "LC_MESSAGES" / "messages.po"


def _queue(tag: str) -> str:
    return f"psan-faults-{os.getpid()}-{tag}"


@pytest.fixture(autouse=True)
def _keep_default_pipeline(clean_app):
    """Give the default project back its pipeline (the database reset between tests keeps that row)."""
    project = default_project(clean_app)
    saved = sql(clean_app, "SELECT pipeline::text AS pipeline FROM project WHERE id = %s", (project,))[0]["pipeline"]
    yield
    sql(clean_app, "UPDATE project SET pipeline = %s::jsonb WHERE id = %s", (saved, project))


def _regex_project(app) -> int:
    project = default_project(app)
    sql(app, "UPDATE project SET pipeline = %s::jsonb WHERE id = %s", (PIPELINE, project))
    return project


def _new_document(app, project: int, name: str, text: str = TEXT) -> int:
    return sql(app, "INSERT INTO document (project_id, name, language, text) VALUES (%s, %s, 'en', %s) RETURNING id",
               (project, name, text))[0]["id"]


def _doc(app, document_id: int) -> dict:
    return sql(app, "SELECT status::text AS status, error, attempts, queued_at, heartbeat_at, token_count "
                    "FROM document WHERE id = %s", (document_id,))[0]


def _wait_status(app, document_id: int, statuses: tuple[str, ...], timeout: float) -> dict:
    return wait_for(lambda: (row := _doc(app, document_id))["status"] in statuses and row, timeout, 0.05,
                    f"document {document_id} in {statuses}")


def _listed(client, project: int, document_id: int) -> dict:
    data = client.get(f"/documents/status?project={project}").get_json()
    return next(d for d in data["documents"] if d["id"] == document_id)


def _czech(msgid: str) -> str:
    """The Czech translation of a UI string, read from the catalogue source (compiled after merging)."""
    from babel.messages.pofile import read_po
    with PO_FILE.open("rb") as handle:
        message = read_po(handle).get(msgid)
    return message.string if message is not None and not message.fuzzy else ""


# --- time limits and the per-project cap -------------------------------------------------------
def test_time_limit_scaled_to_size_marks_failed_with_message(clean_app, database_url, redis_url):
    app = clean_app
    soft_small, hard_small = time_limits(10_000, app.config)
    soft_big, hard_big = time_limits(5_000_000, app.config)
    assert soft_small < soft_big < hard_big and hard_small - soft_small == hard_big - soft_big
    assert soft_big >= 5 * (soft_small - app.config["TASK_TIME_LIMIT_BASE_SECONDS"])

    queue = _queue("limit")
    name = f"limit-{os.getpid()}@%h"
    # prefork: Celery enforces time limits in pool children (the solo pool cannot interrupt itself)
    worker = start_worker(service_env(database_url, redis_url, queue, PSAN_SWEEP_INTERVAL_SECONDS="0"),
                          queue, name, pool="prefork")
    try:
        wait_worker_ready(app, worker, name)
        document = _new_document(app, _regex_project(app), "slow.txt", SLOW_TEXT)
        tiny = {**app.config, "CELERY_QUEUE": queue, "TASK_TIME_LIMIT_BASE_SECONDS": 0.2,
                "TASK_TIME_LIMIT_SECONDS_PER_MCHAR": 0.0, "TASK_TIME_LIMIT_GRACE_SECONDS": 30}
        with app.app_context():
            assert enqueue(tiny, [document]).queued == [document]
        row = _wait_status(app, document, FINISHED, timeout=120)
        assert row["status"] == "FAILED", row
        assert "time limit (0.2 s for" in row["error"] and "Retry" in row["error"], row["error"]
        assert worker.poll() is None  # the worker survives its task's limit

        # the hard limit alone (no soft one to catch): the pool child is killed, the main process marks FAILED
        from psan.celery.tasks import pre_process
        killed = _new_document(app, _regex_project(app), "killed.txt", SLOW_TEXT)
        with app.app_context():
            pre_process.apply_async((killed,), time_limit=0.5, queue=queue)
        row = _wait_status(app, killed, FINISHED, timeout=120)
        assert row["status"] == "FAILED" and "hard time limit" in row["error"], row
        assert worker.poll() is None
    finally:
        stop_process(worker)


def test_project_cap_queues_the_rest_later(clean_app, database_url, redis_url):
    app = clean_app
    project = _regex_project(app)
    documents = [_new_document(app, project, f"small-{i}.txt", f"Mail jan{i}@example.org today.") for i in range(5)]
    queue = _queue("cap")
    capped = {**app.config, "CELERY_QUEUE": queue, "MAX_QUEUED_PER_PROJECT": 2}
    with app.app_context():
        first = enqueue(capped, documents)
    assert first.queued == documents[:2] and first.refused == []
    waiting = sql(app, "SELECT count(*) AS n FROM document WHERE status = 'NEW' AND queued_at IS NULL")[0]["n"]
    assert waiting == 3
    name = f"cap-{os.getpid()}@%h"
    worker = start_worker(service_env(database_url, redis_url, queue, PSAN_MAX_QUEUED_PER_PROJECT="2",
                                      PSAN_SWEEP_INTERVAL_SECONDS="0.3", PSAN_SWEEP_UNQUEUED_GRACE_SECONDS="0"),
                          queue, name)
    in_flight = []
    try:
        def all_done():
            in_flight.append(sql(app, "SELECT count(*) AS n FROM document WHERE queued_at IS NOT NULL AND status IN "
                                      "('NEW', 'PROCESSING', 'RECOGNIZED')")[0]["n"])
            rows = sql(app, "SELECT status::text AS status FROM document WHERE id = ANY(%s)", (documents,))
            return all(r["status"] in ("PRE_ANNOTATED", "DONE") for r in rows)
        wait_for(all_done, timeout=120, step=0.05, what="all five documents processed")
    finally:
        stop_process(worker)
    assert max(in_flight) <= 2, in_flight


# --- PROCESSING, heartbeat, sweeper ----------------------------------------------------------------------
def test_worker_killed_document_finishes_after_restart(clean_app, admin_client, database_url, redis_url,
                                                                  monkeypatch):
    app = clean_app
    monkeypatch.setitem(app.config, "PROCESSING_STALE_SECONDS", 3)  # the web app's view of "stale", as the worker's
    project = _regex_project(app)
    document = _new_document(app, project, "big.txt", "\n".join([TEXT] * 3))
    queue = _queue("kill")
    # the visibility timeout stays at its default (an hour): only the sweeper can bring the document back
    env = service_env(database_url, redis_url, queue, PSAN_PROCESSING_STALE_SECONDS="3",
                      PSAN_PROCESSING_HEARTBEAT_SECONDS="0.5", PSAN_SWEEP_INTERVAL_SECONDS="0.5")
    first = start_worker(env, queue, f"kill-{os.getpid()}-1@%h")
    second = None
    try:
        wait_worker_ready(app, first, f"kill-{os.getpid()}-1@%h")
        with app.app_context():
            assert enqueue({**app.config, "CELERY_QUEUE": queue}, [document]).queued == [document]
        running = _wait_status(app, document, ("PROCESSING",), timeout=60)
        listed = _listed(admin_client, project, document)
        assert listed["status"] == "PROCESSING" and listed["status_word"] == "Processing"
        assert not listed["retryable"] and listed["busy"]
        assert _czech("Processing") == "Zpracovává se"
        time.sleep(1.5)
        beat = _doc(app, document)
        assert beat["status"] in ("PROCESSING", "RECOGNIZED"), "finished too fast to be killed"
        assert beat["heartbeat_at"] > running["heartbeat_at"]

        os.killpg(first.pid, 9)  # the whole worker: main process and pool
        first.wait(timeout=10)
        killed_at = time.monotonic()
        time.sleep(4)  # older than PROCESSING_STALE_SECONDS, and no worker left to sweep
        stuck = _doc(app, document)
        assert stuck["status"] in ("PROCESSING", "RECOGNIZED"), stuck
        listed = _listed(admin_client, project, document)
        assert listed["retryable"] and listed["status_word"] == "Stalled (worker stopped)"
        assert _czech("Stalled (worker stopped)")
        page = admin_client.get(f"/documents/?project={project}").get_data(as_text=True)
        assert "Stalled (worker stopped)" in page

        second_name = f"kill-{os.getpid()}-2@%h"
        second = start_worker(env, queue, second_name)
        restarted_at = time.monotonic()

        def claimed_again() -> bool:
            assert second.poll() is None, f"the restarted worker exited:\n{worker_log_tail(second_name)}"
            return _doc(app, document)["attempts"] >= 2

        wait_for(claimed_again, timeout=120, step=0.05, what="claimed again",
                 describe=lambda: f"{_doc(app, document)}\n{worker_log_tail(second_name)}")
        reclaimed_at = time.monotonic()
        assert reclaimed_at - restarted_at < 20  # worker start-up, then the first sweep queues it at once
        done = _wait_status(app, document, FINISHED, timeout=300)
        finished_at = time.monotonic()
        assert done["status"] == "PRE_ANNOTATED", done
        assert done["attempts"] == 2 and done["error"] is None, (done, worker_log_tail(second_name))
        counts = sql(app, "SELECT (SELECT count(*) FROM token WHERE document_id = %(d)s) AS tokens, "
                          "(SELECT count(*) FROM annotation WHERE document_id = %(d)s) AS annotations",
                     {"d": document})[0]
        assert counts["tokens"] == done["token_count"] > 100_000 and counts["annotations"] > 10_000
        listed = _listed(admin_client, project, document)
        assert not listed["retryable"] and listed["status_word"] == "To annotate"
        print(f"killed worker: restarted {restarted_at - killed_at:.1f} s later; processing again "
              f"{reclaimed_at - restarted_at:.1f} s and finished {finished_at - restarted_at:.1f} s after the restart "
              f"(visibility timeout 3600 s, stale age 3 s)")
    finally:
        stop_process(first, kill=True)
        stop_process(second)


def test_repeatedly_abandoned_document_fails_with_retry(clean_app, admin_client, monkeypatch):
    from psan.celery.sweeper import sweep_once
    app = clean_app
    project = _regex_project(app)
    document = _new_document(app, project, "cursed.txt", "Mail jan@example.org today.")
    sql(app, "UPDATE document SET status = 'PROCESSING', attempts = 3, queued_at = now() - interval '1 hour', "
             "heartbeat_at = now() - interval '1 hour' WHERE id = %s", (document,))
    monkeypatch.setitem(app.config, "PROCESSING_MAX_ATTEMPTS", 3)
    assert sweep_once(app)["failed"] == [document]
    row = _doc(app, document)
    assert row["status"] == "FAILED" and "stopped 3 times" in row["error"]
    assert _listed(admin_client, project, document)["retryable"]
    token = csrf_token(admin_client, f"/documents/?project={project}")
    monkeypatch.setitem(app.config, "CELERY_QUEUE", _queue("nobody"))  # queued, never taken: status stays NEW
    assert admin_client.post(f"/documents/{document}/retry", data={"csrf_token": token}).status_code == 302
    row = _doc(app, document)
    assert row["status"] == "NEW" and row["attempts"] == 0 and row["queued_at"] is not None
    # a waiting document is not retried by hand (the sweeper queues it)
    admin_client.post(f"/documents/{document}/retry", data={"csrf_token": token})
    assert "Only failed or stalled" in admin_client.get(f"/documents/?project={project}").get_data(as_text=True)
    assert _doc(app, document)["attempts"] == 0
    import redis
    redis.Redis.from_url(app.config["REDIS_URL"]).delete(_queue("nobody"))  # the message nobody takes


# --- Redis outage --------------------------------------------------------------------------------------
def _upload(session: requests.Session, base: str, project: int, text: str, name: str) -> requests.Response:
    html = session.get(f"{base}/documents/upload?project={project}", timeout=30).text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    return session.post(f"{base}/documents/upload", data={"csrf_token": token, "project": str(project),
                                                          "language": "", "text": text, "name": name},
                        timeout=60)


def _word_rule_votes(app, document_id: int) -> int:
    """Annotations of a document voted on by a word-type rule (made by a decision)."""
    return sql(app, "SELECT count(*) AS n FROM annotation_rule ar JOIN annotation a ON a.id = ar.annotation_id "
                    "JOIN rule r ON r.id = ar.rule_id WHERE a.document_id = %s AND r.type = 'WORD_TYPE'",
               (document_id,))[0]["n"]


def test_redis_outage_login_works_uploads_queued_later_worker_reconnects(clean_app, database_url):
    app = clean_app
    project = _regex_project(app)
    make_account(app, "admin@example.org", "ADMIN")
    doc_a = add_document(app, "Jan Novak met Eva in Brno. " + plain_sentences(0, 3), [("Novak", "P")], project)
    doc_b = add_document(app, "Petr Novak lives in Praha. " + plain_sentences(9, 3), [("Novak", "P")], project)
    queue = _queue("redis")
    web = worker = None
    with private_redis() as server:
        env = service_env(database_url, server.url, queue, PSAN_SWEEP_INTERVAL_SECONDS="1",
                          PSAN_SWEEP_UNQUEUED_GRACE_SECONDS="1", PSAN_PROCESSING_STALE_SECONDS="10",
                          PSAN_PROCESSING_HEARTBEAT_SECONDS="1")
        try:
            web, base = start_web(env, "redis-outage")
            # the production options (run.sh); PSAN_TEST_WORKER_OPTIONS tries others (e.g. gossip on)
            options = tuple(os.environ.get("PSAN_TEST_WORKER_OPTIONS", " ".join(WORKER_OPTIONS)).split())
            worker = start_worker(env, queue, f"redis-{os.getpid()}@%h", pool="prefork", options=options)
            admin = web_login(base, "admin@example.org", PASSWORD)
            assert _upload(admin, base, project, "Before: mail jan@example.org.", "before").status_code == 200
            before = sql(app, "SELECT id FROM document WHERE name = 'before'")[0]["id"]
            _wait_status(app, before, FINISHED, timeout=120)

            server.stop()
            stopped_at = time.monotonic()
            statuses = Counter()
            fresh = requests.Session()
            second = web_login(base, "admin@example.org", PASSWORD)  # rate limits fall back to memory
            statuses["login"] = 302
            for path in ("/", "/documents/", f"/documents/status?project={project}", "/system",
                         f"/projects/{project}/model", "/annotate/"):
                response = second.get(base + path, timeout=30)
                assert response.status_code in (200, 503), (path, response.status_code, response.text[:300])
                assert "Traceback" not in response.text
                statuses[response.status_code] += 1
            # an annotator's decision that makes a rule: saved, and the other document's re-annotation is
            # remembered in PostgreSQL until the sweeper can schedule it
            csrf = re.search(r'<meta name="csrf-token" content="([^"]+)"', second.get(base + "/annotate/",
                                                                                     timeout=30).text).group(1)
            api = second.post(base + "/annotate/api/open", json={"document_id": doc_a}, timeout=30,
                              headers={"X-CSRFToken": csrf})
            assert api.status_code == 200, api.text[:300]
            decided_doc, other_doc = api.json()["window"]["document_id"], doc_b
            assert decided_doc == doc_a
            novak = token_index(app, decided_doc, "Novak")
            decide = second.post(base + "/annotate/api/decide", timeout=30, headers={"X-CSRFToken": csrf},
                                 json={"document_id": decided_doc, "first_token": novak, "end_token": novak + 1,
                                       "decision": "PRIVATE", "scope": "word_type"})
            assert decide.status_code in (200, 503), decide.text[:300]
            assert decide.headers["Content-Type"].startswith("application/json")
            statuses[f"decide {decide.status_code}"] += 1
            logged = sql(app, "SELECT count(*) AS n FROM decision_log WHERE document_id = %s", (decided_doc,))[0]["n"]
            assert logged == (1 if decide.status_code == 200 else 0)
            assert _word_rule_votes(app, other_doc) == 0
            # an admin's rule change is saved too (JSON answer of the rules page), its re-annotation deferred
            rule = sql(app, "SELECT id FROM rule WHERE project_id = %s AND type = 'NE_TYPE' AND condition = 'P'",
                       (project,))[0]["id"]
            changed = second.post(f"{base}/rules/{project}/{rule}/confidence", timeout=30,
                                  headers={"Accept": "application/json", "X-CSRFToken": csrf},
                                  data={"confidence": "-0.5", "csrf_token": csrf})
            assert changed.status_code == 200 and changed.json()["confidence"] == -0.5, changed.text[:300]
            statuses["rule change 200"] += 1
            assert sql(app, "SELECT reannotate_pending_since FROM project WHERE id = %s",
                       (project,))[0]["reannotate_pending_since"] is not None
            health = fresh.get(base + "/health", timeout=30)
            assert health.status_code == 200 and health.json()["status"] == "degraded"
            assert health.json()["redis"]["ok"] is False and health.json()["database"]["ok"] is True
            during = _upload(second, base, project, "During: call +420 777 123 456.", "during")
            assert during.status_code == 200 and "queued automatically" in during.text
            during_id = sql(app, "SELECT id FROM document WHERE name = 'during'")[0]["id"]
            assert _doc(app, during_id)["status"] == "NEW" and _doc(app, during_id)["queued_at"] is None
            time.sleep(max(0.0, 10 - (time.monotonic() - stopped_at)))

            server.start()
            back_at = time.monotonic()
            done = _wait_status(app, during_id, FINISHED, timeout=180)
            recovered = time.monotonic() - back_at
            # recognized (its phone number is private from the pre-annotation, so it may be DONE already)
            assert done["status"] in ("PRE_ANNOTATED", "DONE"), done
            assert worker.poll() is None, "the worker died during the outage"
            after = _upload(admin, base, project, "After: mail eva@example.org.", "after")
            assert after.status_code == 200
            after_id = sql(app, "SELECT id FROM document WHERE name = 'after'")[0]["id"]
            assert _wait_status(app, after_id, FINISHED, timeout=120)["status"] in ("PRE_ANNOTATED", "DONE")
            assert fresh.get(base + "/health", timeout=30).json()["status"] == "ok"
            if decide.status_code == 200:  # the rule reaches the other document once Redis is back
                wait_for(lambda: _word_rule_votes(app, other_doc) > 0, timeout=60, what="the other document")
                assert sql(app, "SELECT reannotate_pending_since FROM project WHERE id = %s",
                           (project,))[0]["reannotate_pending_since"] is None
            web_log = (Path(__file__).resolve().parents[2] / "test-artifacts" / "web-redis-outage.log").read_text()
            assert "falling back to in-memory storage" in web_log
            worker_log = (Path(__file__).resolve().parents[2] / "test-artifacts" /
                          f"celery-redis-{os.getpid()}.log").read_text()
            assert "AttributeError" not in worker_log
            print(f"Redis outage {back_at - stopped_at:.1f} s, pages {dict(statuses)}; the upload made during "
                  f"it finished {recovered:.1f} s after Redis came back")
        finally:
            stop_process(worker)
            stop_process(web)


# --- PostgreSQL down and restarted ----------------------------------------------------------------------
@pytest.fixture()
def private_pg_web(redis_url):
    """The app on a private PostgreSQL (stoppable) with an admin account."""
    import subprocess
    import sys

    with private_postgres() as server:
        env = service_env(server.url, redis_url, _queue("pg"), PSAN_SWEEP_INTERVAL_SECONDS="0")
        subprocess.run([sys.executable, "-m", "flask", "--app", "psan", "create-admin", "--email",  # noqa: S603
                        "admin@example.org", "--name", "Admin", "--password", PASSWORD],
                       cwd=REPO, env=env, check=True, capture_output=True)
        web, base = start_web(env, "postgres")
        try:
            yield server, base
        finally:
            stop_process(web)


def test_error_pages_and_health_without_database(private_pg_web):
    server, base = private_pg_web
    admin = web_login(base, "admin@example.org", PASSWORD)
    assert admin.get(base + "/documents/", timeout=10).status_code == 200
    assert requests.get(base + "/health", timeout=10).json() == {"status": "ok", "database": {"ok": True},
                                                                 "redis": {"ok": True}}
    server.stop()
    health = requests.get(base + "/health", timeout=10)
    assert health.status_code == 503
    assert health.json()["status"] == "down" and health.json()["database"]["ok"] is False
    assert health.json()["redis"]["ok"] is True
    page = admin.get(base + "/documents/", timeout=10)
    assert page.status_code == 503 and "database is temporarily unavailable" in page.text
    assert "<html" in page.text and "Traceback" not in page.text
    api = admin.get(base + "/annotate/api/window", headers={"Accept": "application/json"}, timeout=10)
    assert api.status_code == 503 and "database is temporarily unavailable" in api.json()["error"]
    missing = admin.get(base + "/no/such/page", timeout=10)
    assert missing.status_code in (404, 503) and "Traceback" not in missing.text
    server.start()
    assert wait_for(lambda: admin.get(base + "/documents/", timeout=10).status_code == 200, timeout=30)


def _load(base: str, sessions: list[requests.Session], results: list, stop: threading.Event) -> list[threading.Thread]:
    """One thread per session requesting a database-backed page until ``stop``; (start, end, status) rows."""
    def run(session: requests.Session) -> None:
        while not stop.is_set():
            start = time.monotonic()
            try:
                code = session.get(base + "/documents/", timeout=10).status_code
            except requests.RequestException:
                code = -1  # no answer: a hang or a reset connection
            results.append((start, time.monotonic(), code))
    threads = [threading.Thread(target=run, args=(s,)) for s in sessions]
    for thread in threads:
        thread.start()
    return threads


def _burst(base: str, sessions: list[requests.Session], seconds: float) -> Counter:
    results: list = []
    stop = threading.Event()
    threads = _load(base, sessions, results, stop)
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return Counter(code for _, _, code in results)


def test_postgres_restart_under_load_pool_recovers(private_pg_web):
    server, base = private_pg_web
    sessions = [web_login(base, "admin@example.org", PASSWORD) for _ in range(6)]
    # 1. restarted while idle: the pool holds six dead connections, and not one request may meet them
    assert set(_burst(base, sessions, 1.5)) == {200}
    server.restart()
    idle_after = _burst(base, sessions, 1.5)
    assert set(idle_after) == {200}, idle_after

    # 2. restarted under load: requests in flight get a 503 with a message, never a 500 or no answer
    results: list[tuple[float, float, int]] = []
    stop = threading.Event()
    threads = _load(base, sessions, results, stop)
    try:
        time.sleep(2)
        restart_at = time.monotonic()
        server.restart()
        restarted_at = time.monotonic()
        time.sleep(3)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    codes = Counter(code for _, _, code in results)
    assert codes[500] == 0 and codes[-1] == 0, codes
    assert set(codes) <= {200, 503}, codes
    after = Counter(code for start, _, code in results if start > restarted_at)
    assert sum(after.values()) > 10 and set(after) == {200}, after
    last_error = max((end for _, end, code in results if code != 200), default=restart_at)
    print(f"PostgreSQL restart took {restarted_at - restart_at:.2f} s; requests {dict(codes)}; "
          f"last 503 {last_error - restart_at:.2f} s after the restart began; {dict(after)} after it; "
          f"idle pool after a restart: {dict(idle_after)}")


def test_deployed_workers_run_without_gossip():
    """run.sh (compose) and `make run` start the worker with the options the outage test uses."""
    root = Path(__file__).resolve().parents[2]
    run_sh = (root / "run.sh").read_text()
    devstack = (root / "psan" / "commands" / "devstack.py").read_text()
    for option in WORKER_OPTIONS:
        assert option in run_sh and f'"{option}"' in devstack, option
