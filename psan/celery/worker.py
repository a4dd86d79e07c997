"""Entry point for the worker: ``celery -A psan.celery.worker worker``."""
from psan import create_app

flask_app = create_app()
celery_app = flask_app.extensions["celery"]
