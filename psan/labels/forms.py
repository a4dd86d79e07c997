"""WTForms for the labels pages; field checks delegate to :mod:`psan.labels.validate`."""
from __future__ import annotations

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, SubmitField
from wtforms.validators import ValidationError

from psan.labels import validate
from psan.store.admin.labels import CATEGORIES
from psan.web.code_names import CATEGORIES as CATEGORY_WORDS

CATEGORY_CHOICES = [("", "—")] + [(c, CATEGORY_WORDS.get(c, c.title())) for c in CATEGORIES]


def _check(cleaner):
    def check(form, field):
        _, error = cleaner(field.data or "")
        if error:
            raise ValidationError(error[:1].upper() + error[1:] + ".")
    return check


class NewLabelForm(FlaskForm):
    """What annotators may fill in; admins get :class:`LabelForm` with the replacement."""
    name = StringField(lazy_gettext("Name"), validators=[_check(validate.clean_name)])
    category = SelectField(lazy_gettext("Category"), choices=CATEGORY_CHOICES, validate_choice=True)
    submit = SubmitField(lazy_gettext("Create label"))


class LabelForm(NewLabelForm):
    replacement = StringField(lazy_gettext("Replacement (empty = generated)"),
                              validators=[_check(validate.clean_replacement)])
    submit = SubmitField(lazy_gettext("Save"))


class NewAdminLabelForm(LabelForm):
    submit = SubmitField(lazy_gettext("Create label"))
