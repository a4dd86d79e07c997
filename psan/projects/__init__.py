"""Admin pages for projects: language, recognizer pipeline, thresholds, annotators, deletion."""
from flask import Blueprint

bp = Blueprint("projects", __name__, url_prefix="/projects")

from psan.projects import views  # noqa: E402,F401
