"""Bulk decisions from the concordance: an admin decides many listed occurrences at once.

Why through :func:`psan.store.annotation.decisions.decide`: each occurrence is decided exactly as the
annotation window decides a span by token (the same rules, lookup rules, labels kept), and each
writes its ``decision_log`` row (action ``search``, detail ``bulk``: one id per request, so the
history can tell the request's decisions apart); the request is one undoable action.  A person saw
every occurrence in its context in the result list and ticked it: nothing is decided that nobody
looked at.

Per document, in its own transaction: the whole-document lock, the decisions, the changed rules
applied to that document, the status refreshed, commit.  The caller schedules the re-annotation of
the project's other documents (Celery belongs to ``psan.celery``).
"""
from __future__ import annotations

import uuid
from collections.abc import Iterable

from psan.store.annotation import actions, apply_rule, document_locks
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.decisions import Scope, Span
from psan.store.annotation.window_content import span_text
from psan.store.shared.document_status import ANNOTATABLE_SQL

#: at most this many occurrences in one bulk decision (the result list's length)
MAX_BULK = 500


def decide_occurrences(conn, project_id: int, spans: Iterable[tuple[int, int, int]], decision: str,
                       account_id: int) -> tuple[int, bool, int | None]:
    """Decide ``(document_id, first_token, end_token)`` spans of the project; (decided, rules changed, action).

    Spans of documents outside the project or not annotatable are skipped; a span is checked against
    its document's token count.  The whole request is one action of :mod:`psan.store.annotation.actions` (one
    undo takes back every occurrence it decided, in every document), logged in each document's
    transaction.
    """
    from psan.runtime import db
    batch = uuid.uuid4().hex
    by_doc: dict[int, list[tuple[int, int]]] = {}
    for document_id, first, end in spans:
        by_doc.setdefault(int(document_id), []).append((int(first), int(end)))
    decided, rules_changed, action_id = 0, False, None
    for document_id, doc_spans in sorted(by_doc.items()):
        conn.commit()
        document_locks.lock_document(conn, document_id)
        doc = db.query_one("SELECT token_count FROM document WHERE id = %s AND project_id = %s AND status IN "  # noqa: S608  # nosec B608
                           + ANNOTATABLE_SQL, (document_id, project_id), conn)
        if doc is None:
            continue
        if action_id is None:
            action_id = actions.begin(conn, project_id, account_id, "search", detail={"decision": decision,
                                                                                      "bulk": batch})
        else:
            actions.resume(conn, action_id)
        merged = store_decisions.Outcome(annotation_id=0)
        for first, end in sorted(set(doc_spans)):
            if not 0 <= first < end <= doc["token_count"]:
                continue
            span = Span(project_id, document_id, first, end)
            tokens = span_text(conn, document_id, first, end)
            merged.add(store_decisions.decide(conn, span, Scope.TOKEN, decision, account_id, tokens,
                                              log_action="search", log_detail={"scope": "token", "bulk": batch}))
            decided += 1
        if merged.changes_spans:
            apply_rule.apply_new_rules(conn, document_id, merged.changed_rule_ids + merged.removed_rule_ids,
                                       affected_annotation_ids=merged.affected_annotation_ids, refresh_status=False,
                                       covering=merged.covering, uncovered=merged.uncovered)
            rules_changed = rules_changed or merged.rules_changed
        apply_rule.refresh_document_status(conn, document_id)
        conn.commit()
    return decided, rules_changed, action_id
