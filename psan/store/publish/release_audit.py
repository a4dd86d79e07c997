"""Why a release masks what it masks: read-only provenance of each span's final decision.

Why here: the end-to-end release measurement (``python -m ner_eval release``) charges every masked
character to the mechanism that settled its span (a person's decision, a preset, learned or authored
rule, the model) and explains each leaked mention by what the app held there.  It reads the app's
tables for that; the SQL lives with the rest of the store, so a schema change is checked here and
the measurement only shapes the rows.  Nothing here writes.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db


def private_ne_type_rule_ids(conn, project_id: int) -> set[int]:
    """Ids of the project's NE_TYPE rules that vote private now.

    Why: read right after pre-processing, before anyone decided, these are the rules private by the
    project's preset, which the audit tells apart from NE_TYPE rules learned or decided later.
    """
    return {int(r["id"]) for r in db.query("SELECT id FROM rule WHERE project_id = %s AND type = 'NE_TYPE' "
                                           "AND confidence < 0", (project_id,), conn)}


def rule_first_actions(conn, project_id: int) -> dict[int, str]:
    """Rule id → the ``decision_log`` action of the first logged decision that named the rule.

    Why: a WORD_TYPE rule made by an entity decision and one made by a word-type decision look alike
    in ``rule``; only the log says which of a person's actions created it.
    """
    return {int(r["rule_id"]): r["action"] for r in db.query(
        "SELECT DISTINCT ON (rule_id) rule_id, action FROM decision_log WHERE project_id = %s "
        "AND rule_id IS NOT NULL ORDER BY rule_id, id", (project_id,), conn)}


def span_provenance(conn, document_id: int) -> list[dict[str, Any]]:
    """Every annotation of the document with what may have settled it.

    Keys: ``first_token``, ``end_token``, ``decision`` (the person's token decision as text),
    ``rule_level``, ``action`` (the ``decision_log`` action of the last decision on exactly this span,
    or None), ``rules`` (``[rule id, type, confidence, has an author]`` of the project rules voting,
    span-specific rules left out) and ``ne_type`` (the least NE type found on exactly this span, or None).
    Why: the release audit needs all of it per span to name one mechanism for each masked character.
    """
    return db.query(
        "SELECT a.first_token, a.end_token, a.token_decision::text AS decision, a.rule_level, "
        "(SELECT l.action FROM decision_log l WHERE l.document_id = a.document_id AND l.first_token = a.first_token "
        " AND l.end_token = a.end_token ORDER BY l.id DESC LIMIT 1) AS action, "
        "coalesce((SELECT json_agg(json_build_array(r.id, r.type::text, r.confidence, r.author_id IS NOT NULL)) "
        " FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id WHERE ar.annotation_id = a.id "
        " AND r.annotation_id IS NULL), '[]') AS rules, "
        "(SELECT min(n.type) FROM named_entity n WHERE n.document_id = a.document_id "
        " AND n.first_token = a.first_token AND n.end_token = a.end_token) AS ne_type "
        "FROM annotation a WHERE a.document_id = %s", (document_id,), conn)


def annotations_overlapping(conn, document_id: int, first_token: int, end_token: int) -> list[dict[str, Any]]:
    """The annotations overlapping tokens ``[first_token, end_token)``, in document order, with their votes.

    Keys: ``first_token``, ``end_token``, ``decision``, ``rule_level`` and ``rules`` (``[type, confidence,
    span-specific]`` of every rule voting, by rule id).  Why: a leaked mention is explained by what the
    app held there (no document text).
    """
    return db.query(
        "SELECT a.first_token, a.end_token, a.token_decision::text AS decision, a.rule_level, "
        "coalesce((SELECT json_agg(json_build_array(r.type::text, r.confidence, r.annotation_id IS NOT NULL) "
        "ORDER BY r.id) FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "
        "WHERE ar.annotation_id = a.id), '[]') AS rules FROM annotation a WHERE a.document_id = %s "
        "AND a.first_token < %s AND %s < a.end_token ORDER BY a.first_token, a.end_token",
        (document_id, end_token, first_token), conn)

