"""Celery wiring (Flask's "Background Tasks with Celery" pattern): tasks run inside an app context.

Redis is broker and result backend.  Tasks are acknowledged late so a worker killed mid-task
leaves the message in the queue and another worker retries it; tasks are written to be idempotent.
"""
from __future__ import annotations

from celery import Celery, Task
from flask import Flask


def redis_key_prefix(app: Flask) -> str:
    """``REDIS_KEY_PREFIX:``: every Redis key psan writes starts with it (instances may share a database)."""
    return f"{app.config.get('REDIS_KEY_PREFIX') or 'psan'}:"


def celery_init_app(app: Flask) -> Celery:
    class FlaskTask(Task):
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
        task_always_eager=app.config.get("CELERY_TASK_ALWAYS_EAGER", False),
        task_default_queue=app.config.get("CELERY_QUEUE", "celery"),
        # a task whose worker died is redelivered after this many seconds (Redis transport)
        broker_transport_options={"visibility_timeout": app.config.get("CELERY_VISIBILITY_TIMEOUT", 3600),
                                  "global_keyprefix": redis_key_prefix(app)},
        # results and every kombu key (queues, bindings, unacked) live under the instance's prefix too
        result_backend_transport_options={"global_keyprefix": redis_key_prefix(app)},
        imports=("psan.celery.tasks", "psan.celery.model_tasks"),
    )
    celery_app.set_default()
    app.extensions["celery"] = celery_app
    return celery_app
