"""Forms every admin page uses the same way: a CSRF-protected delete button and a CSV upload."""
from __future__ import annotations

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import SubmitField


class DeleteForm(FlaskForm):
    submit = SubmitField(lazy_gettext("Delete"))


class CsvImportForm(FlaskForm):
    file = FileField(lazy_gettext("CSV file"), validators=[FileRequired()])
    submit = SubmitField(lazy_gettext("Import"))
