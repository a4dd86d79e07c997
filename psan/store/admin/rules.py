"""A project's rules as a :class:`psan.tool.decisions.rules.RuleSet`, and NE-type rule creation.

Condition storage convention: ``NE_TYPE`` conditions are the entity type code; sequence
conditions (``WORD_TYPE``/``LEMMA``) are the tokens joined by single spaces (see
:func:`condition_to_text`), so a condition made from a document span splits back exactly.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

import psycopg2.extras

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.tool.decisions.rules import SEQUENCE_KINDS, Rule, RuleSet, RuleType, split_condition
from psan.tool.decisions.sensitivity import sensitive_type
from psan.tool.text.document import Category

log = logging.getLogger(__name__)

#: confidence of NE-type rules created automatically: 0 makes their spans suspicious
NE_TYPE_DEFAULT_CONFIDENCE = 0.0
#: entity types private at pre-annotation: checksum-validated IDs, IBANs, cards,
#: e-mails, phone numbers and URLs with personal paths are personal data whatever the context, so
#: their NE-type rules start at the private threshold and an untouched collection is safe for them
PRIVATE_BY_DEFAULT = frozenset({
    "IBAN", "IBAN_CODE", "CARD", "CREDIT_CARD",
    "CZ_BIRTH_NUMBER", "CZ_ICO", "CZ_DIC", "SK_DIC", "PL_PESEL", "PL_NIP", "PL_REGON", "SI_EMSO",
    "SE_PERSONNUMMER", "US_SSN", "SECRET",
    "EMAIL", "EMAIL_ADDRESS", "me", "PHONE", "PHONE_NUMBER", "at", "URL_PERSONAL",
})


def default_ne_confidence(ne_type: str, private_threshold: float = -1.0) -> float:
    """Confidence a new NE-type rule starts with: private for :data:`PRIVATE_BY_DEFAULT`, else 0."""
    if ne_type in PRIVATE_BY_DEFAULT:
        return min(-1.0, float(private_threshold))
    return NE_TYPE_DEFAULT_CONFIDENCE


def condition_to_text(tokens: Iterable[str]) -> str:
    """Store a token sequence condition (tokens never contain whitespace)."""
    return " ".join(tokens)


def condition_from_text(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def normalize_condition(text: str, tokenizer: Callable[[str], Any] | None = None) -> str:
    """A typed condition split like documents are (pass the pipeline's tokenizer) and stored form."""
    return condition_to_text(split_condition(text, tokenizer))


def _category(value: str | None) -> Category | None:
    try:
        return Category(value) if value else None
    except ValueError:
        return None


def load_rules(conn, project_id: int, document_id: int | None = None) -> list[Rule]:
    """All rules of a project as library rules; duplicate NE-type conditions keep the oldest rule.

    A document-only lookup rule (``rule.document_only``) is bound to its annotation's document.
    ``document_id``: the rules that can apply to that one document only (a single document's output):
    those bound to another document are left out, so nothing read depends on the other documents' rows.
    """
    rows = db.query("SELECT r.id, r.type::text AS type, r.condition, r.case_sensitive, r.confidence, r.label_id, "
                    "l.category AS label_category, r.author_id, "
                    "CASE WHEN r.document_only THEN a.document_id END AS document FROM rule r "
                    "LEFT JOIN label l ON l.id = r.label_id LEFT JOIN annotation a ON a.id = r.annotation_id "
                    "WHERE r.project_id = %(project)s AND (%(doc)s::bigint IS NULL OR NOT r.document_only "
                    "OR a.document_id = %(doc)s) ORDER BY r.id", {"project": project_id, "doc": document_id}, conn)
    rules: list[Rule] = []
    ne_types: set[str] = set()
    for r in rows:
        condition: tuple[str, ...] | str = r["condition"]
        if r["type"] in SEQUENCE_KINDS:
            condition = condition_from_text(r["condition"])
            if not condition:
                continue
        elif r["type"] == RuleType.NE_TYPE.value:
            if condition in ne_types:
                log.warning("project %s: rule %s duplicates NE type %r; ignored", project_id, r["id"], condition)
                continue
            ne_types.add(str(condition))
        rules.append(Rule(id=r["id"], type=r["type"], condition=condition, confidence=r["confidence"],
                          label=r["label_id"], case_sensitive=r["case_sensitive"],
                          category=_category(r["label_category"]), author=r["author_id"],
                          document=r["document"]))
    return rules


def load_ruleset(conn, project_id: int, document_id: int | None = None) -> RuleSet:
    """The project's rules compiled for matching (kinds without a compiler yet are skipped); ``document_id``:
    as :func:`load_rules`."""
    rules = load_rules(conn, project_id, document_id)
    ne_types = [str(r.condition) for r in rules if r.type == RuleType.NE_TYPE.value]
    blocking = blocking_of(ne_types, project_sensitive_types(conn, project_id))
    return RuleSet(rules, ignore_unknown=True, blocking=blocking)


def project_sensitive_types(conn, project_id: int) -> frozenset[str]:
    """The categories and entity types the project's admin marked as sensitive."""
    row = db.query_one(prepared("SELECT sensitive_types FROM project WHERE id = %s"), (project_id,), conn)
    return frozenset(row["sensitive_types"] or ()) if row else frozenset()


def blocking_of(ne_types: Iterable[str], extra: frozenset[str]) -> frozenset[str]:
    """The NE types on whose spans a person's word rule gets no precedence (:mod:`psan.tool.decisions.precedence`).

    The sensitive ones (never public by suggestion, the admin's list ``extra`` included) and the ones
    private by default (:data:`PRIVATE_BY_DEFAULT`): what a word rule releases for them stays as it was.
    """
    return frozenset(t for t in ne_types if t in PRIVATE_BY_DEFAULT or sensitive_type(t, extra))


def ensure_ne_type_rules(conn, project_id: int, types: Iterable[str],
                         confidence: float | None = None) -> int:
    """Create an NE_TYPE rule for each type the project has none for; returns how many were new.

    Without ``confidence`` each type gets :func:`default_ne_confidence` (private for IDs and
    contacts, suspicious otherwise).  ``ON CONFLICT DO NOTHING`` on the partial unique index keeps
    rules (and so the confidence an admin already chose for a type) untouched.
    """
    wanted = sorted({t for t in types if t})
    if not wanted:
        return 0
    if confidence is None:
        row = db.query_one("SELECT private_threshold FROM project WHERE id = %s", (project_id,), conn)
        threshold = float(row["private_threshold"]) if row else -1.0
        values = [(project_id, RuleType.NE_TYPE.value, t, True, default_ne_confidence(t, threshold)) for t in wanted]
    else:
        values = [(project_id, RuleType.NE_TYPE.value, t, True, confidence) for t in wanted]
    with conn.cursor() as cur:
        rows = psycopg2.extras.execute_values(
            cur, "INSERT INTO rule (project_id, type, condition, case_sensitive, confidence) VALUES %s "
                 "ON CONFLICT (project_id, type, condition, case_sensitive) WHERE annotation_id IS NULL "
                 "DO NOTHING RETURNING id",
            values, fetch=True)
    return len(rows)
