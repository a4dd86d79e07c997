"""The token page's form (Flask-WTF: CSRF-protected like every page form)."""
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, Length

from psan.projects.forms import MultiCheckboxField


class TokenForm(FlaskForm):
    name = StringField(lazy_gettext("Token name (what the script is for)"),
                       validators=[DataRequired(), Length(max=200)])
    account = SelectField(lazy_gettext("Acts as account"), coerce=int)
    scope = SelectField(lazy_gettext("Scope"), choices=[
        ("read", lazy_gettext("read: projects, documents, spans, rules, labels, reports")),
        ("annotate", lazy_gettext("annotate: the account's annotation windows and decisions")),
        ("admin", lazy_gettext("admin: everything the admin pages do"))])
    all_projects = BooleanField(lazy_gettext("All projects (also those created later)"))
    projects = MultiCheckboxField(lazy_gettext("Projects"), coerce=int)
    submit = SubmitField(lazy_gettext("Create token"))
