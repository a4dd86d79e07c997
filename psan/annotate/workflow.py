"""The decision workflow of the annotation window, in one place.

Every way of deciding (a span, an entity, accepting suggestions, labelling) goes through the same
steps: prefetch what the rules will need (outside the lock) → lock the document → decide (psan.store)
→ learn entity-type rules → apply the changed rules to this document → refresh its status → renew
the window → commit → schedule the project's re-annotation and the model's retraining
(psan.celery.scheduling).  The API views only parse requests and map the outcome to HTTP; tests can
call these functions directly with a connection.

:class:`psan.store.decisions.DecisionError` propagates to the caller (the API answers it with 400);
nothing was written then, the caller's transaction is rolled back.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from psan.annotate.content import annotations_json
from psan.celery import scheduling
from psan.store import apply_rule, entity_decisions
from psan.store import decisions as store_decisions
from psan.store import windows as store_windows
from psan.store.corrections import category_needed
from psan.store.decisions import Outcome, Scope, Span
from psan.store.processing import request_reannotation
from psan.store.suggestions import learn_type_rules
from psan.store.window_content import span_text
from psan.store.windows import Window

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Decided:
    """What the annotator's request changed: the merged outcome and the document's new status."""

    outcome: Outcome
    status: str | None
    category_needed: bool = False


def decide_span(conn, window: Window, span: Span, scope: Scope, decision: str, account_id: int, *,
                label_id: int | None = None, always: bool = False, ne_type: str | None = None,
                lease_seconds: int) -> Decided:
    """Decide one span by token, word type or NE type (:func:`psan.store.decisions.decide`)."""
    tokens = span_text(conn, span.document_id, span.first_token, span.end_token, window.recognized_at)
    if scope is Scope.WORD_TYPE or decision == "PRIVATE":  # it will make a word-type rule
        apply_rule.prefetch_word_type_matches(conn, span.document_id, tokens, stamp=window.recognized_at)
    apply_rule.lock_document(conn, span.document_id)  # before any write; see lock_document
    outcome = store_decisions.decide(conn, span, scope, decision, account_id, tokens, label_id, always, ne_type)
    learn_types(conn, outcome, [span])
    status = after_decision(conn, window, outcome, account_id, lease_seconds)  # commits: the lock is released
    # a private span nothing recognized and no label categorizes: ask the annotator (else [OTHER]);
    # a read, so after the commit, outside the document lock the other annotators wait for
    needed = decision == "PRIVATE" and category_needed(conn, span.document_id, span.first_token, span.end_token,
                                                       label_id)
    return Decided(outcome, status, needed)


def decide_entity(conn, window: Window, span: Span, decision: str, account_id: int, *,
                  label_id: int | None = None, lease_seconds: int) -> Decided:
    """Decide every mention of the span's entity, here and in the project's other documents."""
    apply_rule.lock_document(conn, span.document_id)  # before any write; see lock_document
    outcome = entity_decisions.decide_entity(conn, span, decision, account_id, label_id)
    learn_types(conn, outcome, [span])
    return Decided(outcome, after_decision(conn, window, outcome, account_id, lease_seconds))


def accept_suggestions(conn, window: Window, account_id: int, *, lease_seconds: int) -> Decided | None:
    """Decide every suspicious span of the window as suggested; ``None`` when nothing is left to accept.

    A PRIVATE suggestion the project already gave these words (a lookup rule voted) becomes a
    word-type rule.
    """
    pending = [a for a in annotations_json(conn, window, window.first_token, window.end_token)
               if a["decision"] == "SUSPICIOUS" and a.get("suggestion")]
    if not pending:
        return None
    apply_rule.lock_document(conn, window.document_id)  # before any write; see lock_document
    spans = [Span(window.project_id, window.document_id, a["first_token"], a["end_token"]) for a in pending]
    outcomes = []
    for a, span in zip(pending, spans, strict=True):
        again = a["suggestion"] == "PRIVATE" and any(r["lookup"] for r in a["rules"])
        scope = Scope.WORD_TYPE if again else Scope.TOKEN
        outcomes.append(store_decisions.decide(conn, span, scope, a["suggestion"], account_id,
                                               span_text(conn, span.document_id, span.first_token, span.end_token)))
    outcome = merge(outcomes)
    learn_types(conn, outcome, spans)
    return Decided(outcome, after_decision(conn, window, outcome, account_id, lease_seconds))


def assign_label(conn, window: Window, span: Span, label_id: int, account_id: int, *, always: bool = False,
                 lease_seconds: int) -> Decided:
    """Mark the span private with a label (:func:`psan.store.decisions.assign_label`)."""
    tokens = span_text(conn, span.document_id, span.first_token, span.end_token, window.recognized_at)
    apply_rule.prefetch_word_type_matches(conn, span.document_id, tokens, stamp=window.recognized_at)
    apply_rule.lock_document(conn, span.document_id)  # before any write; see lock_document
    outcome = store_decisions.assign_label(conn, span, label_id, account_id, tokens, always)
    return Decided(outcome, after_decision(conn, window, outcome, account_id, lease_seconds))


def learn_types(conn, outcome: Outcome, spans: list[Span]) -> None:
    """Entity types whose decisions are now clear decide alone from here on (psan.store.suggestions)."""
    types = sorted({t for span in spans for t in store_decisions.span_entity_types(conn, span)})
    if not types:
        return
    changed = learn_type_rules(conn, spans[0].project_id, types)
    if changed:
        outcome.changed_rule_ids += changed
        outcome.rules_changed = True


def merge(outcomes: list[Outcome]) -> Outcome:
    """One outcome for several decisions of one request (rules to apply, annotations touched)."""
    merged = Outcome(annotation_id=outcomes[0].annotation_id if outcomes else 0)
    for o in outcomes:
        merged.add(o)
    return merged


def after_decision(conn, window: Window, outcome: Outcome, account_id: int, lease_seconds: int) -> str | None:
    """Bring this document up to date now, the project's other documents in the background.

    The current document gets only the changed rules (:func:`psan.store.apply_rule.apply_new_rules`:
    a text search and a few set-based statements, tens of milliseconds even on 10^6 tokens), so the
    annotator's next view already shows their effect whatever the document's size; the debounced
    background run re-annotates the other documents and leaves this one out.  Commits; returns the
    document's status.
    """
    if outcome.rules_changed:
        apply_rule.apply_new_rules(conn, window.document_id, outcome.changed_rule_ids + outcome.removed_rule_ids,
                                   affected_annotation_ids=outcome.affected_annotation_ids, refresh_status=False)
    status = apply_rule.refresh_document_status(conn, window.document_id)
    store_windows.renew(conn, account_id, lease_seconds, decided=True)
    # release the document lock now: what follows only reads or talks to Redis, and 20 annotators
    # of one document queue behind this lock (a failed answer leaves a saved, idempotent decision)
    conn.commit()
    if outcome.rules_changed:
        try:
            scheduling.schedule_project_reannotation(window.project_id, exclude_document_id=window.document_id)
        except Exception:  # noqa: BLE001 - the decision is saved; the sweeper schedules the run later
            log.warning("could not schedule the re-annotation of project %s; the sweeper will", window.project_id,
                        exc_info=True)
            request_reannotation(conn, window.project_id)
            conn.commit()
    # project-model hook: retrain after MODEL_RETRAIN_AFTER_DECISIONS new decisions (never raises)
    scheduling.maybe_schedule_retrain(conn, window.project_id)
    return status
