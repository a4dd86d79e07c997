"""The release gate of a project that reviews by risk: no output leaves before the QA bound allows it.

Why one place: every way out of the building (a document's download, the project ZIP, a download prepared in
the background) must ask the same question.
"""
from __future__ import annotations

from flask import abort
from flask_babel import gettext

from psan.runtime import db
from psan.store.publish import output as store_output
from psan.store.review import risk_qa as store_risk_qa


def refuse_unreviewed(project_id: int, kind: str) -> None:
    """A project reviewed by risk releases nothing until its QA bound is below its target (409 with why)."""
    if kind not in store_output.OUTPUT_MODES or not store_risk_qa.reviews_by_risk(db.get_conn(), project_id):
        return
    review = store_risk_qa.summary(db.get_conn(), project_id)
    if review["blocked"]:
        bound = "–" if review["bound"] is None else f"{100 * review['bound']:.2f} %"
        abort(409, gettext("The release waits for the QA sample of unread text: the bound on missed mentions is "
                           "%(bound)s, the project's target %(target).2f %%. Review the sample on the release page.",
                           bound=bound, target=100 * review["target"]))
