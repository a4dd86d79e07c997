"""WTForms for the labels pages; field checks delegate to :mod:`psan.labels.validate`."""
from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import SelectField, StringField, SubmitField
from wtforms.validators import ValidationError

from psan.labels import validate
from psan.labels.store import CATEGORIES

CATEGORY_CHOICES = [("", "—")] + [(c, c.title()) for c in CATEGORIES]


def _check(cleaner):
    def check(form, field):
        _, error = cleaner(field.data or "")
        if error:
            raise ValidationError(error[:1].upper() + error[1:] + ".")
    return check


class NewLabelForm(FlaskForm):
    """What annotators may fill in; admins get :class:`LabelForm` with the replacement."""
    name = StringField("Name", validators=[_check(validate.clean_name)])
    category = SelectField("Category", choices=CATEGORY_CHOICES, validate_choice=True)
    submit = SubmitField("Create label")


class LabelForm(NewLabelForm):
    replacement = StringField("Replacement (empty = generated)", validators=[_check(validate.clean_replacement)])
    submit = SubmitField("Save")


class NewAdminLabelForm(LabelForm):
    submit = SubmitField("Create label")


class DeleteForm(FlaskForm):
    submit = SubmitField("Delete")


class ImportForm(FlaskForm):
    file = FileField("CSV file", validators=[FileRequired()])
    submit = SubmitField("Import")
