"""Admin pages for projects: language, recognizer pipeline, thresholds, annotators, deletion, model, webhook."""
from psan.projects import model_views, views, webhook_views  # noqa: F401 - their routes
from psan.projects.blueprint import bp  # noqa: F401 - registered by psan.create_app
