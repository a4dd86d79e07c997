from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, IntegerField, PasswordField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, Email, Length, NumberRange, Optional

ROLE_CHOICES = [("USER", "Annotator"), ("ADMIN", "Admin")]


class AccountForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=200)])
    role = SelectField("Role", choices=ROLE_CHOICES, validate_choice=True)
    window_size = IntegerField("Annotation window (tokens)", validators=[DataRequired(), NumberRange(10, 1_000_000)])
    active = BooleanField("Active", default=True)
    submit = SubmitField("Save")


class NewAccountForm(AccountForm):
    email = EmailField("E-mail", validators=[DataRequired(), Email(check_deliverability=False), Length(max=254)])
    password = PasswordField("Initial password (leave empty to send an invitation link)",
                             validators=[Optional(), Length(min=10, max=1024)])
    submit = SubmitField("Create account")


class DeleteForm(FlaskForm):
    submit = SubmitField("Delete")
