"""Pseudonymization labels of a project: admin pages, CSV key export/import and an annotator JSON API.

Annotators (role USER) may list label names and create labels in projects they are members of,
but never see replacements: replacements are the pseudonymization key.
"""
from psan.labels import api, views  # noqa: F401 - their routes
from psan.labels.blueprint import bp  # noqa: F401 - registered by psan.create_app
