"""WTForms for the rules page."""
from __future__ import annotations

import math

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, FloatField, SubmitField
from wtforms.validators import InputRequired, ValidationError

from psan.rules.store import CONFIDENCE_LIMIT


def _finite(form, field) -> None:
    # NumberRange lets NaN through (every comparison with NaN is false); the schema would then raise
    if field.data is None or not math.isfinite(field.data) or abs(field.data) > CONFIDENCE_LIMIT:
        raise ValidationError(f"Confidence must be a number between {-CONFIDENCE_LIMIT:g} and {CONFIDENCE_LIMIT:g}.")


class ConfidenceForm(FlaskForm):
    confidence = FloatField("Confidence", validators=[InputRequired(), _finite])
    submit = SubmitField("Save")


class DeleteForm(FlaskForm):
    submit = SubmitField("Delete")


class ImportForm(FlaskForm):
    file = FileField("CSV file", validators=[FileRequired()])
    create_labels = BooleanField("Create missing labels (otherwise unknown label names are errors)")
    submit = SubmitField("Import")
