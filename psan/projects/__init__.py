"""Admin pages for projects: language, recognizer pipeline, thresholds, annotators, deletion, model."""
from psan.projects import model_views, views  # noqa: F401 - their routes
from psan.projects.blueprint import bp  # noqa: F401 - registered by psan.web.blueprints
