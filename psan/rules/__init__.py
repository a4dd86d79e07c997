"""Admin page for a project's automatic rules: filtered list, confidence edits, deletes, CSV.

Only project-level rules are managed here; lookup rules (``annotation_id`` set) belong to the
annotation that created them and disappear with it.
"""
from psan.rules import offer_views, views  # noqa: F401 - their routes
from psan.rules.blueprint import bp  # noqa: F401 - registered by psan.create_app
