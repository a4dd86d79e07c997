"""Admin pages for documents: upload, live status list, downloads, decision history, retry, delete."""
from psan.documents import annotations, background, history, key, release, versions, views  # noqa: F401 - routes
from psan.documents.blueprint import bp  # noqa: F401 - registered by psan.create_app
