"""Admin page for a project's automatic rules: filtered list, confidence edits, deletes, CSV.

Only project-level rules are managed here; lookup rules (``annotation_id`` set) belong to the
annotation that created them and disappear with it.
"""
from flask import Blueprint

bp = Blueprint("rules", __name__, url_prefix="/rules")

from psan.rules import views  # noqa: E402,F401
