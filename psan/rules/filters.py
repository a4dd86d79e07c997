"""The rules list filter, parsed from query (or hidden form) arguments.

Why a class: the same filter drives the page, the CSV export and "delete filtered", and must
round-trip through URLs so the list looks the same after an edit.  The SQL it selects with is
built in :mod:`psan.store.admin.rule_admin`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import abort
from flask_babel import gettext

from psan.runtime import db
from psan.store.admin import labels as store_labels
from psan.store.admin.rule_admin import DECISIONS, RuleSelection
from psan.tool.decisions.rules import RuleType
from psan.web.csvio import has_control_chars
from psan.web.ids import valid_id

RULE_TYPES = [t.value for t in RuleType]
FILTER_KEYS = ("type", "q", "decision", "label", "author")
Q_MAX = 1000


@dataclass(frozen=True)
class RuleFilter(RuleSelection):
    """A :class:`RuleSelection` read from a request, with the arguments to link back to it."""

    @classmethod
    def parse(cls, args: Mapping[str, str], project_id: int) -> RuleFilter:
        """Read the filter; malformed values are a 400, a label of another project a 404."""
        values = {key: (args.get(key) or "").strip() for key in FILTER_KEYS}
        if values["type"] and values["type"] not in RULE_TYPES:
            abort(400, gettext("Unknown rule type."))
        if values["decision"] and values["decision"] not in DECISIONS:
            abort(400, gettext("Unknown decision."))
        if len(values["q"]) > Q_MAX or has_control_chars(values["q"]):
            abort(400, gettext("Bad search text."))
        if values["label"] and values["label"] != "none":
            label_id = valid_id(values["label"])
            if label_id is None:
                abort(400, gettext("Bad label."))
            if not store_labels.label_in_project(db.get_conn(), project_id, label_id):
                abort(404)
            values["label"] = str(label_id)
        if values["author"]:
            author_id = valid_id(values["author"])
            if author_id is None:
                abort(400, gettext("Bad author."))
            values["author"] = str(author_id)
        return cls(**values)

    def args(self) -> dict[str, str]:
        """Non-empty values, for ``url_for`` and hidden form fields."""
        return {key: getattr(self, key) for key in FILTER_KEYS if getattr(self, key)}

    @property
    def active(self) -> bool:
        return bool(self.args())
