"""WTForms for the rules page."""
from __future__ import annotations

import math

from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, FloatField, SubmitField
from wtforms.validators import InputRequired, ValidationError

from psan.store.admin.rule_admin import CONFIDENCE_LIMIT
from psan.web.forms import CsvImportForm


def _finite(form, field) -> None:
    # NumberRange lets NaN through (every comparison with NaN is false); the schema would then raise
    if field.data is None or not math.isfinite(field.data) or abs(field.data) > CONFIDENCE_LIMIT:
        raise ValidationError(gettext("Confidence must be a number between %(low)s and %(high)s.",
                                      low=f"{-CONFIDENCE_LIMIT:g}", high=f"{CONFIDENCE_LIMIT:g}"))


class ConfidenceForm(FlaskForm):
    confidence = FloatField(lazy_gettext("Confidence"), validators=[InputRequired(), _finite])
    submit = SubmitField(lazy_gettext("Save"))


class ImportForm(CsvImportForm):
    create_labels = BooleanField(lazy_gettext("Create missing labels (otherwise unknown label names are errors)"))
    submit = SubmitField(lazy_gettext("Import"))  # declared again: after create_labels on the page
