"""Entry point for the worker: ``celery -A psan.celery.worker worker`` (also starts the sweeper)."""
from psan import create_app
from psan.celery import sweeper  # noqa: F401 - connects the sweeper to the worker's start and stop

flask_app = create_app()
celery_app = flask_app.extensions["celery"]
