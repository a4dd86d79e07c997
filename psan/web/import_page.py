"""The CSV import page of the labels and rules admin: upload, all-or-nothing import, errors listed."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import redirect, render_template, request, url_for

from psan.runtime import db
from psan.web.forms import CsvImportForm


def csv_import_page(project: dict[str, Any], form: CsvImportForm, template: str, index_endpoint: str,
                    run: Callable[[bytes], list[str]], **context: Any):
    """``run`` imports the uploaded bytes and returns the errors; without errors (it flashed what it did)
    the page redirects to the project's list, otherwise the form is shown again with every error and
    the request's transaction is rolled back, so nothing of a bad file stays."""
    errors: list[str] = []
    if form.validate_on_submit():
        errors = run(form.file.data.read())
        if not errors:
            return redirect(url_for(index_endpoint, project=project["id"]))
    if request.method == "POST":
        db.mark_rollback()
    return render_template(template, project=project, form=form, errors=errors, **context)
