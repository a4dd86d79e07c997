"""Document statuses as words in the user's language (the codes NEW, PRE_ANNOTATED… are for machines).

Why one helper: the documents list, its live-status JSON, the annotation window and API messages
must all say the same word for a status, in English and in Czech.  Templates use the
``status_name`` filter; JSON answers carry ``status_name`` next to the code.
"""
from __future__ import annotations

from flask import Flask
from flask_babel import lazy_gettext

#: status code → what it means for the people using psan
STATUS_NAMES = {
    "NEW": lazy_gettext("Waiting for recognition"),
    "RECOGNIZED": lazy_gettext("Applying rules"),
    "PRE_ANNOTATED": lazy_gettext("To annotate"),
    "DONE": lazy_gettext("Done"),
    "FAILED": lazy_gettext("Failed"),
}


def status_name(status: object) -> str:
    """The status as a word in the current language; an unknown code is shown as it is."""
    code = getattr(status, "value", status)  # a str-valued Enum or a plain string
    name = STATUS_NAMES.get(str(code))
    return str(name) if name is not None else str(code)


def init_app(app: Flask) -> None:
    app.add_template_filter(status_name, "status_name")
