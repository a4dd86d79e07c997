"""Admin pages for documents: upload, live status list, downloads, decision history, retry, delete."""
from flask import Blueprint

bp = Blueprint("documents", __name__, url_prefix="/documents")

from psan.documents import background, history, key, release, views  # noqa: E402,F401
