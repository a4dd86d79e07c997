"""Rules as CSV.

Columns: ``type,condition,decision,label,author`` (required, in this order), then optionally
``confidence`` and ``case_sensitive`` (any order).  Exports always write all seven so export →
import is lossless.

* ``decision`` is PUBLIC / PRIVATE / SUSPICIOUS, meaning confidence +1 / −1 / 0.  When a
  ``confidence`` cell is filled it wins, and the decision (if not empty) must agree with its sign.
* ``label`` is a label name of the target project; unknown names are errors unless the admin ticks
  "create missing labels" (then they are created without category or replacement).
* ``author`` is informational: an e-mail of an existing account is kept as the author, anything
  else (empty, unknown e-mail) makes the importing admin the author.
* ``case_sensitive`` is true/false (also 1/0, yes/no); empty means true.
* Conditions: WORD_TYPE and LEMMA conditions are split by the document tokenizer and stored as
  tokens joined by single spaces ("Novák," → "Novák ,"), like rules made in the annotation window;
  other kinds are stripped.
* Upsert on (type, condition, case_sensitive): existing rules get the file's confidence, label and
  author.  Rules missing from the file are kept.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from flask import Response
from flask_babel import gettext

from psan.labels import validate
from psan.rules.filters import RULE_TYPES, RuleFilter
from psan.runtime import db
from psan.store.admin import accounts as store_accounts
from psan.store.admin import labels as store_labels
from psan.store.admin import rule_admin
from psan.tool.decisions.rules import SEQUENCE_KINDS, split_condition
from psan.tool.text.tokens import tokenize
from psan.web.csvio import csv_response, has_control_chars, read_csv, sorted_errors

REQUIRED = ("type", "condition", "decision", "label", "author")
OPTIONAL = ("confidence", "case_sensitive")
CONDITION_MAX = 1000
BOOLEANS = {"": True, "true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def export_rules(project: dict[str, Any], rule_filter: RuleFilter) -> Response:
    rules = rule_admin.list_rules(db.get_conn(), project["id"], rule_filter)
    rows = [(r["type"], r["condition"], rule_admin.decision_of(r["confidence"]), r["label_name"], r["author_email"],
             r["confidence"], r["case_sensitive"]) for r in rules]
    return csv_response(f"rules-project-{project['id']}.csv", REQUIRED + OPTIONAL, rows)


def normalize_condition(rule_type: str, condition: str) -> str:
    """The stored form: sequence conditions are split by the document tokenizer and joined by single
    spaces (the convention of :mod:`psan.store.admin.rules`), other kinds are stripped."""
    if rule_type not in SEQUENCE_KINDS:
        return condition.strip()
    if not condition.strip():
        return ""
    return " ".join(split_condition(condition, tokenize))


@dataclass
class ImportResult:
    errors: list[str] = field(default_factory=list)
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    labels_created: int = 0
    unknown_authors: int = 0


@dataclass
class _Row:
    type: str
    condition: str
    case_sensitive: bool
    confidence: float
    label: str | None
    author: str


def _confidence(cells: dict[str, str], problems: list[str]) -> float | None:
    decision = cells["decision"].strip().upper()
    if decision and decision not in rule_admin.DECISION_CONFIDENCE:
        problems.append(gettext("decision %(value)s is not PUBLIC, PRIVATE or SUSPICIOUS",
                                value=repr(cells["decision"].strip()[:30])))
        return None
    raw = cells.get("confidence", "").strip()
    if not raw:
        if not decision:
            problems.append(gettext("decision is empty"))
            return None
        return rule_admin.DECISION_CONFIDENCE[decision]
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or abs(value) > rule_admin.CONFIDENCE_LIMIT:
        problems.append(gettext("confidence %(value)s is not a number between -1000 and 1000", value=repr(raw[:30])))
        return None
    if decision and rule_admin.decision_of(value) != decision:
        problems.append(gettext("confidence %(value)s contradicts decision %(decision)s", value=raw, decision=decision))
        return None
    return value


def _parse_row(cells: dict[str, str], labels: dict[str, int], create_labels: bool) -> tuple[_Row | None, list[str]]:
    problems: list[str] = []
    rule_type = cells["type"].strip().upper()
    if rule_type not in RULE_TYPES:
        problems.append(gettext("unknown type %(value)s (use one of %(types)s)", value=repr(cells["type"].strip()[:30]),
                                types=", ".join(RULE_TYPES)))
    condition = normalize_condition(rule_type, cells["condition"])
    if has_control_chars(cells["condition"].strip()):  # before the tokenizer silently drops them
        problems.append(gettext("condition contains control characters"))
    elif not condition:
        problems.append(gettext("condition is empty"))
    elif len(condition) > CONDITION_MAX:
        problems.append(gettext("condition is longer than %(limit)s characters", limit=CONDITION_MAX))
    confidence = _confidence(cells, problems)
    case_sensitive = BOOLEANS.get(cells.get("case_sensitive", "").strip().lower())
    if case_sensitive is None:
        problems.append(gettext("case_sensitive must be true or false"))
    label: str | None = None
    if cells["label"].strip():
        label, error = validate.clean_name(cells["label"])
        if error:
            problems.append(gettext("label: %(error)s", error=error))
        elif label not in labels and not create_labels:
            problems.append(gettext("unknown label %(name)s (create it first or tick 'create missing labels')",
                                    name=repr(label)))
    if problems:
        return None, problems
    return _Row(rule_type, condition, bool(case_sensitive), float(confidence), label,
                cells["author"].strip().lower()), []


def import_rules(project: dict[str, Any], data: bytes, account_id: int, create_labels: bool) -> ImportResult:
    """Validate every line, then upsert all rules or none."""
    parsed = read_csv(data, REQUIRED, OPTIONAL)
    result = ImportResult(errors=list(parsed.errors))
    conn = db.get_conn()
    labels = store_labels.label_ids_by_name(conn, project["id"])
    rows: list[_Row] = []
    seen: dict[tuple[str, str, bool], int] = {}
    for csv_row in parsed.rows:
        row, problems = _parse_row(csv_row.cells, labels, create_labels)
        if row is not None:
            key = (row.type, row.condition, row.case_sensitive)
            if key in seen:
                problems = [gettext("duplicate of line %(line)s (same type, condition and case sensitivity)",
                                    line=seen[key])]
            else:
                seen[key] = csv_row.line
                rows.append(row)
        if problems:
            result.errors.append(gettext("line %(line)s: %(problems)s", line=csv_row.line,
                                         problems="; ".join(problems)))
    if not result.errors and not rows:
        result.errors.append(gettext("the file has a header but no rules"))
    if result.errors:
        result.errors = sorted_errors(result.errors)
        return result
    for name in sorted({r.label for r in rows if r.label and r.label not in labels}):
        labels[name] = store_labels.create_label(conn, project["id"], name, None, None, account_id)
        result.labels_created += 1
    emails = sorted({r.author for r in rows if r.author})
    accounts = store_accounts.ids_by_email(conn, emails)
    result.unknown_authors = sum(1 for r in rows if r.author and r.author not in accounts)
    result.created, result.updated = rule_admin.upsert_rules(conn, project["id"], [
        (r.type, r.condition, r.case_sensitive, r.confidence, labels[r.label] if r.label else None,
         accounts.get(r.author, account_id)) for r in rows])
    result.unchanged = len(rows) - result.created - result.updated
    return result
