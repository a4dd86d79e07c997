from flask_wtf import FlaskForm
from wtforms import FloatField, SelectField, SelectMultipleField, StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange
from wtforms.widgets import CheckboxInput, ListWidget

from psan.store.projects import LANGUAGES


class MultiCheckboxField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class ProjectForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(max=200)])
    language = SelectField("Language", choices=list(LANGUAGES.items()), validate_choice=True)
    pipeline = TextAreaField("Recognizer pipeline (JSON; empty = the language's default)",
                             validators=[Length(max=20000)], render_kw={"rows": 8, "class": "font-monospace"})
    public_threshold = FloatField("Public threshold (rule level ≥ this → public)",
                                  validators=[InputRequired(), NumberRange(-1000, 1000)], default=1.0)
    private_threshold = FloatField("Private threshold (rule level ≤ this → private)",
                                   validators=[InputRequired(), NumberRange(-1000, 1000)], default=-1.0)
    members = MultiCheckboxField("Annotators who may annotate this project", coerce=int, validate_choice=True)
    submit = SubmitField("Save")


class ConfirmDeleteForm(FlaskForm):
    confirm_name = StringField("Type the project name to confirm", validators=[DataRequired()])
    submit = SubmitField("Delete the project and all its documents")
