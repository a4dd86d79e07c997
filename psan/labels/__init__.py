"""Pseudonymization labels of a project: admin pages, CSV key export/import and an annotator JSON API.

Annotators (role USER) may list label names and create labels in projects they are members of,
but never see replacements: replacements are the pseudonymization key.
"""
from flask import Blueprint

bp = Blueprint("labels", __name__, url_prefix="/labels")

from psan.labels import api, views  # noqa: E402,F401
