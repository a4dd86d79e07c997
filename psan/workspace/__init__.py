"""The annotation workspace: the annotator's home, the admin's project dashboard, the
concordance search with bulk decisions, double annotation and adjudication."""
from psan.workspace import dashboard_views, double_views, home_views, search_views  # noqa: F401 - their routes
from psan.workspace.blueprint import bp  # noqa: F401 - registered by psan.create_app
