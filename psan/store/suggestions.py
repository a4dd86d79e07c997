"""Suggestions for the suspicious spans of a window, from the project's own decisions.

Why: with a suggestion on every suspicious span the annotator fixes only the wrong ones and
accepts the rest of the window with one key (``POST /annotate/api/accept``).  The evidence is
gathered for the window only (its annotations' lookup rules, the MODEL entities on its spans) plus
one aggregate of the project's decisions per entity type present in the window; the choice itself
is :func:`psan.tool.suggest.suggest_private`, which the simulated annotator of ``ner_eval`` uses too.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psan import db
from psan.tool.classifier.model import MODEL_TYPE
from psan.tool.document import Category
from psan.tool.suggest import Evidence, learned_type_confidence, suggest_private

__all__ = ["type_statistics", "add_suggestions", "learn_type_rules"]


def type_statistics(conn, project_id: int, types: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Per entity type: how many spans of it people decided PRIVATE and PUBLIC in the project."""
    if not types:
        return {}
    # starts from the project's decided annotations (partial index annotation_decided_idx, migration 0013)
    rows = db.query(
        "SELECT ne.type, count(*) FILTER (WHERE a.token_decision = 'PRIVATE') AS private, "
        "count(*) FILTER (WHERE a.token_decision = 'PUBLIC') AS public FROM named_entity ne "
        "JOIN document d ON d.id = ne.document_id AND d.project_id = %s "
        "JOIN annotation a ON a.document_id = ne.document_id AND a.first_token = ne.first_token "
        "AND a.end_token = ne.end_token AND a.token_decision IS NOT NULL "
        "WHERE ne.type = ANY(%s) GROUP BY ne.type", (project_id, list(types)), conn)
    return {r["type"]: (int(r["private"]), int(r["public"])) for r in rows}


def _category(value: str | None) -> Category:
    try:
        return Category(value or "OTHER")
    except ValueError:
        return Category.OTHER


def add_suggestions(conn, project_id: int, document_id: int, annotations: list[dict[str, Any]],
                    entity_rows: list[dict[str, Any]] | None = None) -> None:
    """Set ``suggestion`` (``"PRIVATE"``/``"PUBLIC"``) on every SUSPICIOUS annotation of the list.

    ``entity_rows``: the caller's rows of ``named_entity`` (``first_token, end_token, type, category,
    score``) covering the annotations, in ``first_token, id`` order; read here when not given.
    """
    suspicious = [a for a in annotations if a["decision"] == "SUSPICIOUS"]
    if not suspicious:
        return
    lo = min(a["first_token"] for a in suspicious)
    hi = max(a["end_token"] for a in suspicious)
    if entity_rows is None:
        entity_rows = db.query("SELECT first_token, end_token, type, category, score FROM named_entity "
                               "WHERE document_id = %s AND first_token >= %s AND first_token < %s "
                               "ORDER BY first_token, id", (document_id, lo, hi), conn)
    entity: dict[tuple[int, int], dict[str, Any]] = {}
    model_p: dict[tuple[int, int], float] = {}
    for e in entity_rows:
        if not lo <= e["first_token"] < hi:
            continue
        key = (e["first_token"], e["end_token"])
        if e["type"] == MODEL_TYPE:
            model_p[key] = max(model_p.get(key, 0.0), float(e["score"]))
        else:
            entity.setdefault(key, e)
    stats = type_statistics(conn, project_id, sorted({t for a in suspicious for t in a["ne_types"]
                                                      if t != MODEL_TYPE}))
    for a in suspicious:
        key = (a["first_token"], a["end_token"])
        words_private = sum(1 for r in a["rules"] if r["lookup"])  # each a private decision on these words
        by_type = [sum(stats.get(t, (0, 0))[i] for t in a["ne_types"]) for i in (0, 1)]
        ent = entity.get(key)
        ev = Evidence(words_private, 0, by_type[0], by_type[1], model_p.get(key),
                      _category(ent["category"] if ent else None))
        a["suggestion"] = "PRIVATE" if suggest_private(ev) else "PUBLIC"


def learn_type_rules(conn, project_id: int, types: Sequence[str]) -> list[int]:
    """Let the NE_TYPE rules of ``types`` decide alone when the project's decisions are clear.

    Only rules still at confidence 0 (suspicious, as created) change: a confidence an admin or an
    annotator ("by NE type") chose is kept.  Returns the ids of the changed rules, to re-apply.
    """
    changed = []
    for t, (private, public) in type_statistics(conn, project_id, [t for t in types if t != MODEL_TYPE]).items():
        confidence = learned_type_confidence(private, public)
        if confidence is None:
            continue
        row = db.query_one("UPDATE rule SET confidence = %s WHERE project_id = %s AND type = 'NE_TYPE' "
                           "AND condition = %s AND annotation_id IS NULL AND confidence = 0 RETURNING id",
                           (confidence, project_id, t), conn)
        if row:
            changed.append(int(row["id"]))
    return changed
