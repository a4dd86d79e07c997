"""The action log and undo: every annotator action can be undone by its author.

Why a log of before-images: one key (``a``, ``x``, ``S``, a bulk decision from a search page)
changes person decisions and project rules, and the rules change other documents when the project
is re-annotated.  Undo must put back exactly what the action changed, wherever it was, and nothing
else.  An action is one ``action`` row (author, kind, the window's document and span, created_at);
while the transaction-local setting ``psan.action`` names it, database triggers (migration 0016)
write the before-image of every annotation decision and rule row the action touches into
``action_change`` (the first image per row only), and so of the entity mentions and entities an
entity merge or split changes.  Derived data (rule matches, levels, statuses) is not logged: undo
restores decisions, rules and entities and re-applies the rules, which derives it again.

Use: :func:`begin` inside the transaction of the action, before its first write (the decision
workflow does it in :func:`psan.annotate.workflow.write`); :func:`resume` in a later transaction
that belongs to the same action (learned entity-type rules after a decision).  :func:`undo_action`
undoes one action in one transaction, under the whole-document lock of every document whose
decisions it restores (the lock decisions take), refusing when a later action that is not undone
changed one of the same rows (undo that one first).  The undo is logged in ``decision_log``
(action ``undo``, one row per restored span, so per-type statistics see it) and marks the action
undone.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.store.annotation import apply_rule, document_locks
from psan.store.annotation.decisions import DecisionError, Span, log_decision
from psan.store.corpus.reannotate import reannotate_document_now

__all__ = ["begin", "current", "resume", "undo_action", "history", "latest_undoable", "Undone"]

#: the kind of a whole-entity decision (its reach beyond the window is not counted to its author)
ENTITY_KIND = "entity"

#: columns of a rule row written back by undo (``id`` is kept, so lookup links and the log still match)
_RULE_COLUMNS = ("id", "project_id", "type", "condition", "case_sensitive", "confidence", "label_id",
                 "annotation_id", "author_id", "created_at", "document_only")


_BEGIN = ("WITH a AS (INSERT INTO action (project_id, account_id, kind, document_id, first_token, end_token, "
          "detail) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id) "
          "SELECT id, set_config('psan.action', id::text, true) FROM a")


def begin(conn, project_id: int, account_id: int, kind: str, document_id: int | None = None,
          first_token: int | None = None, end_token: int | None = None,
          detail: dict[str, Any] | None = None, deferred: bool = False) -> int | None:
    """Start logging an action in the caller's transaction; its id.  Call before the action's first write.

    ``deferred``: the row rides with the transaction's next statement (:func:`psan.runtime.db.defer`) and
    ``None`` is returned; :func:`current` (or a statement reading the ``psan.action`` setting) tells the id.
    """
    # the row and :func:`resume`'s setting in one round trip (the ``action`` table has no capture trigger)
    params = (project_id, account_id, kind[:40], document_id, first_token, end_token, json.dumps(detail or {}))
    if deferred:
        db.defer(_BEGIN, params, conn)
        return None
    row = db.query_one(prepared(_BEGIN), params, conn)
    return int(row["id"])


def current(conn) -> tuple[int, Any]:
    """The action this transaction logs (:func:`begin`) and the transaction's time."""
    row = db.query_one("SELECT nullif(current_setting('psan.action', true), '')::bigint AS id, now() AS at",
                       None, conn)
    return int(row["id"]), row["at"]


def resume(conn, action_id: int) -> None:
    """Log what the rest of this transaction changes into ``action_id`` (until the transaction ends)."""
    db.query_one("SELECT set_config('psan.action', %s, true)", (str(action_id),), conn)


def pause(conn) -> None:
    """Stop logging in this transaction (what follows is not part of the action)."""
    db.query_one("SELECT set_config('psan.action', '', true)", None, conn)


@dataclass(slots=True)
class Undone:
    """What an undo did: the action, the documents whose decisions it restored, the rules it restored."""

    action_id: int
    project_id: int
    document_ids: list[int] = field(default_factory=list)
    rule_ids: list[int] = field(default_factory=list)
    spans: int = 0
    #: the action's kind (an entity decision's count reaches outside the window: not shown, as in :func:`history`)
    kind: str = ""

    @property
    def rules_changed(self) -> bool:
        return bool(self.rule_ids)

    @property
    def shown_spans(self) -> int | None:
        """The restored decisions a person may be told of: ``None`` for an entity decision (see :func:`history`)."""
        return _shown_count(self.kind, self.spans)


def _action(conn, action_id: int) -> dict[str, Any] | None:
    return db.query_one("SELECT id, project_id, account_id, kind, document_id, undone_at FROM action WHERE id = %s",
                        (action_id,), conn)


#: an action (``a``) that changed a row: one that changed none is neither listed nor undone by ``u``
_CHANGED = "EXISTS (SELECT 1 FROM action_change c WHERE c.action_id = a.id)"


def latest_undoable(conn, account_id: int) -> int | None:
    """The caller's newest action that is not undone and changed something (key ``u``: deciding a span again as it
    was decided changes nothing, and undoing that would seem to do nothing)."""
    row = db.query_one(f"SELECT id FROM action a WHERE account_id = %s AND undone_at IS NULL AND kind <> 'undo' "  # noqa: S608  # nosec B608
                       f"AND {_CHANGED} ORDER BY id DESC LIMIT 1", (account_id,), conn)
    return int(row["id"]) if row else None


def _later_conflict(conn, action_id: int) -> int | None:
    """A later action (not undone) that changed a row this action changed: undoing this one would clobber it."""
    row = db.query_one(
        "SELECT min(l.action_id) AS id FROM action_change c JOIN action_change l ON l.action_id > c.action_id "
        "AND l.target = c.target AND ((c.row_id IS NOT NULL AND l.row_id = c.row_id) OR (c.document_id IS NOT NULL "
        "AND l.document_id = c.document_id AND l.first_token = c.first_token AND l.end_token = c.end_token)) "
        "JOIN action a ON a.id = l.action_id AND a.undone_at IS NULL WHERE c.action_id = %s", (action_id,), conn)
    return int(row["id"]) if row and row["id"] is not None else None


def undo_action(conn, action_id: int, account_id: int, *, any_author: bool = False) -> Undone:
    """Undo one action in the caller's transaction (see the module docstring); the caller commits.

    Only its author may undo it (``any_author`` for an admin's page).  Raises
    :class:`psan.store.annotation.decisions.DecisionError` (404: no such action; 403: someone else's; 409:
    undone already, or a later action changed the same rows).  The caller schedules the project's
    re-annotation when ``rules_changed`` (the other documents follow the restored rules).
    """
    act = _action(conn, action_id)
    if act is None or (act["account_id"] != account_id and not any_author):
        raise DecisionError(gettext("No such action of yours."), 404)
    db.query_one("SELECT id FROM action WHERE id = %s FOR UPDATE", (action_id,), conn)  # two undos serialize
    act = _action(conn, action_id)
    if act["undone_at"] is not None:
        raise DecisionError(gettext("This action was undone already."), 409)
    if act["kind"] == "undo":
        raise DecisionError(gettext("An undo cannot be undone; decide again instead."), 409)
    changes = db.query("SELECT id, target, document_id, first_token, end_token, row_id, before FROM action_change "
                       "WHERE action_id = %s ORDER BY id DESC", (action_id,), conn)
    documents = sorted({int(c["document_id"]) for c in changes if c["target"] == "annotation"}
                       | ({int(act["document_id"])} if act["document_id"] is not None else set()))
    for document_id in documents:  # ascending ids: two undos never wait for each other crosswise
        document_locks.lock_document(conn, document_id)
    later = _later_conflict(conn, action_id)
    if later is not None:
        raise DecisionError(gettext("A later action changed the same decisions or rules; undo that one first."), 409)
    undone = Undone(action_id, int(act["project_id"]), documents, kind=act["kind"])
    pause(conn)
    for c in changes:  # newest first: a rule is back before the annotation it belongs to is looked at
        if c["target"] == "rule":
            _restore_rule(conn, int(c["row_id"]), c["before"])
            undone.rule_ids.append(int(c["row_id"]))
    _restore_entities(conn, changes)
    for c in reversed(changes):  # annotations after rules; lookup rules re-created above point at their ids
        if c["target"] != "annotation":
            continue
        decision = _restore_annotation(conn, c)
        undone.spans += 1
        log_decision(conn, Span(undone.project_id, int(c["document_id"]), c["first_token"], c["end_token"]),
                     account_id, "undo", decision, None, None, {"action": action_id, "kind": act["kind"]})
    for document_id in documents:
        reannotate_document_now(conn, document_id)
        apply_rule.refresh_document_status(conn, document_id)
    db.execute("UPDATE action SET undone_at = now(), undone_by = %s WHERE id = %s", (account_id, action_id), conn)
    db.execute("INSERT INTO action (project_id, account_id, kind, detail) VALUES (%s, %s, 'undo', %s)",
               (undone.project_id, account_id, json.dumps({"undoes": action_id, "kind": act["kind"]})), conn)
    return undone


def _restore_rule(conn, rule_id: int, before: dict[str, Any] | None) -> None:
    if before is None:
        db.execute("DELETE FROM rule WHERE id = %s", (rule_id,), conn)
        return
    values = [before.get(c) for c in _RULE_COLUMNS]
    columns = ", ".join(_RULE_COLUMNS)
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in _RULE_COLUMNS if c != "id")
    # a rule the action deleted comes back with its id; one it changed gets its old values (a label,
    # account or annotation deleted since is left out, as their foreign keys would have done)
    db.execute(f"INSERT INTO rule ({columns}) VALUES (%s, %s, %s::rule_type, %s, %s, %s, "  # noqa: S608  # nosec B608
               "(SELECT id FROM label WHERE id = %s), (SELECT id FROM annotation WHERE id = %s), "
               f"(SELECT id FROM account WHERE id = %s), %s, coalesce(%s, false) "
               "AND EXISTS (SELECT 1 FROM annotation WHERE id = %s)) "
               f"ON CONFLICT (id) DO UPDATE SET {updates}",
               [*values, before.get("annotation_id")], conn)


def _restore_entities(conn, changes: list[dict[str, Any]]) -> None:
    """Entities and mentions as before a merge or split: old entities back, mentions re-pointed, new ones gone."""
    for c in changes:
        if c["target"] == "entity" and c["before"] is not None:
            b = c["before"]
            db.execute("INSERT INTO entity (id, project_id, key, category, merged_into, created_at) "
                       "VALUES (%s, %s, %s, %s, NULL, %s) ON CONFLICT (id) DO UPDATE SET category = EXCLUDED.category",
                       (b["id"], b["project_id"], b["key"], b["category"], b["created_at"]), conn)
    for c in changes:
        if c["target"] == "entity" and c["before"] is not None:
            db.execute("UPDATE entity SET merged_into = (SELECT id FROM entity WHERE id = %s) WHERE id = %s",
                       (c["before"].get("merged_into"), c["row_id"]), conn)
        elif c["target"] == "entity_mention" and c["before"] is not None:
            db.execute("UPDATE entity_mention SET entity_id = %s, manual = %s WHERE document_id = %s "
                       "AND first_token = %s AND end_token = %s AND EXISTS (SELECT 1 FROM entity WHERE id = %s)",
                       (c["before"]["entity_id"], c["before"]["manual"], c["document_id"], c["first_token"],
                        c["end_token"], c["before"]["entity_id"]), conn)
    for c in changes:  # entities the action made (a split's new entity): their mentions went back above
        if c["target"] == "entity" and c["before"] is None:
            db.execute("DELETE FROM entity e WHERE id = %s AND NOT EXISTS "
                       "(SELECT 1 FROM entity_mention m WHERE m.entity_id = e.id)", (c["row_id"],), conn)


def _restore_annotation(conn, change: dict[str, Any]) -> str | None:
    """The span's person decision as before the action; the decision now (``None``: undecided)."""
    key = (change["document_id"], change["first_token"], change["end_token"])
    before = change["before"]
    if before is None or before.get("token_decision") is None:
        # no person decision before: the span is the rules' again (deleted when no rule matches it;
        # the re-annotation that follows decides)
        db.execute("UPDATE annotation SET token_decision = NULL, token_label_id = NULL, decided_by = NULL, "
                   "decided_at = NULL WHERE document_id = %s AND first_token = %s AND end_token = %s", key, conn)
        db.execute("DELETE FROM annotation a WHERE document_id = %s AND first_token = %s AND end_token = %s "
                   "AND NOT EXISTS (SELECT 1 FROM annotation_rule ar WHERE ar.annotation_id = a.id)", key, conn)
        return None
    db.execute("INSERT INTO annotation (document_id, first_token, end_token, token_decision, token_label_id, "
               "decided_by, decided_at) VALUES (%s, %s, %s, %s::decision, "
               "(SELECT id FROM label WHERE id = %s), (SELECT id FROM account WHERE id = %s), %s) "
               "ON CONFLICT (document_id, first_token, end_token) DO UPDATE SET "
               "token_decision = EXCLUDED.token_decision, token_label_id = EXCLUDED.token_label_id, "
               "decided_by = EXCLUDED.decided_by, decided_at = EXCLUDED.decided_at",
               (*key, before["token_decision"], before.get("token_label_id"), before.get("decided_by"),
                before.get("decided_at")), conn)
    return str(before["token_decision"])


def history(conn, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
    """The account's own actions, newest first: id, kind, when, undone, the span and how much it changed.

    ``rules`` counts only the project rules the person made or changed (a word or name rule): the
    lookup rule that records a span's own decision (``s``, ``a``: "this place only") and the learned
    entity-type confidences are bookkeeping, and counting them told the annotator ``s`` made a rule.
    Only the author's own actions (their own windows' spans): nothing about others' work.  An
    entity decision reaches mentions outside the window (and a rule per spelling of the name), so
    its counts would tell how often the entity is named elsewhere: they are ``None``
    (the window is the confidentiality boundary).
    """
    rows = db.query(
        "SELECT a.id, a.kind, a.created_at, a.undone_at, a.document_id, a.first_token, a.end_token, "  # noqa: S608  # nosec B608
        "a.detail->>'decision' AS decision, "
        "(SELECT count(*) FROM action_change c WHERE c.action_id = a.id AND c.target = 'annotation') AS spans, "
        "(SELECT count(*) FROM action_change c LEFT JOIN rule r ON r.id = c.row_id "
        " WHERE c.action_id = a.id AND c.target = 'rule' "
        "   AND COALESCE(r.annotation_id::text, c.before->>'annotation_id') IS NULL "
        "   AND COALESCE(r.type::text, c.before->>'type') <> 'NE_TYPE') AS rules "
        f"FROM action a WHERE a.account_id = %s AND a.kind <> 'undo' AND {_CHANGED} ORDER BY a.id DESC LIMIT %s",
        (account_id, limit), conn)
    return [{"id": int(r["id"]), "kind": r["kind"], "decision": r["decision"],
             "created_at": r["created_at"].isoformat(), "undone": r["undone_at"] is not None,
             "document_id": r["document_id"], "first_token": r["first_token"], "end_token": r["end_token"],
             "spans": _shown_count(r["kind"], int(r["spans"])),
             "rules": _shown_count(r["kind"], int(r["rules"]))} for r in rows]


def _shown_count(kind: str, count: int) -> int | None:
    """A count of what an action changed as its author may be told it: ``None`` for an entity decision, which reaches
    mentions outside the window (see :func:`history`)."""
    return None if kind == ENTITY_KIND else count
