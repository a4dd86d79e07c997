from flask_babel import lazy_gettext, lazy_pgettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, IntegerField, PasswordField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, Email, Length, NumberRange, Optional, ValidationError

from psan.identity import password_policy

ROLE_CHOICES = [("USER", lazy_gettext("Annotator")), ("ADMIN", lazy_gettext("Admin"))]


class AccountForm(FlaskForm):
    name = StringField(lazy_pgettext("person", "Name"), validators=[DataRequired(), Length(max=200)])
    role = SelectField(lazy_gettext("Role"), choices=ROLE_CHOICES, validate_choice=True)
    window_size = IntegerField(lazy_gettext("Annotation window (tokens)"),
                               validators=[DataRequired(), NumberRange(10, 1_000_000)])
    active = BooleanField(lazy_gettext("Active"), default=True)
    submit = SubmitField(lazy_gettext("Save"))


class NewAccountForm(AccountForm):
    email = EmailField(lazy_gettext("E-mail"),
                       validators=[DataRequired(), Email(check_deliverability=False), Length(max=254)])
    password = PasswordField(lazy_gettext("Initial password (leave empty to send an invitation link)"),
                             validators=[Optional(), Length(min=10, max=1024)])
    submit = SubmitField(lazy_gettext("Create account"))

    def validate_password(self, field) -> None:
        if field.data and not field.errors:
            message = password_policy.problem(field.data, self.email.data)
            if message:
                raise ValidationError(message)
