from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FloatField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from psan.store.admin.projects import LANGUAGES


class MultiCheckboxField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class ProjectForm(FlaskForm):
    name = StringField(lazy_gettext("Name"), validators=[DataRequired(), Length(max=200)])
    language = SelectField(lazy_gettext("Language"), choices=list(LANGUAGES.items()), validate_choice=True)
    pipeline = TextAreaField(lazy_gettext("Recognizer pipeline (JSON; empty = the language's default)"),
                             validators=[Length(max=20000)], render_kw={"rows": 8, "class": "font-monospace"})
    public_threshold = FloatField(lazy_gettext("Public threshold (rule level ≥ this → public)"),
                                  validators=[InputRequired(), NumberRange(-1000, 1000)], default=1.0)
    private_threshold = FloatField(lazy_gettext("Private threshold (rule level ≤ this → private)"),
                                   validators=[InputRequired(), NumberRange(-1000, 1000)], default=-1.0)
    ask_labels = BooleanField(lazy_gettext("Ask for labels: open the label dialog after each span marked private "
                                           "(otherwise annotators label with e when they choose)"), default=False)
    sensitive_types = StringField(
        lazy_gettext("Also sensitive (never public by suggestion, accept or learned types): categories or entity "
                     "types, comma-separated (addresses, dates of birth, IDs, account numbers, e-mails and phones "
                     "always are)"), validators=[Length(max=2000)])
    annotators_choose_document = BooleanField(
        lazy_gettext("Annotators may choose a document (they then see the names of the project's documents with "
                     "spans waiting)"), default=False)
    lookups_everywhere = BooleanField(
        lazy_gettext("A place, an organisation, a date … decided private makes its words suspicious in every "
                     "document, not only in its own (names, IDs and contacts always are; for projects whose "
                     "documents are one case file; applies to decisions made from now on)"), default=False)
    tracked_changes = SelectField(
        lazy_gettext("Tracked changes in uploaded Word and LibreOffice files (either way no revision mark or author "
                     "is left; applies to files uploaded from now on)"),
        choices=[("accept", lazy_gettext("accept: keep insertions, drop deletions")),
                 ("reject", lazy_gettext("reject: keep deletions, drop insertions"))], default="accept",
        validate_choice=True)
    double_percent = IntegerField(
        lazy_gettext("Double annotation: share of finished windows (in percent) that a second annotator "
                     "annotates independently (0 = none)"), validators=[Optional(), NumberRange(0, 100)], default=0)
    review_mode = SelectField(
        lazy_gettext("Review depth"), validate_choice=True, default="full",
        choices=[("full", lazy_gettext("Read everything: every sentence is read by a person")),
                 ("risk", lazy_gettext("Review by risk: spans are reviewed in their sentence, text is read where the "
                                       "project's risk model expects missed names, a QA sample certifies the rest"))])
    qa_percent = FloatField(
        lazy_gettext("Review by risk: largest share of missed mentions (in percent, one-sided 95 % bound of the QA "
                     "sample) at which the project may be released"),
        validators=[Optional(), NumberRange(0.01, 20)], default=0.5)
    members = MultiCheckboxField(lazy_gettext("Annotators who may annotate this project"), coerce=int,
                                 validate_choice=True)
    submit = SubmitField(lazy_gettext("Save"))


class ConfirmDeleteForm(FlaskForm):
    confirm_name = StringField(lazy_gettext("Type the project name to confirm"), validators=[DataRequired()])
    submit = SubmitField(lazy_gettext("Delete the project and all its documents"))
