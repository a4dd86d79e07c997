"""Helpers shared by the admin and annotator page blueprints (labels, rules, documents, projects).

Why a package of its own: the project picker, id checks and the CSV import/export used to live in
``psan.labels`` and were imported from there by the rules and documents pages.
"""
