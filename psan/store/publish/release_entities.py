"""The entities section of the release report: how psan grouped mentions, in counts only.

Why a section of its own: the data owner signs that one person keeps one pseudonym, so the report
says how many entities there are per category, how many mentions each has (a distribution: one
huge entity or many singletons both deserve a second look), how many carry a label and how many a
person merged or split.  Entity keys are never reported: an automatic key is a digest of the
canonical form, i.e. of an original name, and could be matched against a list of names.

Counted from the stored entities (:mod:`psan.store.annotation.entities`): an entity is an ``entity`` row that
has mentions; *merged* are the rows a person merged into another (their mentions moved there),
*split* the rows a person split off (``manual:`` keys); *labelled* entities have at least one
mention whose span carries a person's label.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from psan.runtime import db

__all__ = ["entities_report", "BUCKETS"]

#: mentions-per-entity buckets of the distribution (upper bounds; the last one is open)
BUCKETS: tuple[tuple[str, int], ...] = (("1", 1), ("2", 2), ("3-5", 5), ("6-10", 10), ("11-50", 50))


def _bucket(mentions: int) -> str:
    for name, upper in BUCKETS:
        if mentions <= upper:
            return name
    return f">{BUCKETS[-1][1]}"


def entities_report(conn, project_id: int) -> dict[str, Any]:
    """Project and per-document entity counts (JSON-ready; no key, no text)."""
    rows = db.query(
        "SELECT e.id, e.category, e.key LIKE 'manual:%%' AS split, "
        "count(DISTINCT (m.document_id, m.first_token, m.end_token)) AS mentions, "
        "count(DISTINCT m.document_id) AS documents, bool_or(m.manual) AS manual, "
        "bool_or(a.token_label_id IS NOT NULL) AS labelled "
        "FROM entity e JOIN entity_mention m ON m.entity_id = e.id "
        "LEFT JOIN annotation a ON a.document_id = m.document_id AND a.first_token = m.first_token "
        "AND a.end_token = m.end_token "
        "WHERE e.project_id = %s AND e.merged_into IS NULL GROUP BY e.id, e.category, e.key ORDER BY e.id",
        (project_id,), conn)
    merged = db.query_one("SELECT count(*) AS n FROM entity WHERE project_id = %s AND merged_into IS NOT NULL",
                          (project_id,), conn)["n"]
    per_document = db.query(
        "SELECT m.document_id, e.category, count(DISTINCT e.id) AS n FROM entity_mention m "
        "JOIN entity e ON e.id = m.entity_id JOIN document d ON d.id = m.document_id "
        "WHERE d.project_id = %s GROUP BY 1, 2 ORDER BY 1, 2", (project_id,), conn)
    by_category: Counter[str] = Counter(r["category"] for r in rows)
    distribution: Counter[str] = Counter(_bucket(r["mentions"]) for r in rows)
    order = [name for name, _ in BUCKETS] + [f">{BUCKETS[-1][1]}"]
    documents: dict[str, dict[str, int]] = {}
    for r in per_document:
        documents.setdefault(str(r["document_id"]), {})[r["category"]] = r["n"]
    mentions = [r["mentions"] for r in rows]
    return {
        "entities": len(rows),
        "mentions": sum(mentions),
        "by_category": dict(sorted(by_category.items())),
        "mentions_per_entity": {k: distribution[k] for k in order if distribution[k]},
        "max_mentions": max(mentions, default=0),
        "across_documents": sum(1 for r in rows if r["documents"] > 1),
        "labelled": sum(1 for r in rows if r["labelled"]),
        "merged_by_person": merged,
        "split_by_person": sum(1 for r in rows if r["split"]),
        "corrected_by_person": sum(1 for r in rows if r["manual"]),
        "by_document": documents,
    }
