"""Codes shown to people as words in their language: document statuses, categories, decisions, how a span
was decided, rule types, logged actions, and timestamps as dates.

Why one module: the release report and the rules pages showed PRIVATE, pre-annotation, CONTACT,
word_type or ``2026-11-25T09:46:05.123456+00:00`` to a Czech data steward.  The machine-readable
outputs (``release.json``, CSV exports) keep the codes; pages use these template filters.  An
unknown code is shown as it is.  The documents list, its live-status JSON, the annotation window and
API messages all say the same word for a status; JSON answers carry ``status_name`` next to the code.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from flask import Flask, g, has_app_context
from flask_babel import format_datetime, format_decimal, gettext, lazy_gettext

#: document status code → what it means for the people using psan
STATUS_NAMES = {
    "NEW": lazy_gettext("Waiting for recognition"),
    "PROCESSING": lazy_gettext("Processing"),
    "RECOGNIZED": lazy_gettext("Applying rules"),
    "PRE_ANNOTATED": lazy_gettext("To annotate"),
    "DONE": lazy_gettext("Done"),
    "FAILED": lazy_gettext("Failed"),
}

CATEGORIES = {
    "PERSON": lazy_gettext("person"), "LOCATION": lazy_gettext("place"), "ORGANIZATION": lazy_gettext("organization"),
    "DATE": lazy_gettext("date"), "ID": lazy_gettext("identifier"), "CONTACT": lazy_gettext("contact"),
    "OTHER": lazy_gettext("other"), "SENSITIVE": lazy_gettext("special category"),
    "DEMOGRAPHIC": lazy_gettext("occupation or origin"),
}
DECISIONS = {"PUBLIC": lazy_gettext("public"), "PRIVATE": lazy_gettext("private"),
             "SUSPICIOUS": lazy_gettext("undecided")}
HOW = {"person": lazy_gettext("by a person"), "pre-annotation": lazy_gettext("by pre-annotation"),
       "rule": lazy_gettext("by a rule"), "undecided": lazy_gettext("undecided")}
RULE_TYPES = {"WORD_TYPE": lazy_gettext("word type"), "NE_TYPE": lazy_gettext("entity type"),
              "LEMMA": lazy_gettext("lemma"), "PATTERN": lazy_gettext("pattern"), "MODEL": lazy_gettext("model")}
ACTIONS = {"token": lazy_gettext("this span"), "word_type": lazy_gettext("by word type"),
           "ne_type": lazy_gettext("by entity type"), "entity": lazy_gettext("whole entity"),
           "label": lazy_gettext("label"), "entity_merge": lazy_gettext("entities merged"),
           "entity_split": lazy_gettext("entity split off"), "rule_confidence": lazy_gettext("rule confidence"),
           "rule_delete": lazy_gettext("rule deleted"), "undo": lazy_gettext("undone"),
           "accept": lazy_gettext("suggestions accepted"),
           "search": lazy_gettext("bulk decision from the search"), "adjudicate": lazy_gettext("adjudication"),
           "double-mask": lazy_gettext("masked: the two versions disagree"),
           "span_import": lazy_gettext("imported gold standard"),
           "rule_import": lazy_gettext("rules imported"), "rule_decision": lazy_gettext("rule decision changed"),
           "lookup": lazy_gettext("this place")}

#: how a rule votes (psan.annotate.detail: the sign of its confidence)
VOTES = {"P": lazy_gettext("public"), "S": lazy_gettext("private"), "C": lazy_gettext("no vote")}

#: download kinds (psan.documents.views.DOWNLOAD_KINDS) by what the file holds
DOWNLOAD_KINDS = {"input": lazy_gettext("original text"), "xml": lazy_gettext("annotated XML"),
                  "remove": lazy_gettext("names removed"), "tag": lazy_gettext("names as categories"),
                  "pseudonymize": lazy_gettext("pseudonymized")}

#: native NE codes of the recognizers (spaCy/OntoNotes, CoNLL, psan's own) as words; any other code (the 46
#: CNEC types …) is named by its coarse category (psan.tool.text.categories.category_of)
NE_TYPES = {
    "PERSON": lazy_gettext("person"), "PER": lazy_gettext("person"), "TITLED_NAME": lazy_gettext("name with a title"),
    "NORP": lazy_gettext("nationality, religious or political group"), "GPE": lazy_gettext("country, city or state"),
    "LOC": lazy_gettext("place"), "FAC": lazy_gettext("building or facility"), "ORG": lazy_gettext("organization"),
    "CARDINAL": lazy_gettext("number"), "ORDINAL": lazy_gettext("ordinal number"), "DATE": lazy_gettext("date"),
    "TIME": lazy_gettext("time"), "MONEY": lazy_gettext("amount of money"), "PERCENT": lazy_gettext("percentage"),
    "QUANTITY": lazy_gettext("quantity"), "EVENT": lazy_gettext("event"), "PRODUCT": lazy_gettext("product"),
    "WORK_OF_ART": lazy_gettext("title of a work"), "LAW": lazy_gettext("law"), "LANGUAGE": lazy_gettext("language"),
    "MISC": lazy_gettext("other name"),
}

#: document languages (psan.store.admin.projects.LANGUAGES) by name
LANGUAGES = {"en": lazy_gettext("English"), "cs": lazy_gettext("Czech"), "pl": lazy_gettext("Polish"),
             "sv": lazy_gettext("Swedish"), "sk": lazy_gettext("Slovak"), "sl": lazy_gettext("Slovenian")}


def _name(table: dict[str, Any], code: object) -> str:
    """The code's word in the request's language, translated once per request and code.

    Why once: a page of 500 search results names a decision and a category on every row, and each
    translation looks up the request's translations again (a third of the page's time, measured).
    """
    key = str(getattr(code, "value", code))
    cache = g.setdefault("psan_code_names", {}) if has_app_context() else {}
    known = cache.get((id(table), key))
    if known is not None:
        return known
    name = table.get(key, table.get(key.upper()))
    cache[(id(table), key)] = text = str(name) if name is not None else key
    return text


def status_name(status: object) -> str:
    """The document status as a word in the current language; an unknown code is shown as it is."""
    code = getattr(status, "value", status)  # a str-valued Enum or a plain string
    name = STATUS_NAMES.get(str(code))
    return str(name) if name is not None else str(code)


def document_status_word(row: Mapping[str, Any]) -> str:
    """The status of a :func:`psan.store.corpus.documents.list_documents` row, including what the sweeper knows."""
    if row.get("stale"):
        return gettext("Stalled (worker stopped)")
    if row["status"] == "NEW" and row.get("unqueued"):
        return gettext("Waiting for the queue")
    return status_name(row["status"])


def retryable(row: Mapping[str, Any]) -> bool:
    """Retry only where nothing else will finish the document: FAILED, a run whose worker died, or a
    document queued long ago that no worker took (its message may be lost)."""
    return row["status"] == "FAILED" or bool(row.get("stale")) or bool(row.get("waiting_long"))


def category_name(code: object) -> str:
    return _name(CATEGORIES, code)


def decision_name(code: object) -> str:
    return _name(DECISIONS, code)


def how_name(code: object) -> str:
    return _name(HOW, code)


def rule_type_name(code: object) -> str:
    return _name(RULE_TYPES, code)


def action_name(code: object) -> str:
    return _name(ACTIONS, code)


def vote_name(code: object) -> str:
    return _name(VOTES, code)


def download_kind_name(code: object) -> str:
    return _name(DOWNLOAD_KINDS, code)


#: what a pre-trained classifier's span looks like where it stands (the shape of its type ``CLS_<CATEGORY>_<SHAPE>``)
CLASSIFIER_SHAPES = {"CAP": lazy_gettext("a capitalized word"), "INITIAL": lazy_gettext("a sentence's first word"),
                     "LOWER": lazy_gettext("lower-case words"), "NUM": lazy_gettext("a number")}


def ne_type_name(code: object) -> str:
    """A recognizer's type as a word: its own name when known, else its category's (never the bare code).

    A pre-trained classifier's type says so, with the shape it stands for ("person found by the classifier: a
    capitalized word"): a rule on it decides that classifier's spans of that shape, not every person, and the
    rules list must not read as if it did.
    """
    from psan.tool.detection.classifier.span_types import pretrained_shape
    from psan.tool.text.categories import category_of, classifier_type_category
    key = str(getattr(code, "value", code))
    if key.upper() in NE_TYPES:
        return str(NE_TYPES[key.upper()])
    classified = classifier_type_category(key)
    shape = CLASSIFIER_SHAPES.get(pretrained_shape(key) or "")
    if classified is not None and shape is not None:
        return gettext("%(category)s found by the classifier: %(shape)s", category=category_name(classified.value),
                       shape=shape)
    category = category_of(key)
    return category_name(category.value if hasattr(category, "value") else category) if key else key


def duration(hours: float | None) -> str:
    """Hours of work as people say them: "about 3.5 h", "about 12 min", "under a minute" (never "about 0.0 h")."""
    if hours is None:
        return "–"
    if hours >= 1:
        return gettext("about %(hours)s h", hours=format_decimal(round(hours, 1)))
    minutes = round(hours * 60)
    if minutes < 1:
        return gettext("under a minute")
    return gettext("about %(minutes)s min", minutes=minutes)


def language_name(code: object) -> str:
    return _name(LANGUAGES, code)


def when(value: object) -> str:
    """A timestamp (``datetime`` or ISO text) as a date and time in the user's language, to the minute."""
    if value is None or value == "":
        return "–"
    if not isinstance(value, datetime):
        try:
            value = datetime.fromisoformat(str(value))
        except ValueError:
            return str(value)
    return format_datetime(value, "short")


def init_app(app: Flask) -> None:
    for function in (status_name, category_name, decision_name, how_name, rule_type_name, action_name,
                     language_name, when, vote_name, download_kind_name, ne_type_name, duration):
        app.add_template_filter(function, function.__name__)
