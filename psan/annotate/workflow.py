"""The decision workflow of the annotation window, in one place.

Every way of deciding (a span, an entity, accepting suggestions, labelling) goes through the same
steps: prefetch what the rules will need (outside any lock) → renew the window → lock → decide
(psan.store) → apply the changed rules to this document → commit → refresh the document's status →
learn entity-type rules (a read; a lock again only when a type's rule changes) → schedule the
project's re-annotation and the model's retraining (psan.celery.scheduling).

The lock (:mod:`psan.store.annotation.document_locks`): decisions by token or word type, labels and accepted
suggestions lock only their words, so 20 annotators of one document decide side by side; decisions
by NE type or entity lock the whole document.  Should applying the rules need the whole document
after all (:class:`psan.store.annotation.apply_rule.NeedsWholeDocument`), the decision is rolled back and made
again under the whole-document lock.  The status is refreshed after the commit, so the last of two
concurrent decisions always sees the other's (a document whose last suspicious spans were decided
at the same moment still becomes DONE).

The API views only parse requests and map the outcome to HTTP; tests can
call these functions directly with a connection.

:class:`psan.store.annotation.decisions.DecisionError` propagates to the caller (the API answers it with 400);
nothing was written then, the caller's transaction is rolled back.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

from flask import current_app
from flask_babel import gettext

from psan.annotate.content import annotations_json
from psan.celery import scheduling
from psan.celery.retry import log_unscheduled
from psan.celery.webhooks import dispatch_quietly
from psan.runtime import db
from psan.store.annotation import (
    actions,
    apply_rule,
    decision_requests,
    document_locks,
    entity_decisions,
    suggestions,
    visibility,
)
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation import windows as store_windows
from psan.store.annotation.apply_rule import NeedsWholeDocument
from psan.store.annotation.decisions import Outcome, Scope, Span
from psan.store.annotation.suggestions import learn_type_rules, note_decision, types_to_learn
from psan.store.annotation.window_content import span_text
from psan.store.annotation.windows import Window
from psan.store.corpus.processing import request_reannotation
from psan.store.publish.corrections import category_needed_read

log = logging.getLogger(__name__)

#: the texts a decision writes (its lock covers only them), or ``None``: it locks the whole document
Texts = Sequence[Sequence[str]] | None


class AlreadySaved(Exception):  # noqa: N818 - an outcome, not a failure
    """The request (its client request id) was decided before: a retry, answered without deciding again."""


@dataclass(frozen=True, slots=True)
class Decided:
    """What the annotator's request changed: the merged outcome, the document's new status, the window renewed."""

    outcome: Outcome
    status: str | None
    category_needed: bool = False
    window: Window | None = None
    #: the logged action (psan.store.annotation.actions): what ``POST /annotate/api/undo`` takes back
    action_id: int = 0
    #: how many spans the request decided (accepting a window decides several)
    spans: int = 1


def decide_span(conn, window: Window, span: Span, scope: Scope, decision: str, account_id: int, *,
                label_id: int | None = None, always: bool = False, ne_type: str | None = None,
                lease_seconds: int, request_id: str | None = None) -> Decided:
    """Decide one span by token, word type or NE type (:func:`psan.store.annotation.decisions.decide`)."""
    tokens = span_text(conn, span.document_id, span.first_token, span.end_token, window.recognized_at)
    if scope is Scope.WORD_TYPE or decision == "PRIVATE":  # it will make a word-type rule
        apply_rule.prefetch_word_type_matches(conn, span.document_id, tokens, stamp=window.recognized_at)
    texts = None if scope is Scope.NE_TYPE else [tokens]
    # a private span nothing recognized and no label categorizes: ask the annotator (else [OTHER]);
    # a read, so after the commit, outside any lock the other annotators wait for (with the status's)
    category = category_needed_read(span.document_id, span.first_token, span.end_token, label_id) \
        if decision == "PRIVATE" else None
    outcome, status, renewed, action_id, (needed,) = write(
        conn, window, account_id, lease_seconds, texts, [span],
        lambda: store_decisions.decide(conn, span, scope, decision, account_id, tokens, label_id, always, ne_type),
        Action(str(scope), {"decision": decision}), request_id, [category])
    return Decided(outcome, status, bool(needed and needed["needed"]), renewed, action_id)


def decide_entity(conn, window: Window, span: Span, decision: str, account_id: int, *,
                  label_id: int | None = None, lease_seconds: int, request_id: str | None = None) -> Decided:
    """Decide every mention of the span's entity, here and in the project's other documents."""
    outcome, status, renewed, action_id, _ = write(
        conn, window, account_id, lease_seconds, None, [span],
        lambda: entity_decisions.decide_entity(conn, span, decision, account_id, label_id),
        Action("entity", {"decision": decision}), request_id)
    return Decided(outcome, status, window=renewed, action_id=action_id)


def accept_suggestions(conn, window: Window, account_id: int, *, lease_seconds: int,
                       request_id: str | None = None, elided: tuple[int, int] | None = None) -> Decided | None:
    """Decide every suspicious span of the window as suggested, by token; ``None`` when nothing is left.

    ``elided``: the middle of an over-long window the caller is not shown; its spans are neither decided nor
    counted (a person accepts what they saw).

    By token only (a rule is a person's choice): accepting never creates a project rule (the keys ``S``, ``P``, ``C``,
    ``x`` say when a rule is wanted); a PRIVATE token decision keeps its lookup rule (confidence 0:
    the same words become suspicious elsewhere, never public).  One action: ``u`` undoes it whole.
    """
    pending = [a for a in annotations_json(conn, window, window.first_token, window.end_token)
               if a["decision"] == "SUSPICIOUS" and a.get("suggestion")
               and not visibility.hidden_span(a["first_token"], a["end_token"], elided)]
    if not pending:
        return None
    spans = [Span(window.project_id, window.document_id, a["first_token"], a["end_token"]) for a in pending]
    texts = [span_text(conn, s.document_id, s.first_token, s.end_token, window.recognized_at) for s in spans]

    def decide_all() -> Outcome:
        outcomes = []
        for a, span, tokens in zip(pending, spans, texts, strict=True):
            outcomes.append(store_decisions.decide(conn, span, Scope.TOKEN, a["suggestion"], account_id, tokens,
                                                   log_action="accept"))
        return merge(outcomes)

    outcome, status, renewed, action_id, _ = write(conn, window, account_id, lease_seconds, texts, spans, decide_all,
                                                Action("accept", {"spans": len(spans)}), request_id)
    return Decided(outcome, status, window=renewed, action_id=action_id, spans=len(spans))


def assign_label(conn, window: Window, span: Span, label_id: int, account_id: int, *, always: bool = False,
                 lease_seconds: int, request_id: str | None = None) -> Decided:
    """Mark the span private with a label (:func:`psan.store.annotation.decisions.assign_label`)."""
    tokens = span_text(conn, span.document_id, span.first_token, span.end_token, window.recognized_at)
    apply_rule.prefetch_word_type_matches(conn, span.document_id, tokens, stamp=window.recognized_at)
    outcome, status, renewed, action_id, _ = write(
        conn, window, account_id, lease_seconds, [tokens], [span],
        lambda: store_decisions.assign_label(conn, span, label_id, account_id, tokens, always),
        Action("label", {"decision": "PRIVATE", "always": always}), request_id)
    return Decided(outcome, status, window=renewed, action_id=action_id)


@dataclass(frozen=True, slots=True)
class Action:
    """How a request is logged for undo (:mod:`psan.store.annotation.actions`): its kind and a detail (no text)."""

    kind: str
    detail: dict


def write(conn, window: Window, account_id: int, lease_seconds: int, texts: Texts, spans: list[Span],
          decide: Callable[[], Outcome], action: Action, request_id: str | None = None,
          reads: Sequence[db.Read | None] = ()) -> tuple[Outcome, str | None, Window | None, int, list[dict | None]]:
    """Renew the lease, lock, ``decide`` as one logged action, apply the changed rules to this document and
    commit; then :func:`after_decision`.  Returns the outcome, the document's status, the renewed window and
    the action's id, and the rows of ``reads`` (one-row reads made after the commit with the status's).

    ``texts``: lock only these words (``None``: the whole document).  If the rules need the whole
    document after all, everything is rolled back and done again under the whole-document lock.
    ``request_id``: the client's id of the request, claimed in the decision's transaction
    (:class:`AlreadySaved` when it was claimed before: a retry of a saved request).
    """
    document_id = window.document_id
    first = spans[0] if len(spans) == 1 else None
    for whole in ((False, True) if texts is not None else (True,)):
        try:
            with db.write_transaction(conn):
                if request_id is not None and not decision_requests.claim(conn, account_id, request_id):
                    raise AlreadySaved(request_id)  # first, so nothing else of this transaction is written
                # the lease (own row: no one waits for it) and the lock ride with the action's statement
                store_windows.renew(conn, account_id, lease_seconds, decided=True, deferred=True)
                if whole:
                    document_locks.lock_document(conn, document_id, deferred=True)
                else:
                    document_locks.lock_words(conn, document_id, texts or (), deferred=True)
                actions.begin(conn, window.project_id, account_id, action.kind, document_id,
                              first.first_token if first else None, first.end_token if first else None,
                              action.detail, deferred=True)  # with the decision's first statement
                outcome = decide()
                action_id, began_at = outcome.action or actions.current(conn)
                if outcome.changes_spans:
                    known = outcome.document is not None and \
                        {f["id"] for f in outcome.rule_facts} >= set(outcome.changed_rule_ids)
                    apply_rule.apply_new_rules(conn, document_id,
                                               outcome.changed_rule_ids + outcome.removed_rule_ids,
                                               affected_annotation_ids=outcome.affected_annotation_ids,
                                               refresh_status=False, words_locked=not whole,
                                               covering=outcome.covering, uncovered=outcome.uncovered,
                                               known=(outcome.document, outcome.rule_facts) if known else None)
        except NeedsWholeDocument:
            conn.rollback()
            continue
        # committed (the lock released): what follows only reads, refreshes the status or talks to Redis
        note_decision(window.project_id)  # committed now: this process's next count reads it
        # the lease as the renewal wrote it: the transaction's time plus the lease, one decision more
        renewed = replace(window, expires_at=began_at + timedelta(seconds=lease_seconds),
                          decisions=window.decisions + 1, live=True)
        status, rows = after_decision(conn, window, outcome, spans, action_id, reads)
        return outcome, status, renewed, action_id, rows
    raise AssertionError("unreachable: the whole-document pass never raises NeedsWholeDocument")  # pragma: no cover


def undo(conn, account_id: int, action_id: int | None, *, any_author: bool = False) -> actions.Undone:
    """Undo the account's action ``action_id`` (``None``: its newest one not undone) and commit.

    The restored rules reach the project's other documents through the debounced re-annotation, as a
    decision's do.  :class:`psan.store.annotation.decisions.DecisionError` when there is nothing to undo.
    """
    if action_id is None:
        action_id = actions.latest_undoable(conn, account_id)
        if action_id is None:
            raise store_decisions.DecisionError(gettext("You have nothing to undo."), 409)
    undone = actions.undo_action(conn, action_id, account_id, any_author=any_author)
    conn.commit()
    note_decision(undone.project_id)
    if undone.rules_changed:
        try:
            scheduling.schedule_project_reannotation(undone.project_id)
        except Exception as exc:  # noqa: BLE001 - the undo is saved; the sweeper schedules the run later
            log_unscheduled(log, "could not schedule the re-annotation of project %s; the sweeper will",
                            undone.project_id, exc=exc)
            request_reannotation(conn, undone.project_id)
            conn.commit()
    return undone


def learn_types(conn, window: Window, spans: list[Span], action_id: int = 0,
                outcome: Outcome | None = None) -> tuple[list[int], str | None]:
    """Entity types whose decisions are now clear decide alone from here on (psan.store.annotation.suggestions).

    Runs after the decision's commit: the statistics are read without a lock; the whole document is
    locked (a short transaction of its own) only when a type's rule is to change - once per type and
    project.  Returns the changed rules and the document's new status (``None``: unchanged).
    A learned rule is part of the action that taught it (``action_id``): undoing it takes the rule back.
    ``outcome``: the decision's, whose entity types of the decided span need not be read again.
    """
    if not current_app.config.get("LEARN_ENTITY_TYPES", True):
        return [], None
    known = dict([outcome.span_types]) if outcome is not None and outcome.span_types is not None else {}
    with db.single_statements(conn):  # reads only: no BEGIN/COMMIT round trips around them
        types = sorted({t for span in spans
                        for t in (known[span] if span in known else store_decisions.span_entity_types(conn, span))})
        sensitive = None if window.sensitive_types is None else frozenset(window.sensitive_types)
        if not types or not types_to_learn(conn, window.project_id, types, sensitive):
            return [], None
    with db.write_transaction(conn):  # a transaction of its own, under the whole-document lock
        document_locks.lock_document(conn, window.document_id)
        if action_id:
            actions.resume(conn, action_id)
        changed = learn_type_rules(conn, window.project_id, types)
        if changed:
            apply_rule.apply_new_rules(conn, window.document_id, changed, refresh_status=False)
        status = apply_rule.refresh_document_status(conn, window.document_id)
    return changed, status


def merge(outcomes: list[Outcome]) -> Outcome:
    """One outcome for several decisions of one request (rules to apply, annotations touched)."""
    merged = Outcome(annotation_id=outcomes[0].annotation_id if outcomes else 0)
    for o in outcomes:
        merged.add(o)
    return merged


def after_decision(conn, window: Window, outcome: Outcome, spans: list[Span], action_id: int = 0,
                   reads: Sequence[db.Read | None] = ()) -> tuple[str | None, list[dict | None]]:
    """After the decision's commit: the document's status, learned types, the other documents.

    The current document already has the changed rules (:func:`write` applied them: a text search
    and two statements, a few milliseconds even on 10^6 tokens), so the annotator's next view shows
    their effect whatever the document's size; the debounced background run re-annotates the other
    documents and leaves this one out.  Returns the document's status and the rows of the caller's
    ``reads`` (one-row reads sent with the status refresh, the learning's and the retraining's reads:
    one round trip, :func:`psan.runtime.db.read_together`).
    """
    counts = suggestions.counts_read(window.project_id)
    with db.single_statements(conn):  # one round trip: no BEGIN/COMMIT around it
        status_row, counts_row, retrain_row, *rows = db.read_together(conn, [
            apply_rule.status_read(conn, window.document_id), counts.read if counts else None,
            scheduling.retrain_read(window.project_id), *reads])
    status = status_row["status"] if status_row else None
    if counts is not None:
        suggestions.take_counts(conn, counts, counts_row)
    learned, learned_status = learn_types(conn, window, spans, action_id, outcome)
    if learned:
        outcome.changed_rule_ids += [r for r in learned if r not in outcome.changed_rule_ids]
        outcome.rules_changed = True
    status = learned_status or status
    if outcome.rules_changed:
        try:
            scheduling.schedule_project_reannotation(window.project_id, exclude_document_id=window.document_id)
        except Exception as exc:  # noqa: BLE001 - the decision is saved; the sweeper schedules the run later
            log_unscheduled(log, "could not schedule the re-annotation of project %s; the sweeper will",
                            window.project_id, exc=exc)
            request_reannotation(conn, window.project_id)
            conn.commit()
    with db.single_statements(conn):  # reads (and a queued task): no BEGIN/COMMIT round trips around them
        # project-model hook: retrain after MODEL_RETRAIN_AFTER_DECISIONS new decisions (never raises)
        scheduling.maybe_schedule_retrain(conn, window.project_id, retrain_row)
        if outcome.model_only:  # a verdict that may stop the model's new spans: withdraw the undecided ones now
            scheduling.maybe_withdraw_new_spans(conn, window.project_id)
        if status == "DONE":  # the document's last span: the status trigger may have recorded project.decided
            dispatch_quietly(conn, window.project_id)
    return status, rows
