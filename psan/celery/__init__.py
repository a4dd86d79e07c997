"""Celery wiring (Flask's "Background Tasks with Celery" pattern): tasks run inside an app context.

Redis is broker and result backend.  Tasks are acknowledged late so a worker killed mid-task
leaves the message in the queue and another worker retries it; tasks are written to be idempotent.
Pre-processing is also tracked in the database (PROCESSING + heartbeat) and the worker's sweeper
(:mod:`psan.celery.sweeper`) re-queues stale work long before the visibility timeout.
"""
from __future__ import annotations

from celery import Celery, Task
from flask import Flask

#: give up on an unreachable Redis within about two seconds (callers then fall back, see psan.celery.queue)
_SHORT_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}


def redis_key_prefix(app: Flask) -> str:
    """``REDIS_KEY_PREFIX:``: every Redis key psan writes starts with it (instances may share a database)."""
    return f"{app.config.get('REDIS_KEY_PREFIX') or 'psan'}:"


def celery_init_app(app: Flask) -> Celery:
    from psan.celery import retry

    class FlaskTask(Task):
        # every task retries transient database and broker errors with back-off (psan.celery.retry)
        autoretry_for = retry.RETRY_POLICY["autoretry_for"]
        retry_backoff = retry.RETRY_POLICY["retry_backoff"]
        retry_backoff_max = retry.RETRY_POLICY["retry_backoff_max"]
        retry_jitter = retry.RETRY_POLICY["retry_jitter"]
        max_retries = retry.RETRY_POLICY["max_retries"]

        def __call__(self, *args, **kwargs):
            with app.app_context():
                return self.run(*args, **kwargs)

    redis_url = app.config.get("REDIS_URL") or "memory://"
    celery_app = Celery(app.name, task_cls=FlaskTask)
    celery_app.conf.update(
        broker_url=redis_url,
        result_backend=app.config.get("REDIS_URL") or "cache+memory://",
        task_ignore_result=False,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=3600,
        broker_connection_retry_on_startup=True,
        # a worker that lost Redis keeps reconnecting instead of exiting after 100 tries
        broker_connection_max_retries=None,
        broker_connection_timeout=app.config.get("BROKER_CONNECT_TIMEOUT", 2),
        # publishing while Redis is down fails within seconds; the document stays NEW and the sweeper queues it
        task_publish_retry_policy=_SHORT_RETRY,
        redis_socket_connect_timeout=app.config.get("BROKER_CONNECT_TIMEOUT", 2),
        redis_socket_timeout=app.config.get("REDIS_SOCKET_TIMEOUT", 10),
        task_always_eager=app.config.get("CELERY_TASK_ALWAYS_EAGER", False),
        task_default_queue=app.config.get("CELERY_QUEUE", "celery"),
        # a task whose worker died is redelivered after this many seconds (Redis transport)
        broker_transport_options={"visibility_timeout": app.config.get("CELERY_VISIBILITY_TIMEOUT", 3600),
                                  "global_keyprefix": redis_key_prefix(app)},
        # results and every kombu key (queues, bindings, unacked) live under the instance's prefix too;
        # the result backend (the same Redis) would otherwise retry 20 times, one second apart, per call
        result_backend_transport_options={"global_keyprefix": redis_key_prefix(app), "retry_policy": _SHORT_RETRY},
        imports=("psan.celery.tasks", "psan.celery.sections", "psan.celery.model_tasks",
                 "psan.celery.download_tasks", "psan.celery.webhooks"),
    )
    celery_app.set_default()
    celery_app.flask_app = app  # for handlers running outside a task (e.g. hard time limits)
    app.extensions["celery"] = celery_app
    return celery_app
