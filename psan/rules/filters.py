"""The rules list filter, parsed from query (or hidden form) arguments into parameterized SQL.

Why a class: the same filter drives the page, the CSV export and "delete filtered", and must
round-trip through URLs so the list looks the same after an edit.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import abort
from flask_babel import gettext

from psan import db
from psan.labels.csvio import has_control_chars
from psan.labels.projects import valid_id
from psan.tool.rules import RuleType

RULE_TYPES = [t.value for t in RuleType]
DECISION_SQL = {"public": "r.confidence > 0", "private": "r.confidence < 0", "suspicious": "r.confidence = 0"}
FILTER_KEYS = ("type", "q", "decision", "label", "author")
Q_MAX = 1000


def like_pattern(text: str) -> str:
    """A substring ILIKE pattern matching ``text`` literally (``%``, ``_`` and ``\\`` escaped)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


@dataclass(frozen=True)
class RuleFilter:
    type: str = ""
    q: str = ""
    decision: str = ""
    label: str = ""     # a label id, "none" (rules without a label) or ""
    author: str = ""    # an account id or ""

    @classmethod
    def parse(cls, args: Mapping[str, str], project_id: int) -> RuleFilter:
        """Read the filter; malformed values are a 400, a label of another project a 404."""
        values = {key: (args.get(key) or "").strip() for key in FILTER_KEYS}
        if values["type"] and values["type"] not in RULE_TYPES:
            abort(400, gettext("Unknown rule type."))
        if values["decision"] and values["decision"] not in DECISION_SQL:
            abort(400, gettext("Unknown decision."))
        if len(values["q"]) > Q_MAX or has_control_chars(values["q"]):
            abort(400, gettext("Bad search text."))
        if values["label"] and values["label"] != "none":
            label_id = valid_id(values["label"])
            if label_id is None:
                abort(400, gettext("Bad label."))
            if not db.query_one("SELECT 1 FROM label WHERE id = %s AND project_id = %s", (label_id, project_id)):
                abort(404)
            values["label"] = str(label_id)
        if values["author"]:
            author_id = valid_id(values["author"])
            if author_id is None:
                abort(400, gettext("Bad author."))
            values["author"] = str(author_id)
        return cls(**values)

    def where(self, project_id: int) -> tuple[str, list[Any]]:
        clauses = ["r.project_id = %s", "r.annotation_id IS NULL"]
        params: list[Any] = [project_id]
        if self.type:
            clauses.append("r.type = %s")
            params.append(self.type)
        if self.q:
            clauses.append("r.condition ILIKE %s ESCAPE '\\'")
            params.append(like_pattern(self.q))
        if self.decision:
            clauses.append(DECISION_SQL[self.decision])
        if self.label == "none":
            clauses.append("r.label_id IS NULL")
        elif self.label:
            clauses.append("r.label_id = %s")
            params.append(int(self.label))
        if self.author:
            clauses.append("r.author_id = %s")
            params.append(int(self.author))
        return " AND ".join(clauses), params

    def args(self) -> dict[str, str]:
        """Non-empty values, for ``url_for`` and hidden form fields."""
        return {key: getattr(self, key) for key in FILTER_KEYS if getattr(self, key)}

    @property
    def active(self) -> bool:
        return bool(self.args())
