"""WTForms for the account pages (CSRF comes from Flask-WTF)."""
from flask import current_app
from flask_babel import gettext, lazy_gettext, lazy_pgettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, Email, EqualTo, Length, ValidationError

from psan.identity import password_policy


def _strong_enough(form, field) -> None:
    minimum = current_app.config["PASSWORD_MIN_LENGTH"]
    if len(field.data or "") < minimum:
        raise ValidationError(gettext("Use at least %(minimum)s characters.", minimum=minimum))
    if len(field.data) > 1024:
        raise ValidationError(gettext("Use at most 1024 characters."))


class LoginForm(FlaskForm):
    email = EmailField(lazy_gettext("E-mail"), validators=[DataRequired(), Length(max=254)])
    password = PasswordField(lazy_gettext("Password"), validators=[DataRequired(), Length(max=1024)])
    remember = BooleanField(lazy_gettext("Keep me logged in"))
    submit = SubmitField(lazy_gettext("Log in"))


class NewPasswordForm(FlaskForm):
    password = PasswordField(lazy_gettext("New password"), validators=[DataRequired(), _strong_enough])
    confirm = PasswordField(lazy_gettext("Repeat the new password"),
                            validators=[DataRequired(),
                                        EqualTo("password", message=lazy_gettext("The passwords differ."))])
    submit = SubmitField(lazy_gettext("Set password"))
    #: e-mail of the account whose password is being set (the view sets it when it knows the account)
    account_email: str | None = None

    def _policy_context(self) -> tuple[str | None, str | None]:
        """(e-mail, current password) the new password must differ from."""
        return self.account_email, None

    def validate_password(self, field) -> None:
        if field.errors:
            return
        email, current = self._policy_context()
        message = password_policy.problem(field.data or "", email, current)
        if message:
            raise ValidationError(message)


class ChangePasswordForm(NewPasswordForm):
    current = PasswordField(lazy_gettext("Current password"), validators=[DataRequired(), Length(max=1024)])
    submit = SubmitField(lazy_gettext("Change password"))

    def _policy_context(self) -> tuple[str | None, str | None]:
        return self.account_email, self.current.data


class RegisterAdminForm(NewPasswordForm):
    name = StringField(lazy_pgettext("person", "Name"), validators=[DataRequired(), Length(max=200)])
    email = EmailField(lazy_gettext("E-mail"),
                       validators=[DataRequired(), Email(check_deliverability=False), Length(max=254)])
    submit = SubmitField(lazy_gettext("Create the admin account"))

    def _policy_context(self) -> tuple[str | None, str | None]:
        return self.email.data, None


class ForgotPasswordForm(FlaskForm):
    email = EmailField(lazy_gettext("E-mail"), validators=[DataRequired(), Length(max=254)])
    submit = SubmitField(lazy_gettext("Send a reset link"))
