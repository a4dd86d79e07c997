"""The annotation window: a page for annotators and admins plus its JSON API (``/annotate/api/…``).

Annotators only ever see the window the server assigned to them (see :mod:`psan.store.windows`);
every text and decision request is checked against it.  Admins may open any document anywhere.
"""
from flask import Blueprint

bp = Blueprint("annotate", __name__, url_prefix="/annotate")

from psan.annotate import api, views  # noqa: E402,F401
