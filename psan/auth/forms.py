"""WTForms for the account pages (CSRF comes from Flask-WTF)."""
from flask import current_app
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, Email, EqualTo, Length, ValidationError


def _strong_enough(form, field) -> None:
    minimum = current_app.config["PASSWORD_MIN_LENGTH"]
    if len(field.data or "") < minimum:
        raise ValidationError(f"Use at least {minimum} characters.")
    if len(field.data) > 1024:
        raise ValidationError("Use at most 1024 characters.")


class LoginForm(FlaskForm):
    email = EmailField("E-mail", validators=[DataRequired(), Length(max=254)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=1024)])
    remember = BooleanField("Keep me logged in")
    submit = SubmitField("Log in")


class NewPasswordForm(FlaskForm):
    password = PasswordField("New password", validators=[DataRequired(), _strong_enough])
    confirm = PasswordField("Repeat the new password",
                            validators=[DataRequired(), EqualTo("password", message="The passwords differ.")])
    submit = SubmitField("Set password")


class ChangePasswordForm(NewPasswordForm):
    current = PasswordField("Current password", validators=[DataRequired(), Length(max=1024)])
    submit = SubmitField("Change password")


class RegisterAdminForm(NewPasswordForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=200)])
    email = EmailField("E-mail", validators=[DataRequired(), Email(check_deliverability=False), Length(max=254)])
    submit = SubmitField("Create the admin account")


class ForgotPasswordForm(FlaskForm):
    email = EmailField("E-mail", validators=[DataRequired(), Length(max=254)])
    submit = SubmitField("Send a reset link")
