"""An annotator's decisions: by token, by word type and by named-entity type (thesis 3.4.3).

* **token** – the person's decision on one span with its context: ``annotation.token_decision``.
  PRIVATE also creates a *lookup rule* (WORD_TYPE, confidence 0, bound to the annotation) so the
  same words become suspicious elsewhere (not for a span of punctuation only: a "." marked private
  inside a name must not make every full stop suspicious); switching to PUBLIC deletes it again,
  and with it the annotations only it produced.  The lookup reaches the project's other documents
  only for a person, an ID or a contact (:data:`CROSS_DOCUMENT_CATEGORIES`, the category of the
  span's label, else of its entity types; a span of neither takes the scope of the lookup rules that
  suggested it) and for a span of unknown category (marked by hand: when in doubt, more suspicion);
  a place, an organisation, a date, an occupation … decided private
  makes its words suspicious in its own document only (``rule.document_only``), as the entity
  decision (:mod:`psan.store.annotation.entity_decisions`) decides them there only: whether such words
  are personal depends on the document (the applicant's occupation "a lawyer" in one judgment, the
  representative's in every other; tab-dev: 286 of psan's 2588 judgments were such words, decided
  private in another document and public here).  Lookups only add suspicion: narrowing them makes
  nothing public that a person did not see; and no public vote releases what a lookup matches (a public word rule
  on the same words included: :mod:`psan.tool.decisions.precedence`), so it waits for a person.
* **word type** – a project WORD_TYPE rule for the span's tokens with confidence −1 / +1
  (optionally carrying a label: "always use this label for this text"), plus the token decision.
* **NE type** – the confidence of the NE_TYPE rule(s) of the span's entity type(s), plus the
  token decision.

Every decision writes a ``decision_log`` row.  The log deliberately holds no document text: the
span is identified by its token range (the text stays in the document and disappears with it,
the row itself is deleted with the document by the foreign key cascade); a rule's condition is
reachable through ``rule_id`` while the rule exists.

All functions run in the caller's transaction; the caller re-annotates afterwards: the
:class:`Outcome` names the rules to apply to the current document
(:func:`psan.store.annotation.apply_rule.apply_new_rules`) and, for deleted lookup rules, the annotations
they were linked to (noted before the delete, since the links vanish with the rule).
"""
from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.store.admin.rules import condition_to_text
from psan.store.annotation import entities, suggestions
from psan.store.annotation.apply_rule import COVERED_SPANS_SQL
from psan.tool.detection.classifier.gate import only_punctuation
from psan.tool.detection.classifier.model import MODEL_TYPE
from psan.tool.detection.recognizers.demographic import is_demographic_phrase
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category

#: the rule_condition_length constraint of the schema
MAX_CONDITION_CHARS = 1000
#: confidence of rules made by "decide by word type / NE type"
TYPE_CONFIDENCE = {"PUBLIC": 1.0, "PRIVATE": -1.0}
#: categories whose private decision holds in every document (a person's name, an ID, a contact are personal
#: data wherever they appear): their lookup rules and entity decisions reach the project's other documents
CROSS_DOCUMENT_CATEGORIES = frozenset({Category.PERSON, Category.ID, Category.CONTACT})


class Scope(enum.StrEnum):
    TOKEN = "token"  # noqa: S105  # nosec B105
    WORD_TYPE = "word_type"
    NE_TYPE = "ne_type"


class DecisionError(ValueError):
    """A decision that cannot be made; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class Outcome:
    """What a decision changed: the annotation, rules touched, and whether rules changed at all.

    ``changed_rule_ids`` are the rules whose matches or confidence may differ now (to apply to the
    current document); ``removed_rule_ids`` were deleted, ``affected_annotation_ids`` are the
    current document's annotations they were linked to.
    """

    annotation_id: int
    rule_ids: list[int] = field(default_factory=list)
    rules_changed: bool = False
    changed_rule_ids: list[int] = field(default_factory=list)
    removed_rule_ids: list[int] = field(default_factory=list)
    affected_annotation_ids: list[int] = field(default_factory=list)
    #: a verdict on a span only the learned model proposed (evidence whether its new spans pay)
    model_only: bool = False
    #: the decided span and the entity types recognized on exactly it, as :func:`decide` read them (so the
    #: learning of entity types after the commit needs no second read); not merged by :meth:`add`
    span_types: tuple[Span, list[str]] | None = None
    #: spans just decided private: the rules' spans inside them are covered (psan.tool.decisions.rules.drop_covered)
    covering: list[tuple[int, int]] = field(default_factory=list)
    #: a span of several tokens is no longer private: what it covered is matched again
    uncovered: bool = False
    #: the action logging this transaction and the transaction's time, when the decision's statement read them
    action: tuple[int, Any] | None = None
    #: the document as the decision's statement read it (``status``, ``project_id``, ``recognized_at``,
    #: ``sensitive_types``, ``ne_type_rules``) and the changed rules it wrote (``id``, ``type``, ``condition``,
    #: ``case_sensitive``, ``elsewhere``): what :func:`psan.store.annotation.apply_rule.apply_new_rules` would read
    document: dict[str, Any] | None = None
    rule_facts: list[dict[str, Any]] = field(default_factory=list)
    #: mentions (token ranges in the decided span's document) a public entity decision left private because a person
    #: had decided them so: the page counts those its caller is shown
    kept_private: list[tuple[int, int]] = field(default_factory=list)

    @property
    def changes_spans(self) -> bool:
        """Whether the current document's rule spans must be brought up to date (apply_new_rules)."""
        return self.rules_changed or bool(self.covering) or self.uncovered

    def add(self, other: Outcome) -> None:
        """Take in what another decision of the same request changed (rules to apply, annotations touched)."""
        self.rule_ids += other.rule_ids
        self.changed_rule_ids += [r for r in other.changed_rule_ids if r not in self.changed_rule_ids]
        self.removed_rule_ids += other.removed_rule_ids
        self.affected_annotation_ids += other.affected_annotation_ids
        self.rules_changed = self.rules_changed or other.rules_changed
        self.model_only = self.model_only or other.model_only
        self.covering += other.covering
        self.uncovered = self.uncovered or other.uncovered
        self.action = self.action or other.action
        self.document = self.document or other.document
        self.rule_facts += [f for f in other.rule_facts if f["id"] not in {g["id"] for g in self.rule_facts}]


@dataclass(frozen=True, slots=True)
class Span:
    project_id: int
    document_id: int
    first_token: int
    end_token: int


def set_token_decision(conn, span: Span, decision: str, label_id: int | None, account_id: int) -> int:
    """Upsert the person's decision on the span; PRIVATE keeps an earlier label unless a new one is given."""
    return _upsert_decision(conn, span, decision, label_id, account_id)[0]


#: the span's decision before the statement that writes it (a CTE reads the statement's snapshot)
_DECISION_BEFORE = ("before AS (SELECT token_decision::text AS decision FROM annotation WHERE document_id = %(doc)s "
                    "AND first_token = %(first)s AND end_token = %(end)s)")
#: the person's decision on the span; PRIVATE keeps an earlier label unless a new one is given
_UPSERT_DECISION = (
    "INSERT INTO annotation (document_id, first_token, end_token, token_decision, token_label_id, "
    "decided_by, decided_at) VALUES (%(doc)s, %(first)s, %(end)s, %(decision)s::decision, %(label)s, %(me)s, now()) "
    "ON CONFLICT (document_id, first_token, end_token) DO UPDATE SET "
    "token_decision = EXCLUDED.token_decision, decided_by = EXCLUDED.decided_by, decided_at = now(), "
    "token_label_id = CASE WHEN EXCLUDED.token_decision = 'PRIVATE' "
    "THEN coalesce(EXCLUDED.token_label_id, annotation.token_label_id) END ")


def _upsert_decision(conn, span: Span, decision: str, label_id: int | None,
                     account_id: int) -> tuple[int, str | None]:
    """:func:`set_token_decision`, also answering the span's decision before it (one statement)."""
    row = db.query_one(
        prepared("WITH " + _DECISION_BEFORE + " " + _UPSERT_DECISION  # noqa: S608  # nosec B608 - constants
                 + "RETURNING id, (SELECT decision FROM before) AS before"),
        {"doc": span.document_id, "first": span.first_token, "end": span.end_token, "decision": decision,
         "label": label_id if decision == "PRIVATE" else None, "me": account_id}, conn)
    return int(row["id"]), row["before"]


#: a decision by token or word type in one statement: the span's entity types (read before the writes, from the
#: statement's snapshot), the word-type rule (``tr``: only when ``%(type_rule)s``), the person's decision on the
#: span, and what :func:`lookup_document_only` needs besides (as :func:`lookup_scope_evidence` reads it)
_DECIDE_SPAN = (
    "WITH " + _DECISION_BEFORE + ", "  # noqa: S608  # nosec B608 - constant fragments
    "tr AS (INSERT INTO rule (project_id, type, condition, case_sensitive, confidence, label_id, author_id) "
    "SELECT %(project)s::bigint, 'WORD_TYPE'::rule_type, %(condition)s::text, true, %(confidence)s::double precision, "
    "%(rule_label)s::bigint, %(me)s::bigint WHERE %(type_rule)s::boolean "
    "ON CONFLICT (project_id, type, condition, case_sensitive) WHERE annotation_id IS NULL DO UPDATE SET "
    "confidence = EXCLUDED.confidence, author_id = EXCLUDED.author_id, "
    "label_id = CASE WHEN %(keep)s::boolean THEN coalesce(EXCLUDED.label_id, rule.label_id) ELSE EXCLUDED.label_id "
    "END RETURNING id, document_only), "
    "a AS (" + _UPSERT_DECISION + "RETURNING id, token_label_id) "
    "SELECT a.id, (SELECT decision FROM before) AS before, (SELECT id FROM tr) AS type_rule, "
    "(SELECT document_only FROM tr) AS type_rule_only, "
    "ARRAY(SELECT DISTINCT type FROM named_entity WHERE document_id = %(doc)s AND first_token = %(first)s "
    "AND end_token = %(end)s ORDER BY type) AS types, "
    "(SELECT l.category FROM label l WHERE l.id = a.token_label_id) AS category, "
    "ARRAY(SELECT r.document_only FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "
    "WHERE ar.annotation_id = a.id AND r.annotation_id IS NOT NULL AND r.annotation_id <> a.id) AS lookups, "
    "p.lookups_everywhere AS everywhere, d.language, "
    # the hand-marked span's candidate entities (PRIVATE only)
    "CASE WHEN %(private)s::boolean THEN " + entities.MARKED_SPAN_MENTIONS + " END AS mentions, "
    # the action this transaction logs (psan.store.annotation.actions: its ``psan.action`` setting) and its time
    "nullif(current_setting('psan.action', true), '')::bigint AS action_id, now() AS began_at, "
    # what applying the changed rules needs of the document (apply_new_rules' ``known``)
    "d.status::text AS status, d.recognized_at, p.sensitive_types, ARRAY(SELECT DISTINCT r.condition FROM rule r "
    "WHERE r.project_id = d.project_id AND r.type = 'NE_TYPE') AS ne_type_rules, "
    # whether the span just decided private covers rule spans (apply_new_rules' ``covering``)
    "EXISTS (" + COVERED_SPANS_SQL + ") AS covers "
    "FROM a JOIN document d ON d.id = %(doc)s JOIN project p ON p.id = d.project_id")


def lookup_document_only(entity_types: list[str], label_category: str | None,
                         suggested_by: Sequence[bool] = (), everywhere: bool = False,
                         demographic: bool = False) -> bool:
    """Does a private span's lookup rule stay in its own document (see the module docstring)?

    ``everywhere``: the project's ``lookups_everywhere`` setting – every lookup reaches every document (a
    project whose documents are one case file; the 2021 app's candidate rules, which ``ner_eval``'s thesis
    workflow reproduces).

    The label's category when the span has a labelled one, else its entity types' categories (the learned
    model's spans name none); any of :data:`CROSS_DOCUMENT_CATEGORIES`: every document.  A span of no
    category is the same words as the private spans whose lookup rules suggested it (``suggested_by``: their
    ``document_only``): it inherits their scope, document-only only if all of them are (a document-only
    lookup suggests spans of its own document only, so an accepted "25" stays where the first one was
    decided); suggested by none (a span marked by hand): every document, unless the words as a whole are an
    occupation, a role or a nationality (``demographic``: :func:`psan.tool.detection.recognizers.demographic.
    is_demographic_phrase`, "a lawyer" marked by hand as the applicant's occupation; tab-dev: 59 public
    judgments on the representatives' "a lawyer" in the other judgments).
    """
    if everywhere:
        return False
    categories = {str(label_category)} if label_category else \
        {str(category_of(t)) for t in entity_types if t != MODEL_TYPE}
    if categories:
        return not categories & CROSS_DOCUMENT_CATEGORIES
    return all(suggested_by) if suggested_by else demographic


def lookup_scope_evidence(conn, annotation_id: int) -> tuple[str | None, list[bool], bool, str | None]:
    """What :func:`lookup_document_only` needs beside the entity types, in one round trip.

    The category of the annotation's label, the ``document_only`` of the other lookup rules linked to it,
    the project's ``lookups_everywhere`` and the document's language.
    """
    row = db.query_one(prepared(
        "SELECT (SELECT l.category FROM annotation a JOIN label l ON l.id = a.token_label_id WHERE a.id = %(a)s) "
        "AS category, ARRAY(SELECT r.document_only FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "
        "WHERE ar.annotation_id = %(a)s AND r.annotation_id IS NOT NULL AND r.annotation_id <> %(a)s) AS lookups, "
        "p.lookups_everywhere AS everywhere, d.language FROM annotation a JOIN document d ON d.id = a.document_id "
        "JOIN project p ON p.id = d.project_id WHERE a.id = %(a)s"),
        {"a": annotation_id}, conn)
    return row["category"], list(row["lookups"]), bool(row["everywhere"]), row["language"]


def ensure_lookup_rule(conn, project_id: int, annotation_id: int, condition: str, account_id: int,
                       document_only: bool = False) -> int | None:
    """The annotation's lookup rule, created if missing or re-scoped; ``None`` if it was already so (one statement).

    ``document_only``: it matches in the annotation's document only (a relabelled span can widen or narrow it).
    """
    row = db.query_one(
        prepared(
            "WITH old AS (SELECT id FROM rule WHERE annotation_id = %(annotation)s), "
            "upd AS (UPDATE rule SET document_only = %(only)s WHERE id IN (SELECT id FROM old) "
            "AND document_only <> %(only)s RETURNING id), "
            "ins AS (INSERT INTO rule (project_id, type, condition, case_sensitive, confidence, annotation_id, "
            "author_id, document_only) "
            "SELECT %(project)s::bigint, 'WORD_TYPE'::rule_type, %(condition)s::text, true, 0, %(annotation)s::bigint, "
            "%(me)s::bigint, %(only)s WHERE NOT EXISTS (SELECT 1 FROM old) RETURNING id) "
            "SELECT id FROM ins UNION ALL SELECT id FROM upd"),
        {"project": project_id, "condition": condition, "annotation": annotation_id, "me": account_id,
         "only": bool(document_only)}, conn)
    return int(row["id"]) if row else None


def drop_lookup_rules(conn, document_id: int, annotation_id: int) -> tuple[list[int], list[int]]:
    """Delete the annotation's lookup rule(s): their ids and the document's annotations they were linked to.

    One statement: the footprint is read from the statement's snapshot, before the links vanish with
    the rules (foreign key cascade); the caller's re-annotation removes what only they produced.
    """
    row = db.query_one(
        prepared(
            "WITH l AS (SELECT id FROM rule WHERE annotation_id = %(annotation)s), "
            "fp AS (SELECT DISTINCT ar.annotation_id FROM annotation_rule ar "
            "JOIN annotation a ON a.id = ar.annotation_id "
            "WHERE ar.rule_id IN (SELECT id FROM l) AND a.document_id = %(doc)s), "
            "d AS (DELETE FROM rule WHERE id IN (SELECT id FROM l) RETURNING id) "
            "SELECT ARRAY(SELECT id FROM d ORDER BY id) AS rules, ARRAY(SELECT annotation_id FROM fp) AS footprint"),
        {"annotation": annotation_id, "doc": document_id}, conn)
    return list(row["rules"]), list(row["footprint"])


def upsert_type_rule(conn, project_id: int, rule_type: str, condition: str, confidence: float,
                     label_id: int | None, account_id: int, keep_label: bool = True) -> int:
    """Create or update a project rule (not a lookup rule) of ``rule_type`` for ``condition``."""
    row = db.query_one(
        prepared(
            "INSERT INTO rule (project_id, type, condition, case_sensitive, confidence, label_id, author_id) "
            "VALUES (%(project)s, %(type)s::rule_type, %(condition)s, true, %(confidence)s, %(label)s, %(me)s) "
            "ON CONFLICT (project_id, type, condition, case_sensitive) WHERE annotation_id IS NULL DO UPDATE SET "
            "confidence = EXCLUDED.confidence, author_id = EXCLUDED.author_id, "
            "label_id = CASE WHEN %(keep)s THEN coalesce(EXCLUDED.label_id, rule.label_id) ELSE EXCLUDED.label_id END "
            "RETURNING id"),
        {"project": project_id, "type": rule_type, "condition": condition, "confidence": confidence,
         "label": label_id, "me": account_id, "keep": keep_label}, conn)
    return int(row["id"])


def _type_rule_confidence(conn, project_id: int, rule_type: str, condition: str) -> float | None:
    """Confidence of the project rule :func:`upsert_type_rule` would update (``None``: it will be new)."""
    row = db.query_one("SELECT confidence FROM rule WHERE project_id = %s AND type = %s::rule_type "
                       "AND condition = %s AND case_sensitive AND annotation_id IS NULL",
                       (project_id, rule_type, condition), conn)
    return None if row is None else float(row["confidence"])


def token_decisions(conn, spans: Sequence[tuple[int, int, int]]) -> dict[tuple[int, int, int], str]:
    """(document id, first token, end token) → a person's token decision on exactly that span, for the spans decided.

    Why one query for many spans: an entity decision asks it of every mention it reaches, and the release
    measurement of every span a person decided private.
    """
    if not spans:
        return {}
    rows = db.query(
        "SELECT a.document_id, a.first_token, a.end_token, a.token_decision::text AS decision FROM annotation a "
        "JOIN unnest(%s::bigint[], %s::int[], %s::int[]) AS s(d, f, e) "
        "ON a.document_id = s.d AND a.first_token = s.f AND a.end_token = s.e WHERE a.token_decision IS NOT NULL",
        ([d for d, _, _ in spans], [f for _, f, _ in spans], [e for _, _, e in spans]), conn)
    return {(int(r["document_id"]), int(r["first_token"]), int(r["end_token"])): r["decision"] for r in rows}


def span_entity_types(conn, span: Span) -> list[str]:
    return [r["type"] for r in db.query(
        prepared("SELECT DISTINCT type FROM named_entity WHERE document_id = %s AND first_token = %s "
                 "AND end_token = %s ORDER BY type"), (span.document_id, span.first_token, span.end_token), conn)]


def log_decision(conn, span: Span, account_id: int, action: str, decision: str | None,
                 label_id: int | None = None, rule_id: int | None = None,
                 detail: dict[str, Any] | None = None) -> None:
    """Log a decision (no answer is read: the row rides with the transaction's next statement)."""
    db.defer("INSERT INTO decision_log (project_id, document_id, account_id, first_token, end_token, "
             "action, decision, label_name, rule_id, detail) "
             "VALUES (%s, %s, %s, %s, %s, %s, %s::decision, (SELECT name FROM label WHERE id = %s), %s, %s)",
             (span.project_id, span.document_id, account_id, span.first_token, span.end_token, action,
              decision, label_id, rule_id, json.dumps(detail or {})), conn)
    suggestions.note_decision(span.project_id)


def _word_rule(rule_id: int, condition: str, elsewhere: bool) -> dict[str, Any]:
    """A case-sensitive WORD_TYPE rule this decision wrote, as apply_new_rules reads the changed rules."""
    return {"id": rule_id, "type": "WORD_TYPE", "condition": condition, "case_sensitive": True, "elsewhere": elsewhere}


def decide(conn, span: Span, scope: Scope, decision: str, account_id: int, tokens: list[str],  # noqa: C901, PLR0912
           label_id: int | None = None, always: bool = False, ne_type: str | None = None,
           log_action: str | None = None, log_detail: dict[str, Any] | None = None) -> Outcome:
    """Apply one decision (see module docstring); ``tokens`` are the span's token texts.

    ``log_action`` / ``log_detail`` name a caller deciding on a wider scope (the entity decision).
    """
    if decision not in TYPE_CONFIDENCE:
        raise DecisionError(gettext("decision must be PUBLIC or PRIVATE"))
    condition = condition_to_text(tokens)
    outcome = Outcome(annotation_id=0)
    detail: dict[str, Any] = dict(log_detail) if log_detail else {"scope": str(scope)}
    evidence: dict[str, Any] | None = None
    if scope is Scope.NE_TYPE:
        found = span_entity_types(conn, span)  # read first: which types to decide
    else:
        if scope is Scope.WORD_TYPE and len(condition) > MAX_CONDITION_CHARS:
            raise DecisionError(gettext("the span is too long for a word-type rule (over %(limit)s characters)",
                                        limit=MAX_CONDITION_CHARS))
        # the span's types, the word-type rule, the decision and the lookup's evidence: one round trip
        covers = decision == "PRIVATE" and span.end_token - span.first_token > 1
        evidence = db.query_one(prepared(_DECIDE_SPAN), {
            "project": span.project_id, "doc": span.document_id, "first": span.first_token, "end": span.end_token,
            "condition": condition, "confidence": TYPE_CONFIDENCE[decision], "type_rule": scope is Scope.WORD_TYPE,
            "rule_label": label_id if (always and decision == "PRIVATE") else None, "keep": decision == "PRIVATE",
            "decision": decision, "label": label_id if decision == "PRIVATE" else None, "me": account_id,
            "private": decision == "PRIVATE", "c_first": [span.first_token] if covers else [],
            "c_end": [span.end_token] if covers else []}, conn)
        if evidence is None:  # the document went away under the decision (its cascade): nothing to decide
            raise DecisionError(gettext("Not found."), 404)
        found = list(evidence["types"])
        outcome.annotation_id = int(evidence["id"])
        outcome.action = (int(evidence["action_id"]), evidence["began_at"]) if evidence["action_id"] else None
        outcome.document = {"status": evidence["status"], "project_id": span.project_id,
                            "recognized_at": evidence["recognized_at"], "sensitive_types": evidence["sensitive_types"],
                            "ne_type_rules": list(evidence["ne_type_rules"]), "covers": evidence["covers"],
                            "covers_for": [(span.first_token, span.end_token)] if covers else []}
        if evidence["type_rule"] is not None:
            outcome.rule_ids.append(int(evidence["type_rule"]))
            outcome.changed_rule_ids.append(outcome.rule_ids[-1])  # a text search: cheap to re-apply always
            outcome.rules_changed = True
            outcome.rule_facts.append(_word_rule(outcome.rule_ids[-1], condition, bool(evidence["type_rule_only"])))
    outcome.span_types = (span, found)  # read once: the learning of entity types after the commit uses it
    if scope is Scope.NE_TYPE:
        # the learned model's spans are no entity type: a person's "by NE type" on a span the model also
        # proposed decides the recognizers' types, never every span the model proposes (a public MODEL
        # rule would release model-only spans nobody saw and cancel every learned private type under them)
        if MODEL_TYPE in found and (found == [MODEL_TYPE] or ne_type == MODEL_TYPE):
            raise DecisionError(gettext("The learned model's spans are decided one by one, not by type."))
        types = [t for t in found if t != MODEL_TYPE]
        if ne_type is not None:
            if ne_type not in types:
                raise DecisionError(gettext("the span has no named entity of that type"))
            types = [ne_type]
        if not types:
            raise DecisionError(gettext("no named entity was recognized on exactly this span"))
        for t in types:
            before = _type_rule_confidence(conn, span.project_id, "NE_TYPE", t)
            outcome.rule_ids.append(upsert_type_rule(conn, span.project_id, "NE_TYPE", t,
                                                     TYPE_CONFIDENCE[decision], None, account_id))
            if before != TYPE_CONFIDENCE[decision]:  # re-levelling every entity of a type is not free
                outcome.changed_rule_ids.append(outcome.rule_ids[-1])
        detail["ne_types"] = types
        outcome.rules_changed = True
    if found == [MODEL_TYPE]:
        # a verdict on a span only the model proposed: the evidence whether its new spans pay
        # (psan.store.corpus.project_model.new_span_verdicts); logged because a retrain replaces the entity
        detail["model_only"] = True
        outcome.model_only = True
    if evidence is None:
        outcome.annotation_id, before = _upsert_decision(conn, span, decision, label_id, account_id)
    else:
        before = evidence["before"]
    several = span.end_token - span.first_token > 1
    outcome.uncovered = several and before == "PRIVATE" and decision != "PRIVATE"
    if decision == "PRIVATE":
        if several:
            outcome.covering.append((span.first_token, span.end_token))
        # a span marked by hand joins the entity it overlaps or repeats (its category, label and pseudonym)
        entities.link_marked_span(conn, span.document_id, span.first_token, span.end_token, tokens,
                                  evidence["mentions"] if evidence is not None else None)
        if len(condition) <= MAX_CONDITION_CHARS and not only_punctuation(tokens):
            category, suggested_by, everywhere, language = \
                (evidence["category"], list(evidence["lookups"]), bool(evidence["everywhere"]), evidence["language"]) \
                if evidence is not None else lookup_scope_evidence(conn, outcome.annotation_id)
            document_only = lookup_document_only(found, category, suggested_by, everywhere,
                                                 is_demographic_phrase(" ".join(tokens), language))
            lookup = ensure_lookup_rule(conn, span.project_id, outcome.annotation_id, condition, account_id,
                                        document_only)
            if lookup is not None:
                outcome.rule_ids.append(lookup)
                outcome.changed_rule_ids.append(lookup)
                outcome.rules_changed = True
                outcome.rule_facts.append(_word_rule(lookup, condition, False))  # bound to this document's span
    else:
        lookups, footprint = drop_lookup_rules(conn, span.document_id, outcome.annotation_id)
        if lookups:
            outcome.affected_annotation_ids = footprint
            outcome.removed_rule_ids = lookups
            outcome.rules_changed = True
    log_decision(conn, span, account_id, log_action or str(scope), decision, label_id,
                 outcome.rule_ids[0] if outcome.rule_ids else None, detail)
    return outcome


def assign_label(conn, span: Span, label_id: int, account_id: int, tokens: list[str],
                 always: bool = False) -> Outcome:
    """Mark the span PRIVATE with ``label_id``; ``always`` binds the label to a word-type rule too."""
    outcome = decide(conn, span, Scope.WORD_TYPE if always else Scope.TOKEN, "PRIVATE", account_id, tokens,
                     label_id=label_id, always=always)
    db.execute("UPDATE annotation SET token_label_id = %s WHERE id = %s", (label_id, outcome.annotation_id), conn)
    return outcome
