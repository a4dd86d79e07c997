from flask_wtf import FlaskForm
from wtforms import MultipleFileField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.validators import Length, Optional

from psan.store.projects import LANGUAGES


class UploadForm(FlaskForm):
    project = SelectField("Project", coerce=int, validate_choice=True)
    language = SelectField("Language", choices=[("", "the project's language")] + list(LANGUAGES.items()),
                           validate_choice=True)
    name = StringField("Name of the pasted text", validators=[Optional(), Length(max=255)])
    text = TextAreaField("Paste a text", render_kw={"rows": 8})
    files = MultipleFileField("…or choose .txt files or ZIP archives of them")
    submit = SubmitField("Upload")


class ActionForm(FlaskForm):
    """CSRF-only form for the POST buttons (delete, retry)."""
