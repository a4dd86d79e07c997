"""Decide the whole entity": one decision for every mention of a span's entity (key ``x`` / ``X``).

Why: a person mentioned twenty times is one decision for the annotator, not twenty.  What it does
(and what ``ner_eval``'s simulated annotator counts for its ``entity`` lever, exactly):

* every mention of the entity in the window's document gets the person's token decision (PRIVATE
  also creates each mention's lookup rule, as a token decision does);
* when the entity is a person, an ID or a contact (:data:`CROSS_DOCUMENT_CATEGORIES`), its mentions in
  the project's other documents (and documents added later) get it by word type: one WORD_TYPE rule
  with confidence −1 / +1 per distinct mention text, as "decide by word type" does – the project's
  re-annotation applies them there.  An organisation, a place, a date … is decided in this document
  only: whether it identifies someone depends on the document (the applicant's home town, "Istanbul",
  is personal data in one court decision and the seat of a court, "Istanbul Administrative Court", in
  the next; tab-dev: 651 characters masked for nothing that way, the largest share outside gold).  Its
  words elsewhere in this document stay suspicious, suggested private by the lookup rules of the
  mentions decided here, so a person sees them; in other documents they are what their own rules make
  them (those lookup rules are document-only, as any private token decision's on such a span:
  :mod:`psan.store.annotation.decisions`); ``S`` / ``P`` remain for a person who means every occurrence;
* the selected span itself gets the token decision too when it is not exactly a mention (issue 20,
  item 5: "Mr Harper" selected around the mention "Harper", or "J." inside "J. Harper").  The entity
  is the innermost mention containing the selection, else the longest mention inside it.

Every token decision and every rule is a ``decision_log`` row (action ``entity``); the log holds
token ranges and the entity key, never text.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask_babel import gettext

from psan.runtime import db
from psan.store.admin.rules import condition_to_text
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.decisions import (
    CROSS_DOCUMENT_CATEGORIES,
    MAX_CONDITION_CHARS,
    TYPE_CONFIDENCE,
    DecisionError,
    Outcome,
    Scope,
    Span,
)
from psan.store.annotation.window_content import span_text

__all__ = ["entity_mentions", "decide_entity"]

#: an entity with more mentions than this is refused (one key must not rewrite a whole collection)
MAX_MENTIONS = 5000


def entity_mentions(conn, document_id: int, first: int, end: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The entity at a span (exact mention, the innermost containing one, else the longest inside) and its mentions."""
    m = db.query_one(
        "SELECT m.entity_id, e.key, e.category FROM entity_mention m JOIN entity e ON e.id = m.entity_id "
        "WHERE m.document_id = %s AND ((m.first_token <= %s AND m.end_token >= %s) "
        "OR (m.first_token >= %s AND m.end_token <= %s)) "
        "ORDER BY m.first_token <= %s AND m.end_token >= %s DESC, "
        "CASE WHEN m.first_token <= %s AND m.end_token >= %s THEN m.end_token - m.first_token "
        "ELSE m.first_token - m.end_token END, m.first_token LIMIT 1",
        (document_id, first, end, first, end, first, end, first, end), conn)
    if m is None:
        raise DecisionError(gettext("No entity was recognized at that span."))
    rows = db.query("SELECT document_id, first_token, end_token FROM entity_mention WHERE entity_id = %s "
                    "ORDER BY document_id, first_token, end_token LIMIT %s",
                    (m["entity_id"], MAX_MENTIONS + 1), conn)
    if len(rows) > MAX_MENTIONS:
        raise DecisionError(gettext("This entity has too many mentions to decide at once; decide by word type."))
    return dict(m), [dict(r) for r in rows]


def decide_entity(conn, span: Span, decision: str, account_id: int, label_id: int | None = None) -> Outcome:
    """Decide every mention of the span's entity (see the module docstring); caller locks the document."""
    if decision not in TYPE_CONFIDENCE:
        raise DecisionError(gettext("decision must be PUBLIC or PRIVATE"))
    entity, mentions = entity_mentions(conn, span.document_id, span.first_token, span.end_token)
    detail = {"scope": "entity", "entity": entity["key"]}
    outcome = Outcome(annotation_id=0)
    by_condition: dict[str, list[dict[str, Any]]] = defaultdict(list)
    here: list[tuple[Span, list[str]]] = []
    # a person, an ID, a contact: every document; other categories: the window's document (module docstring)
    everywhere = entity["category"] in CROSS_DOCUMENT_CATEGORIES
    if not everywhere:  # no word-type rules: its words elsewhere (here too, outside mentions) stay for a person
        mentions = [m for m in mentions if m["document_id"] == span.document_id]
        detail["document_only"] = True
    for m in mentions:
        tokens = span_text(conn, m["document_id"], m["first_token"], m["end_token"])
        if not tokens:
            continue
        if m["document_id"] == span.document_id:
            here.append((Span(span.project_id, span.document_id, m["first_token"], m["end_token"]), tokens))
        condition = condition_to_text(tokens)
        if everywhere and len(condition) <= MAX_CONDITION_CHARS:
            by_condition[condition].append(m)
    for condition, where in by_condition.items():
        rule_id = store_decisions.upsert_type_rule(conn, span.project_id, "WORD_TYPE", condition,
                                                   TYPE_CONFIDENCE[decision], None, account_id)
        outcome.rule_ids.append(rule_id)
        outcome.changed_rule_ids.append(rule_id)
        outcome.rules_changed = True
        for m in where:
            if m["document_id"] != span.document_id:  # mentions here are logged with their token decision
                store_decisions.log_decision(
                    conn, Span(span.project_id, m["document_id"], m["first_token"], m["end_token"]), account_id,
                    "entity", decision, None, rule_id, detail)
    if all(mention != span for mention, _ in here):  # the selection itself, when it is not a mention
        here.append((span, span_text(conn, span.document_id, span.first_token, span.end_token)))
    for mention, tokens in here:
        one = store_decisions.decide(conn, mention, Scope.TOKEN, decision, account_id, tokens,
                                     label_id if mention == span else None, log_action="entity", log_detail=detail)
        if mention == span or not outcome.annotation_id:
            outcome.annotation_id = one.annotation_id
        outcome.add(one)
    return outcome
