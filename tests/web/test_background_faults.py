"""Faults in background work: tasks retry transient database errors with back-off, a task that
fails for good is shown on the documents page and the dashboard, and the decision path logs a broker outage it
handles without a traceback.  Real PostgreSQL (a private, stoppable one where it is stopped), Redis and workers.
"""
from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from psan.celery.retry import TRANSIENT
from tests.documents import add_document
from tests.faults import (
    free_port,
    private_postgres,
    service_env,
    start_worker,
    stop_process,
    wait_worker_ready,
    worker_log_tail,
)
from tests.helpers import default_project
from tests.web.helpers import annotator_client


def test_every_background_task_retries_transient_database_and_broker_errors(app):
    """Celery's own autoretry is on for every registered psan task, with back-off, for the transient errors."""
    import psycopg2
    celery_app = app.extensions["celery"]
    celery_app.loader.import_default_modules()  # the worker imports every task module (the ``imports`` setting)
    tasks = {name: task for name, task in celery_app.tasks.items() if name.startswith("psan.")}
    assert {"psan.pre_process", "psan.re_annotate_project", "psan.retrain_model", "psan.prepare_download"} <= set(tasks)
    for name, task in tasks.items():
        assert hasattr(task, "_orig_run"), name  # wrapped by celery.app.autoretry
        assert psycopg2.OperationalError in task.autoretry_for and psycopg2.InterfaceError in task.autoretry_for
        assert task.retry_backoff and task.max_retries >= 5, name
    assert set(TRANSIENT) >= {psycopg2.OperationalError, psycopg2.InterfaceError}


def test_reannotation_queued_while_postgres_is_down_retries_and_finishes_after_restart(app, redis_url):
    """The audit's case: ``psan.re_annotate_project`` raised OperationalError during a PostgreSQL restart and was
    lost.  Queued while the database is stopped, it now fails, retries with back-off and succeeds once it is back."""
    from psan import create_app
    from tests.services import app_config
    queue = f"psan-bg-{os.getpid()}-pg"
    name = f"bgpg-{os.getpid()}@localhost"
    with private_postgres() as server:
        worker = start_worker(service_env(server.url, redis_url, queue, PSAN_SWEEP_INTERVAL_SECONDS="0"), queue, name)
        try:
            wait_worker_ready(app, worker, name)
            private = create_app({**app_config(server.url, redis_url), "CELERY_QUEUE": queue})
            server.stop()
            result = private.extensions["celery"].send_task("psan.re_annotate_project", args=[1], queue=queue)
            time.sleep(3)
            server.start()
            answer = result.get(timeout=150)
            assert answer["project_id"] == 1, answer
            log = worker_log_tail(name, 400)
            assert "OperationalError" in log and "Retry in" in log, log
        finally:
            stop_process(worker)


def test_a_task_that_fails_for_good_is_shown_on_the_documents_page_and_the_dashboard(clean_app, celery_worker):
    """A task that raises something not transient is not retried; its failure is recorded and both project pages
    show it."""
    app = clean_app
    project = default_project(app)
    celery_app = app.extensions["celery"]
    result = celery_app.send_task("psan.re_annotate_project", args=[project], kwargs={"no_such_argument": 1},
                                  queue=app.config["CELERY_QUEUE"])
    try:
        result.get(timeout=60)
    except TypeError:
        pass
    else:
        raise AssertionError("the task should have failed")
    admin = annotator_client(app, "bg-admin@example.org", "ADMIN", member=False)
    deadline = time.monotonic() + 20
    while True:
        page = admin.get(f"/documents/?project={project}").get_data(as_text=True)
        if 'id="task-failures"' in page or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert 'id="task-failures"' in page and "psan.re_annotate_project" in page and "TypeError" in page
    dashboard = admin.get(f"/workspace/projects/{project}/dashboard").get_data(as_text=True)
    assert 'id="task-failures"' in dashboard and "psan.re_annotate_project" in dashboard


def test_decision_during_a_broker_outage_is_saved_and_logs_no_traceback(clean_app, caplog):
    """With Redis unreachable, a word-type decision (rules changed: a re-annotation to schedule) answers 200 and the
    scheduling failure it handles is one warning line, without a traceback."""
    from psan import create_app
    from tests.services import app_config
    app = clean_app
    doc = add_document(app, "Harper met Jana Berg. Later Harper left. Nobody came.", [("Harper", "P")])
    client = annotator_client(app, "outage@example.org", window_size=60)
    window = client.get("/annotate/api/window").get_json()
    span = window["annotations"][0]
    down = create_app({**app_config(app.config["DATABASE_URL"], f"redis://127.0.0.1:{free_port()}/0"),
                       "RATELIMIT_ENABLED": False})
    outage = down.test_client()
    outage.set_cookie(**_session_cookie(client, app))
    outage.environ_base.update(client.environ_base)
    with caplog.at_level(logging.WARNING):
        answer = outage.post("/annotate/api/decide", json={"document_id": doc, "first_token": span["first_token"],
                                                           "end_token": span["end_token"], "decision": "PRIVATE",
                                                           "scope": "word_type"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json()["rules_changed"] is True
    handled = [r for r in caplog.records if "could not schedule the re-annotation" in r.getMessage()]
    assert handled, [r.getMessage() for r in caplog.records]
    assert all(r.exc_info is None for r in handled) and any("ConnectionError" in r.getMessage() for r in handled)
    assert not [r for r in caplog.records if r.exc_info and isinstance(r.exc_info[1], TRANSIENT)]


def _session_cookie(client, app) -> dict:
    cookie = client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
    assert cookie is not None
    return {"key": cookie.key, "value": cookie.value}


def test_a_worker_waits_until_the_schema_is_migrated(app, redis_url):
    """``run.sh worker`` runs ``flask db wait``: on an empty database it waits and then gives up with a clear
    message; once the migrations are applied it returns at once."""
    from psan import create_app
    from psan.runtime import migrate
    from psan.runtime.throwaway import fresh_database, with_database
    from tests.services import app_config
    assert app.test_cli_runner().invoke(args=["db", "wait", "--timeout", "5"]).exit_code == 0
    server = with_database(app.config["DATABASE_URL"], "postgres")  # (an embedded server's URL has a socket path)
    with fresh_database(server, "psan_wait") as url:
        empty = create_app(app_config(url, redis_url))
        result = empty.test_cli_runner().invoke(args=["db", "wait", "--timeout", "1"])
        assert result.exit_code != 0 and "migration(s) pending" in result.output, result.output
        migrate.upgrade(url)
        result = empty.test_cli_runner().invoke(args=["db", "wait", "--timeout", "5"])
        assert result.exit_code == 0 and "up to date" in result.output, result.output
    assert "flask --app psan db wait" in (Path(__file__).resolve().parents[2] / "run.sh").read_text()
