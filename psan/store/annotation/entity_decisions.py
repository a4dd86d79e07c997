"""Decide the whole entity": one decision for every mention of a span's entity (key ``x`` / ``X``).

Why: a person mentioned twenty times is one decision for the annotator, not twenty.  What it does
(and what ``ner_eval``'s simulated annotator counts for its ``entity`` lever, exactly):

* every mention of the entity in the window's document gets the person's token decision (PRIVATE
  also creates each mention's lookup rule, as a token decision does), except that PUBLIC leaves a mention
  outside the selection that a person decided PRIVATE (a span marked by hand joins the entity it overlaps):
  nothing a person masked is unmasked by a decision about another mention;
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
* the selected span itself gets the token decision too when it is not exactly a mention
  ("Mr Harper" selected around the mention "Harper", or "J." inside "J. Harper": the person selected it).  The entity
  is the innermost mention containing the selection, else the longest mention inside it;
* PRIVATE also decides every other occurrence of the selected words, and of each mention's words, in
  the window's document that is not inside a span a recognizer found, and a span no
  recognizer grouped into an entity
  (a name marked by hand, a lookup rule's match of it) is the entity of its words there.  Why: a
  private name written twice in one document is one name; the recognizers group only what they found
  with one boundary, and a lookup rule leaves the rest suspicious, one judgment each (ELITR: a project
  name marked by hand, then accepted in twelve windows of its meeting).  Only private: a PUBLIC ``X``
  decides the recognized mentions alone (nothing becomes public that no person saw as a span).

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
from psan.store.annotation.apply_rule import find_word_type_matches
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
from psan.tool.detection.classifier.gate import only_punctuation
from psan.tool.detection.classifier.model import CLASSIFIER_SOURCES

__all__ = ["entity_mentions", "decide_entity"]

#: an entity with more mentions than this is refused (one key must not rewrite a whole collection)
MAX_MENTIONS = 5000


def entity_mentions(conn, document_id: int, first: int, end: int,
                    private: bool = False) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The entity at a span (exact mention, the innermost containing one, else the longest inside) and its mentions.

    ``private``: for a PRIVATE decision (a mention inside the span counts only when it is a name: :func:`_entity_at`).
    """
    return _mentions_of(_entity_at(conn, document_id, first, end, private), conn)


def _mentions_of(m: dict[str, Any] | None, conn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The entity :func:`_entity_at` found and its mentions (refused: none found, or too many mentions)."""
    if m is None:
        raise DecisionError(gettext("No entity was recognized at that span."))
    rows = db.query("SELECT document_id, first_token, end_token FROM entity_mention WHERE entity_id = %s "
                    "ORDER BY document_id, first_token, end_token LIMIT %s",
                    (m["entity_id"], MAX_MENTIONS + 1), conn)
    if len(rows) > MAX_MENTIONS:
        raise DecisionError(gettext("This entity has too many mentions to decide at once; decide by word type."))
    return dict(m), [dict(r) for r in rows]


def _entity_at(conn, document_id: int, first: int, end: int, private: bool = False) -> dict[str, Any] | None:
    """The entity of the selection (see :func:`entity_mentions`).

    A mention around the selection that is PUBLIC (a person's decision, or a rule's) is not its entity:
    the wider span was kept public (a clause around a name, a court named after its town), so the selection
    is something else inside it.  ``private`` (a PRIVATE decision): a mention inside the selection is its entity
    only when it is a name, an ID or a contact ("Mr Harper" around "Harper"); a place or an organisation inside
    a wider private span ("the Supreme Court's ruling of 3 May" around "Supreme Court") is not what the
    person decided, and its other mentions are not decided with it.
    """
    return db.query_one(
        "SELECT m.entity_id, e.key, e.category FROM entity_mention m JOIN entity e ON e.id = m.entity_id "
        "WHERE m.document_id = %s AND ((m.first_token <= %s AND m.end_token >= %s "
        "AND ((m.first_token, m.end_token) = (%s, %s) OR NOT EXISTS (SELECT 1 FROM annotation a "
        "JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id "
        "WHERE a.document_id = m.document_id AND a.first_token = m.first_token AND a.end_token = m.end_token "
        "AND (a.token_decision = 'PUBLIC' OR (a.token_decision IS NULL AND a.rule_level >= p.public_threshold))))) "
        "OR (m.first_token >= %s AND m.end_token <= %s AND (NOT %s OR e.category = ANY(%s)))) "
        "ORDER BY m.first_token <= %s AND m.end_token >= %s DESC, "
        "CASE WHEN m.first_token <= %s AND m.end_token >= %s THEN m.end_token - m.first_token "
        "ELSE m.first_token - m.end_token END, m.first_token LIMIT 1",
        (document_id, first, end, first, end, first, end, private, [str(c) for c in CROSS_DOCUMENT_CATEGORIES],
         first, end, first, end), conn)


def decide_entity(conn, span: Span, decision: str, account_id: int, label_id: int | None = None) -> Outcome:
    """Decide every mention of the span's entity (see the module docstring); caller locks the document."""
    if decision not in TYPE_CONFIDENCE:
        raise DecisionError(gettext("decision must be PUBLIC or PRIVATE"))
    same_words = decision == "PRIVATE"
    found = _entity_at(conn, span.document_id, span.first_token, span.end_token, private=same_words)
    if same_words and found is None:
        entity, mentions = {"key": None, "category": None}, []  # the words are the entity, in this document
    else:
        entity, mentions = _mentions_of(found, conn)
    detail: dict[str, Any] = {"scope": "entity", "entity": entity["key"]} if entity["key"] else \
        {"scope": "entity", "words": True}
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
    decidable = _decidable(conn, span, here, decision)
    left = {(m.first_token, m.end_token) for m, _ in decidable}
    outcome.kept_private = [(m.first_token, m.end_token) for m, _ in here if (m.first_token, m.end_token) not in left]
    here = decidable
    if all(mention != span for mention, _ in here):  # the selection itself, when it is not a mention
        here.append((span, span_text(conn, span.document_id, span.first_token, span.end_token)))
    if same_words:
        here += _same_words(conn, span, here)
    for mention, tokens in here:
        one = store_decisions.decide(conn, mention, Scope.TOKEN, decision, account_id, tokens,
                                     label_id if mention == span else None, log_action="entity", log_detail=detail)
        if mention == span or not outcome.annotation_id:
            outcome.annotation_id = one.annotation_id
        outcome.add(one)
    return outcome


def _decidable(conn, span: Span, here: list[tuple[Span, list[str]]], decision: str) -> list[tuple[Span, list[str]]]:
    """The mentions of ``here`` the decision may decide: all for PRIVATE; for PUBLIC, not one outside the selection
    that a person decided PRIVATE.

    Why: a person who decided one mention private (the applicant's school where it names the applicant's
    education) and later keeps another mention of the same entity public has not changed their mind about the
    first; unmasking it would release what a person saw and masked.  Fail closed: the earlier private decision
    stays, and so does a span marked by hand that is a mention.  A mention inside the selection is what the person
    selected now ("Later Harper" around "Harper"): the new decision is theirs.
    """
    if decision != "PUBLIC":
        return here
    others = [(m.document_id, m.first_token, m.end_token) for m, _ in here if not _inside(m, span)]
    decided = store_decisions.token_decisions(conn, others)
    return [(m, tokens) for m, tokens in here
            if _inside(m, span) or decided.get((m.document_id, m.first_token, m.end_token)) != "PRIVATE"]


def _inside(mention: Span, selection: Span) -> bool:
    return selection.first_token <= mention.first_token and mention.end_token <= selection.end_token


def _same_words(conn, span: Span, here: list[tuple[Span, list[str]]]) -> list[tuple[Span, list[str]]]:
    """The other occurrences in ``span``'s document of the words of ``here`` (the selection, the mentions).

    Left out: words of punctuation only (a "." inside a name says nothing about every full stop, as a
    token decision's lookup rule leaves them out), occurrences a person already decided (a PUBLIC one
    was decided with its context, which this decision does not overrule), and occurrences on or in a span a
    recognizer found: what it found is decided through its own entity, whose mentions the recognizers
    grouped ("Istanbul" in "the Istanbul State Security Court", or as the court's seat, is no mention of the
    applicant's home town: tab-dev masked eleven such occurrences in one judgment for nothing).  An
    occurrence *around* a recognized span is the person's words again ("Sami villages" marked by hand around
    the nationality "Sami": tab-dev, nine more presses of ``x`` in one judgment when it counted as recognized).
    """
    taken = {(m.first_token, m.end_token) for m, _ in here}
    found: list[tuple[int, int, tuple[str, ...]]] = []
    for words in dict.fromkeys(tuple(tokens) for _, tokens in here if tokens):
        if only_punctuation(words):
            continue
        for first, end in find_word_type_matches(conn, span.document_id, list(words)):
            if (first, end) not in taken:
                taken.add((first, end))
                found.append((first, end, words))
        if len(found) > MAX_MENTIONS:
            raise DecisionError(gettext("This entity has too many mentions to decide at once; decide by word type."))
    if not found:
        return []
    recognized = _recognized_spans(conn, span.document_id)
    found = [(first, end, words) for first, end, words in found
             if not any(f <= first and end <= e for f, e in recognized)]
    if not found:
        return []
    decided = store_decisions.token_decisions(conn, [(span.document_id, first, end) for first, end, _ in found])
    return [(Span(span.project_id, span.document_id, first, end), list(words))
            for first, end, words in found if (span.document_id, first, end) not in decided]


def _recognized_spans(conn, document_id: int) -> list[tuple[int, int]]:
    """The document's spans a recognizer found (not a classifier's proposals: the project model's or a pre-trained
    one's)."""
    rows = db.query("SELECT DISTINCT first_token, end_token FROM named_entity WHERE document_id = %s "
                    "AND NOT source = ANY(%s)", (document_id, list(CLASSIFIER_SOURCES)), conn)
    return [(r["first_token"], r["end_token"]) for r in rows]
