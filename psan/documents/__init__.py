"""Admin pages for documents: upload, live status list, downloads, decision history, retry, delete."""
from psan.documents import background, history, key, release, versions, views  # noqa: F401 - their routes
from psan.documents.blueprint import bp  # noqa: F401 - registered by psan.web.blueprints
