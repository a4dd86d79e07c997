"""A throw-away psan instance for one measurement: its own database, Redis prefix and Celery queue.

Why: ``python -m ner_eval release`` measures the app users run, so it needs the whole app (schema,
store, views, Celery tasks) on data it may destroy.  As ``make test`` does, the database is
created on the given PostgreSQL server (or an embedded one) and dropped at the end; every Redis
key (rate limits, debounce markers, the Celery queue) carries a prefix of this run only and is
deleted at the end.

Background work runs in this process, at the moment a real worker would long have finished it:
:meth:`Instance.drain` takes every message the app queued (pre-processing, the debounced project
re-annotation, model retraining and predictions) from the run's own queue and runs the task
function with Celery's ``apply`` (same code as the worker, in an app context).  The annotator
calls it before asking for a new window, which a person reading a 300-token window (over a
minute) would never do before the debounced re-annotation (2 s) finished.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask

from psan.runtime import throwaway

#: environment variables naming the servers when no ``--database-url`` / ``--redis-url`` is given
DATABASE_ENV = ("PSAN_TEST_DATABASE_URL",)
REDIS_ENV = ("PSAN_TEST_REDIS_URL",)


def _from_env(names: tuple[str, ...]) -> str | None:
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


@dataclass
class Instance:
    """The running app of one measurement (see the module docstring)."""

    app: Flask
    prefix: str
    tasks_run: int = 0
    #: tasks run by name (what the worker would have done)
    tasks: Counter[str] = field(default_factory=Counter)

    def drain(self, limit: int = 100_000) -> int:
        """Run every queued task in this process (and what they queue in turn); returns how many ran."""
        celery = self.app.extensions["celery"]
        queue = self.app.config["CELERY_QUEUE"]
        ran = 0
        with self.app.app_context(), celery.connection_for_read() as conn:
            simple = conn.SimpleQueue(queue)
            try:
                while ran < limit:
                    try:
                        message = simple.get(block=False)
                    except simple.Empty:
                        break
                    name = message.headers.get("task")
                    args, kwargs, _embed = message.decode()
                    message.ack()
                    task = celery.tasks.get(name)
                    if task is None:  # pragma: no cover - every psan task is registered
                        raise RuntimeError(f"queued task {name!r} is unknown")
                    result = task.apply(args=args, kwargs=kwargs, task_id=message.headers.get("id"))
                    if result.failed():
                        raise RuntimeError(f"background task {name} failed: {result.result!r}")
                    ran += 1
                    self.tasks[name] += 1
            finally:
                simple.close()
        self.tasks_run += ran
        return ran


def app_config(database_url: str, redis_url: str, prefix: str, instance_path: str) -> dict[str, Any]:
    """Flask configuration of a throw-away instance (production settings, plain-HTTP cookies)."""
    return {"PSAN_CONFIG": "testing", "SECRET_KEY": secrets.token_urlsafe(32), "DATABASE_URL": database_url,
            "REDIS_URL": redis_url, "SERVER_URL": "http://localhost", "CELERY_QUEUE": prefix,
            "RATELIMIT_KEY_PREFIX": prefix, "REDIS_KEY_PREFIX": prefix, "INSTANCE_PATH": instance_path,
            # one process runs every task: a large document is recognized whole, not as parallel sections
            "PREPROCESS_SECTIONS_IN_PARALLEL": False,
            # the simulated person calls the API far faster than people or a nightly script would
            "API_RATE_LIMIT": "1000000 per minute"}


@contextlib.contextmanager
def throwaway_instance(database_url: str | None = None, redis_url: str | None = None,
                       **config: Any) -> Iterator[Instance]:
    """A migrated app on a fresh database and a Redis prefix of its own; everything removed afterwards.

    ``database_url``: a PostgreSQL server's maintenance database (default ``PSAN_TEST_DATABASE_URL``,
    else an embedded server); ``redis_url`` likewise (``PSAN_TEST_REDIS_URL``, else embedded).
    """
    from psan import create_app
    from psan.runtime import migrate
    prefix = f"psan-release-{os.getpid()}-{secrets.token_hex(3)}"
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(throwaway.postgres_server(database_url or _from_env(DATABASE_ENV)))
        url = stack.enter_context(throwaway.fresh_database(server, "psan_release"))
        redis = stack.enter_context(throwaway.redis_server(redis_url or _from_env(REDIS_ENV)))
        stack.callback(throwaway.delete_keys, redis, prefix)
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="psan-release-instance-"))
        throwaway.no_wait_for_disk(url)
        migrate.upgrade(url)
        import celery
        previous_celery = celery.current_app._get_current_object()  # noqa: SLF001 - Celery's documented proxy accessor
        # the process's own app (a test session's) gets its shared tasks back: running tasks in process sets
        # the current app, create_app the default one
        stack.callback(previous_celery.set_current)
        stack.callback(previous_celery.set_default)
        app = create_app({**app_config(url, redis, prefix, str(Path(folder))), **config}, environ={})
        from psan.runtime import db
        stack.callback(db.close_pools)  # before the database is dropped
        # no app context stays pushed: each test-client request must get its own (``g``, connection)
        yield Instance(app, prefix)
