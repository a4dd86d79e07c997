"""The label key as CSV: ``name,category,replacement`` (all three columns required, in this order).

Import upserts on the label name: existing labels get the file's category and replacement (an empty
cell clears them), missing ones are created.  Labels absent from the file are left alone.
"""
from __future__ import annotations

from typing import Any

from flask import Response
from flask_babel import gettext

from psan.labels import validate
from psan.runtime import db
from psan.store.admin import labels as store_labels
from psan.web.csvio import csv_response, read_csv, sorted_errors

COLUMNS = ("name", "category", "replacement")


def export_key(project: dict[str, Any]) -> Response:
    labels = store_labels.list_labels(db.get_conn(), project["id"])
    rows = [(r["name"], r["category"], r["replacement"]) for r in labels]
    return csv_response(f"labels-project-{project['id']}.csv", COLUMNS, rows)


def import_key(project: dict[str, Any], data: bytes, account_id: int) -> tuple[list[str], int, int]:
    """Validate every line, then upsert all or nothing; returns (errors, created, updated)."""
    parsed = read_csv(data, COLUMNS)
    errors = list(parsed.errors)
    rows: list[tuple[str, str | None, str | None]] = []
    seen: dict[str, int] = {}
    for row in parsed.rows:
        name, name_error = validate.clean_name(row.cells["name"])
        category, category_error = validate.clean_category(row.cells["category"])
        replacement, replacement_error = validate.clean_replacement(row.cells["replacement"])
        problems = [e for e in (name_error, category_error, replacement_error) if e]
        if not name_error and name in seen:
            problems.append(gettext("duplicate of line %(line)s", line=seen[name]))
        elif not name_error:
            seen[name] = row.line
        if problems:
            errors.append(gettext("line %(line)s: %(problems)s", line=row.line, problems="; ".join(problems)))
        else:
            rows.append((name, category, replacement))
    if errors:
        return sorted_errors(errors), 0, 0
    if not rows:
        return [gettext("the file has a header but no labels")], 0, 0
    created, changed = store_labels.upsert_labels(db.get_conn(), project["id"], rows, account_id)
    return [], created, changed
