"""WTForms of the documents pages, and the CSRF check of their POST buttons."""
from flask import abort
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, MultipleFileField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.validators import Length, Optional

from psan.store.admin.projects import LANGUAGES


class UploadForm(FlaskForm):
    project = SelectField(lazy_gettext("Project"), coerce=int, validate_choice=True)
    language = SelectField(lazy_gettext("Language"),
                           choices=[("", lazy_gettext("detect per document (else the project's language)")),
                                    *LANGUAGES.items()],
                           validate_choice=True)
    name = StringField(lazy_gettext("Name of the pasted text"), validators=[Optional(), Length(max=255)])
    text = TextAreaField(lazy_gettext("Paste a text"), render_kw={"rows": 8})
    files = MultipleFileField(lazy_gettext("…or choose .txt, .docx, .odt, .html or .pdf files, or ZIP archives "
                                           "of them"))
    confirm_conversion = BooleanField(lazy_gettext("Convert files that are not valid UTF-8 (only after checking the "
                                                   "preview shown when such a file was refused)"))
    submit = SubmitField(lazy_gettext("Upload"))


class ActionForm(FlaskForm):
    """CSRF-only form for the POST buttons (delete, retry)."""


def check_action_form() -> None:
    """Abort with 400 unless the POST carries the page's CSRF token (the buttons' :class:`ActionForm`)."""
    if not ActionForm().validate_on_submit():
        abort(400)


class SpanImportForm(FlaskForm):
    """Import of another tool's annotation file (the format choices are set by the view from the registry)."""

    format = SelectField(lazy_gettext("Format"), validate_choice=True)
    file = FileField(lazy_gettext("Annotation file (or a ZIP of them, named after the documents)"),
                     validators=[FileRequired()])
    gold = BooleanField(lazy_gettext("This file is a gold standard: its spans are decided private (by you), "
                                     "not only suspicious"))
    submit = SubmitField(lazy_gettext("Import"))
