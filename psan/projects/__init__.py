"""Admin pages for projects: language, recognizer pipeline, thresholds, annotators, deletion, model."""
from flask import Blueprint

bp = Blueprint("projects", __name__, url_prefix="/projects")

from psan.projects import model_views, views  # noqa: E402,F401
