"""The rows an annotation window shows: tokens and their text, sentences, annotations, rules, labels.

Why here: :mod:`psan.annotate.content` shapes them into JSON and decisions (psan.store.annotation.decisions,
psan.store.annotation.entity_decisions) need the same token texts; the SQL has one home.

Only the window's own rows are read (index range scans); token texts come from the per-process cache
of the document's text and token offsets (:mod:`psan.store.corpus.document_text`), so a window costs the same
at the start and at the end of a 1M-token document.
"""
from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from typing import Any

from psan.runtime import db
from psan.runtime.sql import prepared, warm_on_open
from psan.store.corpus import document_text


def token_texts(conn, document_id: int, first: int, end: int, stamp: Any = None) -> tuple[list[str], list[str]]:
    """Texts of tokens ``[first, end)`` and the whitespace after each (empty after the last one).

    From the per-process cache of the document's text and token offsets (:mod:`psan.store.corpus.document_text`);
    ``stamp``: the document's ``recognized_at`` when the caller has read it (saves a lookup).  While this
    process has not cached the recognition, from one range read (:func:`_range_texts`).
    """
    doc = document_text.cached(document_id, stamp)
    if doc is None:
        if stamp is not None:
            return _range_texts(conn, document_id, first, end, stamp)
        doc = document_text.document_text(conn, document_id, stamp)
        if doc is None:
            return [], []
    text = doc.text
    lo, hi = max(first, 0), min(end, doc.token_count)
    starts = doc.starts[lo:hi].tolist()
    ends = doc.ends[lo:hi].tolist()
    words = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    gaps = [text[b:a] for b, a in zip(ends, starts[1:], strict=False)] + ([""] if words else [])
    return words, gaps


#: the offsets of a token range and the text they cover, in one statement (index range scan + ``substr``)
_RANGE = (
    "WITH t AS (SELECT idx, start_char, end_char FROM token WHERE document_id = %(doc)s AND idx >= %(first)s "
    "AND idx < %(end)s) SELECT array_agg(start_char ORDER BY idx) AS starts, array_agg(end_char ORDER BY idx) "
    "AS ends, min(start_char) AS lo, (SELECT substr(d.text, min(t.start_char) + 1, "
    "max(t.end_char) - min(t.start_char)) FROM document d WHERE d.id = %(doc)s) AS text, "
    # the range's sentences too (:func:`sentence_rows` of the same range needs no read of its own)
    "ARRAY(SELECT ARRAY[s.first_token, s.end_token] FROM sentence s WHERE s.document_id = %(doc)s "
    "AND s.first_token >= coalesce((SELECT max(first_token) FROM sentence WHERE document_id = %(doc)s "
    "AND first_token <= %(first)s), 0) AND s.first_token < %(end)s ORDER BY s.first_token) AS sentences FROM t")


def _range_texts(conn, document_id: int, first: int, end: int, stamp: Any) -> tuple[list[str], list[str]]:
    """:func:`token_texts` from the token rows of the range and the text they cover, not the cache.

    Why: the first window of a process on a 10^6-token document would otherwise wait for the whole
    document's text and offsets (:func:`psan.store.corpus.document_text.document_text`).  The last ranges
    read are kept (per recognition ``stamp``), so the spans of the same window (suggestions, the span a
    decision writes) need no read of their own.
    """
    first = max(first, 0)
    with _recent_lock:
        for (doc, at, lo, hi), (words, gaps) in reversed(_recent.items()):
            if doc == document_id and at == stamp and lo <= first and end <= hi:
                a, b = first - lo, end - lo
                return (words[a:b], gaps[a:b - 1] + [""]) if b > a else ([], [])
    row = db.query_one(prepared(_RANGE), {"doc": document_id, "first": first, "end": end}, conn)
    if row is None or not row["starts"]:
        return [], []
    lo, text = row["lo"], row["text"] or ""
    starts = [a - lo for a in row["starts"]]
    ends = [b - lo for b in row["ends"]]
    words = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    gaps = [text[b:a] for b, a in zip(ends, starts[1:], strict=False)] + [""]
    with _recent_lock:
        _recent[(document_id, stamp, first, first + len(words))] = (words, gaps)
        while len(_recent) > _RECENT_RANGES:
            _recent.popitem(last=False)
        _recent_sentences[(document_id, stamp, first, end)] = [
            {"first_token": a, "end_token": b} for a, b in row["sentences"]]
        while len(_recent_sentences) > _RECENT_RANGES:
            _recent_sentences.popitem(last=False)
    return words, gaps


#: the last token ranges :func:`_range_texts` read: (document, stamp, first, end) → (words, gaps)
_RECENT_RANGES = 32
_recent: OrderedDict[tuple[int, Any, int, int], tuple[list[str], list[str]]] = OrderedDict()
_recent_lock = threading.Lock()
#: the sentences of the ranges :func:`_range_texts` read: (document, stamp, first, end) → sentence rows
_recent_sentences: OrderedDict[tuple[int, Any, int, int], list[dict[str, Any]]] = OrderedDict()


def span_text(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[str]:
    """The token texts of a span (for word-type rule conditions)."""
    return token_texts(conn, document_id, first, end, stamp)[0]


def sentence_rows(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[dict[str, Any]]:
    """Sentences overlapping ``[first, end)`` (the one containing ``first`` included), in order.

    From the per-process document cache (sentences change only with a new recognition); ``stamp``:
    the document's ``recognized_at`` when the caller has read it (saves a lookup).  While this process has
    not cached the recognition, from two index range scans.
    """
    doc = document_text.cached(document_id, stamp)
    if doc is None and stamp is not None:
        with _recent_lock:
            known = _recent_sentences.get((document_id, stamp, max(first, 0), end))
        if known is not None:
            return [dict(r) for r in known]
        return db.query(prepared(
            "SELECT first_token, end_token FROM sentence WHERE document_id = %(doc)s "
            "AND first_token >= coalesce((SELECT max(first_token) FROM sentence WHERE document_id = %(doc)s "
            "AND first_token <= %(first)s), 0) AND first_token < %(end)s ORDER BY first_token"),
            {"doc": document_id, "first": first, "end": end}, conn)
    doc = doc or document_text.document_text(conn, document_id, stamp)
    if doc is None:
        return []
    return [{"first_token": a, "end_token": b} for a, b in doc.sentences_overlapping(first, end)]


def label_names(conn, ids: set[int]) -> dict[int, str]:
    """Names of the labels ``ids`` (never their replacements: annotators must not see the key)."""
    if not ids:
        return {}
    return {r["id"]: r["name"] for r in db.query(prepared("SELECT id, name FROM label WHERE id = ANY(%s)"),
                                                 (list(ids),), conn)}


def annotation_rows_read(document_id: int, first: int, end: int) -> db.Read:
    """:func:`annotation_rows` as one read (``rows``: a JSON array) for :func:`psan.runtime.db.read_together`."""
    return ("SELECT coalesce(json_agg(q ORDER BY q.first_token, q.end_token DESC), '[]') AS rows "  # noqa: S608  # nosec B608
            "FROM (" + _ANNOTATION_ROWS.replace("%s", "%(doc)s", 1).replace("%s", "%(first)s", 1)
            .replace("%s", "%(end)s", 2) + ") q", {"doc": document_id, "first": first, "end": end})


def annotation_rows(conn, document_id: int, first: int, end: int) -> list[dict[str, Any]]:
    """Annotations lying inside ``[first, end)``, longest first at each position, each with its ``rules``.

    ``rules``: the linked rules, oldest first (``id, type, condition, confidence, label_id, lookup``),
    read in the same statement (every window and every decision's answer shows them).
    """
    return db.query(prepared(_ANNOTATION_ROWS), (document_id, first, end, end), conn)


_ANNOTATION_ROWS = (
    "SELECT a.id, a.first_token, a.end_token, a.token_decision::text AS token_decision, a.token_label_id, "
    "a.rule_level, coalesce((SELECT json_agg(json_build_object('id', r.id, 'type', r.type::text, "
    "'condition', r.condition, 'confidence', r.confidence, 'label_id', r.label_id, "
    "'lookup', r.annotation_id IS NOT NULL) ORDER BY r.id) FROM annotation_rule ar JOIN rule r "
    "ON r.id = ar.rule_id WHERE ar.annotation_id = a.id), '[]') AS rules FROM annotation a "
    "WHERE a.document_id = %s AND a.first_token >= %s AND a.first_token < %s AND a.end_token <= %s "
    "ORDER BY a.first_token, a.end_token DESC")


_ENTITY_ROWS = ("SELECT first_token, end_token, type, category, score FROM named_entity "
                "WHERE document_id = %(doc)s AND first_token >= %(first)s AND first_token < %(end)s "
                "ORDER BY first_token, id")


def entity_rows_read(document_id: int, first: int, end: int, stamp: Any = None) -> db.Read | None:
    """:func:`entity_rows` as one read (``rows``: a JSON array) for :func:`psan.runtime.db.read_together`, or
    ``None`` when this process has the document cached (no statement: :func:`entity_rows` answers from it)."""
    if document_text.cached(document_id, stamp) is not None:
        return None
    return ("SELECT coalesce(json_agg(json_build_object('first_token', q.first_token, 'end_token', q.end_token, "  # noqa: S608  # nosec B608
            "'type', q.type, 'category', q.category, 'score', q.score) ORDER BY q.first_token, q.id), '[]') AS rows "
            "FROM (" + _ENTITY_ROWS.replace("SELECT first_token", "SELECT id, first_token") + ") q",
            {"doc": document_id, "first": first, "end": end})


def entity_rows(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[dict[str, Any]]:
    """Recognized entities starting in ``[first, end)``, in ``first_token, id`` order (types and suggestions).

    From the per-process document cache when the caller passes the recognition ``stamp`` and this process
    has cached it.
    """
    doc = document_text.cached(document_id, stamp)  # not loaded yet: the range read below
    if doc is not None:
        rows = doc.entities_starting_in(conn, document_id, first, end)
        if rows is not None:
            return rows
    return db.query(prepared(_ENTITY_ROWS), {"doc": document_id, "first": first, "end": end}, conn)


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


# a process's first window request runs these (the annotations and entities inside one read of
# :func:`psan.runtime.db.read_together`): prepared or planned when a connection opens (ids of no row)
warm_on_open(prepared(_RANGE), {"doc": 0, "first": 0, "end": 1})
warm_on_open(prepared(_ANNOTATION_ROWS), (0, 0, 1, 1))
warm_on_open(prepared(_ENTITY_ROWS), {"doc": 0, "first": 0, "end": 1})
