"""The annotation workspace (issue 24): the annotator's home, the admin's project dashboard, the
concordance search with bulk decisions, double annotation and adjudication."""
from flask import Blueprint

bp = Blueprint("workspace", __name__, url_prefix="/workspace")

from psan.workspace import dashboard_views, double_views, home_views, search_views  # noqa: E402,F401
