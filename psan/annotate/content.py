"""What an annotation window shows: tokens, sentences and annotations as plain JSON data.

Why plain data: the browser builds the DOM with ``textContent`` only, so document text, label
names and rule conditions can never become markup.  Label *replacements* are never selected here
(they are the pseudonymization key, annotators must not see them).

Only the window's own rows are read (index range scans); token texts come from the per-process
cache of the document's text and token offsets (:mod:`psan.store.document_text`), so a window costs
the same at the start and at the end of a 1M-token document.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from psan import db
from psan.status_names import status_name
from psan.store.document_text import document_text
from psan.store.suggestions import add_suggestions
from psan.store.windows import Window
from psan.tool.voting import Thresholds

#: whitespace between two tokens is shown up to this length (long runs add nothing)
MAX_GAP_CHARS = 200


def tokens_json(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[dict[str, Any]]:
    """``[{"i": index, "text": token text, "after": whitespace up to the next token}]`` of ``[first, end)``.

    ``stamp``: the document's ``recognized_at`` if the caller has read it (see :func:`document_text`).
    """
    doc = document_text(conn, document_id, stamp)
    if doc is None:
        return []
    text = doc.text
    lo, hi = max(first, 0), min(end, doc.token_count)
    starts = doc.starts[lo:hi].tolist()
    ends = doc.ends[lo:hi].tolist()
    result = []
    for pos, (start, stop) in enumerate(zip(starts, ends, strict=True)):
        # the whitespace up to the next token of the window (none after the window's last token)
        after = text[stop:starts[pos + 1]][:MAX_GAP_CHARS] if pos + 1 < len(starts) else ""
        result.append({"i": lo + pos, "text": text[start:stop], "after": after})
    return result


def span_text(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[str]:
    """The token texts of a span (for word-type rule conditions)."""
    doc = document_text(conn, document_id, stamp)
    return doc.token_texts(first, end) if doc is not None else []


def sentences_json(conn, document_id: int, first: int, end: int) -> list[list[int]]:
    rows = db.query("SELECT first_token, end_token FROM sentence WHERE document_id = %(doc)s "
                    "AND first_token >= coalesce((SELECT max(first_token) FROM sentence WHERE document_id = %(doc)s "
                    "AND first_token <= %(lo)s), 0) AND first_token < %(hi)s ORDER BY first_token",
                    {"doc": document_id, "lo": first, "hi": end}, conn)
    return [[max(r["first_token"], first), min(r["end_token"], end)] for r in rows]


def _rules_by_annotation(conn, ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    rules: dict[int, list[dict[str, Any]]] = defaultdict(list)
    if not ids:
        return rules
    for r in db.query("SELECT ar.annotation_id, r.id, r.type::text AS type, r.condition, r.confidence, r.label_id, "
                      "r.annotation_id IS NOT NULL AS lookup FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "
                      "WHERE ar.annotation_id = ANY(%s) ORDER BY r.id", (ids,), conn):
        rules[r.pop("annotation_id")].append(r)
    return rules


def rule_label(rules: list[dict[str, Any]]) -> int | None:
    """The label of the strongest labelled rule (largest |confidence|, then oldest), as in voting."""
    labelled = [r for r in rules if r["label_id"] is not None]
    if not labelled:
        return None
    return min(labelled, key=lambda r: (-abs(r["confidence"]), r["id"]))["label_id"]


def label_names(conn, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {r["id"]: r["name"] for r in db.query("SELECT id, name FROM label WHERE id = ANY(%s)", (list(ids),), conn)}


def final_decision(row: dict[str, Any], thresholds: Thresholds) -> str:
    """The voting semantics of :func:`psan.tool.voting.final_decision` on a database row."""
    if row["token_decision"]:
        return str(row["token_decision"])
    return str(thresholds.classify(row["rule_level"]))


def annotations_json(conn, window: Window, first: int, end: int) -> list[dict[str, Any]]:
    """Annotations lying inside ``[first, end)`` with their final decision, label name and rule summary."""
    rows = db.query("SELECT id, first_token, end_token, token_decision::text AS token_decision, token_label_id, "
                    "rule_level FROM annotation WHERE document_id = %s AND first_token >= %s AND first_token < %s "
                    "AND end_token <= %s ORDER BY first_token, end_token DESC",
                    (window.document_id, first, end, end), conn)
    rules = _rules_by_annotation(conn, [r["id"] for r in rows])
    entities: dict[tuple[int, int], list[str]] = defaultdict(list)
    entity_rows = db.query("SELECT first_token, end_token, type, category, score FROM named_entity "
                           "WHERE document_id = %s AND first_token >= %s AND first_token < %s "
                           "ORDER BY first_token, id", (window.document_id, first, end), conn)
    for e in entity_rows:
        if e["type"] not in entities[(e["first_token"], e["end_token"])]:
            entities[(e["first_token"], e["end_token"])].append(e["type"])
    thresholds = Thresholds(window.public_threshold, window.private_threshold)
    label_of = {r["id"]: (r["token_label_id"] if r["token_label_id"] is not None else rule_label(rules[r["id"]]))
                for r in rows}
    names = label_names(conn, {v for v in label_of.values() if v is not None})
    result = []
    for r in rows:
        decision = final_decision(r, thresholds)
        label_id = label_of[r["id"]] if decision == "PRIVATE" else None
        result.append({
            "id": r["id"], "first_token": r["first_token"], "end_token": r["end_token"],
            "decision": decision, "source": "USER" if r["token_decision"] else "RULE",
            "rule_level": r["rule_level"], "has_label": label_id is not None,
            "label_id": label_id, "label": names.get(label_id) if label_id is not None else None,
            "ne_types": entities.get((r["first_token"], r["end_token"]), []),
            "rules": [{"type": x["type"], "condition": x["condition"], "confidence": x["confidence"],
                       "lookup": x["lookup"]} for x in rules[r["id"]]],
        })
    add_suggestions(conn, window.project_id, window.document_id, result, entity_rows)
    return result


def window_json(conn, window: Window, is_admin: bool, first: int | None = None,
                end: int | None = None) -> dict[str, Any]:
    """The whole window (or a sub-range of it, already checked by the caller) as JSON data."""
    first = window.first_token if first is None else first
    end = window.end_token if end is None else end
    doc = db.query_one("SELECT d.name, d.status::text AS status, d.token_count, d.recognized_at, "
                       "p.name AS project_name, p.ask_labels "
                       "FROM document d JOIN project p ON p.id = d.project_id WHERE d.id = %s",
                       (window.document_id,), conn)
    return {
        "window": {"document_id": window.document_id, "project_id": window.project_id,
                   "first_token": window.first_token, "end_token": window.end_token,
                   "expires_at": window.expires_at.isoformat(), "decisions": window.decisions,
                   "forced": window.forced, "can_widen": is_admin},
        "document": {"id": window.document_id, "name": doc["name"], "status": doc["status"],
                     "status_name": status_name(doc["status"]), "token_count": doc["token_count"]},
        "project": {"id": window.project_id, "name": doc["project_name"], "ask_labels": doc["ask_labels"],
                    "public_threshold": window.public_threshold, "private_threshold": window.private_threshold},
        "range": [first, end],
        "tokens": tokens_json(conn, window.document_id, first, end, doc["recognized_at"]),
        "sentences": sentences_json(conn, window.document_id, first, end),
        "annotations": annotations_json(conn, window, first, end),
    }
