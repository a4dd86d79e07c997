"""The rows an annotation window shows: tokens and their text, sentences, annotations, rules, labels.

Why here: :mod:`psan.annotate.content` shapes them into JSON and decisions (psan.store.annotation.decisions,
psan.store.annotation.entity_decisions) need the same token texts; the SQL has one home.

Only the window's own rows are read (index range scans); token texts come from the per-process cache
of the document's text and token offsets (:mod:`psan.store.corpus.document_text`), so a window costs the same
at the start and at the end of a 1M-token document.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.store.corpus.document_text import document_text


def token_texts(conn, document_id: int, first: int, end: int, stamp: Any = None) -> tuple[list[str], list[str]]:
    """Texts of tokens ``[first, end)`` and the whitespace after each (empty after the last one).

    From the per-process cache of the document's text and token offsets (:mod:`psan.store.corpus.document_text`);
    ``stamp``: the document's ``recognized_at`` when the caller has read it (saves a lookup).
    """
    doc = document_text(conn, document_id, stamp)
    if doc is None:
        return [], []
    text = doc.text
    lo, hi = max(first, 0), min(end, doc.token_count)
    starts = doc.starts[lo:hi].tolist()
    ends = doc.ends[lo:hi].tolist()
    words = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    gaps = [text[b:a] for b, a in zip(ends, starts[1:], strict=False)] + ([""] if words else [])
    return words, gaps


def span_text(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[str]:
    """The token texts of a span (for word-type rule conditions)."""
    doc = document_text(conn, document_id, stamp)
    return doc.token_texts(first, end) if doc is not None else []


def sentence_rows(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[dict[str, Any]]:
    """Sentences overlapping ``[first, end)`` (the one containing ``first`` included), in order.

    From the per-process document cache (sentences change only with a new recognition); ``stamp``:
    the document's ``recognized_at`` when the caller has read it (saves a lookup).
    """
    doc = document_text(conn, document_id, stamp)
    if doc is None:
        return []
    return [{"first_token": a, "end_token": b} for a, b in doc.sentences_overlapping(first, end)]


def label_names(conn, ids: set[int]) -> dict[int, str]:
    """Names of the labels ``ids`` (never their replacements: annotators must not see the key)."""
    if not ids:
        return {}
    return {r["id"]: r["name"] for r in db.query(prepared("SELECT id, name FROM label WHERE id = ANY(%s)"),
                                                 (list(ids),), conn)}


def annotation_rows(conn, document_id: int, first: int, end: int) -> list[dict[str, Any]]:
    """Annotations lying inside ``[first, end)``, longest first at each position, each with its ``rules``.

    ``rules``: the linked rules, oldest first (``id, type, condition, confidence, label_id, lookup``),
    read in the same statement (every window and every decision's answer shows them).
    """
    return db.query(prepared(
        "SELECT a.id, a.first_token, a.end_token, a.token_decision::text AS token_decision, a.token_label_id, "
        "a.rule_level, coalesce((SELECT json_agg(json_build_object('id', r.id, 'type', r.type::text, "
        "'condition', r.condition, 'confidence', r.confidence, 'label_id', r.label_id, "
        "'lookup', r.annotation_id IS NOT NULL) ORDER BY r.id) FROM annotation_rule ar JOIN rule r "
        "ON r.id = ar.rule_id WHERE ar.annotation_id = a.id), '[]') AS rules FROM annotation a "
        "WHERE a.document_id = %s AND a.first_token >= %s AND a.first_token < %s AND a.end_token <= %s "
        "ORDER BY a.first_token, a.end_token DESC"), (document_id, first, end, end), conn)


def entity_rows(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[dict[str, Any]]:
    """Recognized entities starting in ``[first, end)``, in ``first_token, id`` order (types and suggestions).

    From the per-process document cache when the caller passes the recognition ``stamp``.
    """
    if stamp is not None:
        doc = document_text(conn, document_id, stamp)
        cached = doc.entities_starting_in(conn, document_id, first, end) if doc is not None else None
        if cached is not None:
            return cached
    return db.query(prepared("SELECT first_token, end_token, type, category, score FROM named_entity "
                             "WHERE document_id = %s AND first_token >= %s AND first_token < %s "
                             "ORDER BY first_token, id"),
                    (document_id, first, end), conn)


def entity_types(rows: list[dict[str, Any]]) -> dict[tuple[int, int], list[str]]:
    """Entity types by span from :func:`entity_rows` (each type once, in id order)."""
    entities: dict[tuple[int, int], list[str]] = defaultdict(list)
    for e in rows:
        if e["type"] not in entities[(e["first_token"], e["end_token"])]:
            entities[(e["first_token"], e["end_token"])].append(e["type"])
    return entities


def annotation_at(conn, document_id: int, first: int, end: int) -> int | None:
    """The row id of the document's annotation of exactly ``[first, end)`` (``None``: there is none)."""
    row = db.query_one("SELECT id FROM annotation WHERE document_id = %s AND first_token = %s AND end_token = %s",
                       (document_id, first, end), conn)
    return int(row["id"]) if row else None


def annotation_span(conn, annotation_id: int) -> dict[str, Any] | None:
    """Document and token range of an annotation (to check it against the caller's window)."""
    return db.query_one("SELECT document_id, first_token, end_token FROM annotation WHERE id = %s",
                        (annotation_id,), conn)
