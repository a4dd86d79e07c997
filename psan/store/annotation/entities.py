"""Entities of a project in PostgreSQL: computed after pre-annotation, shown, merged and split by annotators.

Why: one person must keep one pseudonym however they are written, and an annotator must be able
to see and correct what psan grouped.  :func:`update_document_entities` links a document's
recognized mentions with :mod:`psan.tool.entities.grouping` (automatic ids are equal across documents, so
the same person in two documents is one ``entity`` row); :func:`merge` and :func:`split` record an
annotator's correction on the mentions (``manual``), which later recomputations keep.

Entity keys: a label is the entity key of the spans that carry it (``label:<id>``, see
:mod:`psan.tool.surrogates.identity`); every other entity has its automatic key, or
``manual:<document>:<first>:<end>`` once split off.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from psan.runtime import db
from psan.runtime.sql import warm_on_open
from psan.store.annotation import suggestions, visibility
from psan.store.corpus.document_text import document_text
from psan.tool.entities.grouping import document_entity_spans
from psan.tool.text.document import Document

__all__ = ["EntityError", "update_document_entities", "entity_of_span", "merge", "split", "mention_keys",
           "manual_keys", "link_marked_span", "MARKED_SPAN_MENTIONS", "mention_labels_read"]


#: the documents page's note when the grouping failed (stored in ``document.error``)
GROUPING_FAILED = ("Entities were not grouped (%(error)s): one person may get several pseudonyms in this "
                   "document. The annotations are complete.")


class EntityError(ValueError):
    """A merge or split that cannot be done; ``code`` names why (the API words it for the annotator).

    Codes: ``none`` (no entity at the span), ``same`` (already one entity), ``category`` (different
    categories).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _entity_row(conn, project_id: int, key: str, category: str) -> int:
    """The entity row of a key (created on first use); a merged-away key leads to the entity it joined."""
    row = db.query_one("INSERT INTO entity (project_id, key, category) VALUES (%s, %s, %s) "
                       "ON CONFLICT (project_id, key) DO UPDATE SET category = entity.category "
                       "RETURNING id, merged_into", (project_id, key, category), conn)
    seen = {int(row["id"])}
    while row["merged_into"] is not None and int(row["merged_into"]) not in seen:
        seen.add(int(row["merged_into"]))
        row = db.query_one("SELECT id, merged_into FROM entity WHERE id = %s", (row["merged_into"],), conn)
    return int(row["id"])


def update_document_entities(conn, document_id: int, doc: Document) -> int:
    """(Re)compute the automatic entities of a recognized document; returns the number of mentions.

    Manual mentions whose span still exists are kept; automatic ones are replaced.
    """
    row = db.query_one("SELECT project_id FROM document WHERE id = %s", (document_id,), conn)
    if row is None:
        return 0
    project_id = int(row["project_id"])
    spans = document_entity_spans(doc)
    present = {(s.first_token, s.end_token) for s in spans}
    # a span a person marked by hand is no recognized span, yet its link to an entity (link_marked_span) stays
    present |= {(r["first_token"], r["end_token"]) for r in db.query(
        "SELECT first_token, end_token FROM annotation WHERE document_id = %s AND token_decision IS NOT NULL",
        (document_id,), conn)}
    manual = {(r["first_token"], r["end_token"]) for r in db.query(
        "SELECT first_token, end_token FROM entity_mention WHERE document_id = %s AND manual", (document_id,), conn)}
    stale = [list(k) for k in manual - present]
    db.execute("DELETE FROM entity_mention WHERE document_id = %s AND NOT manual", (document_id,), conn)
    if stale:
        db.execute("DELETE FROM entity_mention m USING unnest(%s::int[], %s::int[]) AS s(f, e) "
                   "WHERE m.document_id = %s AND m.first_token = s.f AND m.end_token = s.e",
                   ([f for f, _ in stale], [e for _, e in stale], document_id), conn)
    rows: list[tuple[int, int, int, int]] = []
    entity_ids: dict[str, int] = {}
    for s in spans:
        if (s.first_token, s.end_token) in manual:
            continue
        if s.key not in entity_ids:
            entity_ids[s.key] = _entity_row(conn, project_id, s.key, s.category)
        rows.append((document_id, s.first_token, s.end_token, entity_ids[s.key]))
    if rows:
        with conn.cursor() as cur:
            import psycopg2.extras
            psycopg2.extras.execute_values(
                cur, "INSERT INTO entity_mention (document_id, first_token, end_token, entity_id) VALUES %s "
                     "ON CONFLICT DO NOTHING", rows, page_size=1000)
    _drop_empty(conn, project_id)
    return len(rows)


def update_document_entities_or_log(conn, document_id: int, doc: Document) -> None:
    """:func:`update_document_entities` in a savepoint: a failure is logged and only costs the grouping.

    Pre-processing calls it after the rules were applied: the document is annotated then, and
    entities are an aid, not its safety.
    """
    db.execute("SAVEPOINT psan_entities", None, conn)
    try:
        update_document_entities(conn, document_id, doc)
    except Exception as exc:  # noqa: BLE001 - the document is annotated; entities are an aid, not its safety
        db.execute("ROLLBACK TO SAVEPOINT psan_entities", None, conn)
        logging.getLogger(__name__).exception("grouping the entities of document %s failed", document_id)
        # shown on the documents page next to the status (the document itself is annotatable)
        db.execute("UPDATE document SET error = %s WHERE id = %s",
                   (GROUPING_FAILED % {"error": exc.__class__.__name__}, document_id), conn)
    else:
        db.execute("RELEASE SAVEPOINT psan_entities", None, conn)
        db.execute("UPDATE document SET error = NULL WHERE id = %s AND error LIKE %s",
                   (document_id, GROUPING_FAILED.split("(", 1)[0] + "%"), conn)


def _drop_empty(conn, project_id: int) -> None:
    db.execute("DELETE FROM entity e WHERE e.project_id = %s AND e.merged_into IS NULL AND NOT EXISTS "
               "(SELECT 1 FROM entity_mention m WHERE m.entity_id = e.id) AND NOT EXISTS "
               "(SELECT 1 FROM entity x WHERE x.merged_into = e.id)", (project_id,), conn)


def _mention(conn, document_id: int, first: int, end: int) -> dict[str, Any] | None:
    """The entity mention exactly at a span, or the innermost one containing it."""
    return db.query_one(
        "SELECT m.document_id, m.first_token, m.end_token, m.entity_id, m.manual, e.key, e.category, e.project_id "
        "FROM entity_mention m JOIN entity e ON e.id = m.entity_id WHERE m.document_id = %s "
        "AND m.first_token <= %s AND m.end_token >= %s ORDER BY m.end_token - m.first_token LIMIT 1",
        (document_id, first, end), conn)


def entity_of_span(conn, document_id: int, first: int, end: int, within: tuple[int, int] | None = None,
                   hidden: tuple[int, int] | None = None) -> dict[str, Any] | None:
    """The entity of a span for the detail panel: key, category, size, and the label to propose.

    ``within``: the annotator's window ``[first, end)``; the mention count is then of the window
    only and the number of documents is left out, so an annotator learns nothing about mentions
    outside its window.  ``hidden``: the window's elided middle (:mod:`psan.store.annotation.visibility`), whose
    mentions are not counted either.  The key is the stored one (it may be derived from the full name): the
    annotator API shows an opaque reference instead (:mod:`psan.annotate.entity_view`).
    """
    m = _mention(conn, document_id, first, end)
    if m is None:
        return None
    if within is None:
        stats = db.query_one("SELECT count(*) AS mentions, count(DISTINCT document_id) AS documents "
                             "FROM entity_mention WHERE entity_id = %s", (m["entity_id"],), conn)
    else:
        middle = visibility.sql_middle(hidden, *within)
        stats = db.query_one("SELECT count(*) AS mentions, NULL AS documents FROM entity_mention "
                             "WHERE entity_id = %s AND document_id = %s AND first_token >= %s AND end_token <= %s "
                             "AND NOT (first_token >= %s AND end_token <= %s)",
                             (m["entity_id"], document_id, within[0], within[1], *middle), conn)
    label = db.query_one(
        "SELECT l.id, l.name, l.category, count(*) AS uses FROM entity_mention m "
        "JOIN annotation a ON a.document_id = m.document_id AND a.first_token = m.first_token "
        "AND a.end_token = m.end_token JOIN label l ON l.id = a.token_label_id "
        "WHERE m.entity_id = %s GROUP BY l.id, l.name, l.category ORDER BY count(*) DESC, l.id LIMIT 1",
        (m["entity_id"],), conn)
    return {"id": m["entity_id"], "key": m["key"], "category": m["category"], "manual": m["manual"],
            "first_token": m["first_token"], "end_token": m["end_token"],
            "mentions": stats["mentions"], "documents": stats["documents"],
            "label": None if label is None else {"id": label["id"], "name": label["name"],
                                                 "category": label["category"]}}


#: the document's mentions a hand-marked span may join (none when the span has a mention already), as a JSON
#: array; parameters ``doc``, ``first``, ``end`` (a decision's statement reads it with its own, one round trip).
#: Token ranges only: their words come from the process's cached text (:mod:`psan.store.corpus.document_text`);
#: a ``substr`` of the document text per token decompressed the text up to that token, every time, which took
#: minutes in a document of 10^5 mentions
MARKED_SPAN_MENTIONS = (
    "(SELECT coalesce(json_agg(q ORDER BY q.first_token), '[]') FROM (SELECT m.first_token, m.end_token, "
    "m.entity_id, e.category FROM entity_mention m JOIN entity e ON e.id = m.entity_id "
    "WHERE m.document_id = %(doc)s AND e.category <> 'OTHER' AND m.end_token - m.first_token <= 50 "
    "AND NOT EXISTS (SELECT 1 FROM entity_mention x WHERE x.document_id = %(doc)s AND x.first_token = %(first)s "
    "AND x.end_token = %(end)s)) q)")


def link_marked_span(conn, document_id: int, first: int, end: int, tokens: list[str],
                     mentions: list[dict[str, Any]] | None = None) -> str | None:
    """Link a span a person marked by hand to the entity it belongs to; returns that entity's category.

    Why: a hand-marked span ("Connor" that nothing recognized, "Mr. Harper" around the recognized
    "Harper") is a mention of someone the document already names.  Linked, it takes that entity's
    category (no label dialog, no ``[OTHER]`` in the output), its label and its pseudonym.  The entity,
    in this order: the one of a mention overlapping the span (most tokens in common, then the longer
    mention); the one of a mention elsewhere in the document with the same words; the person a mention
    names with these words among its own ("Connor" of "Sarah Connor": a word of a person's name is a
    person mention).  ``None``: the span has a mention already, or nothing to go on.  A manual mention,
    written in the caller's action (undo takes it back) and kept by later recomputations.
    ``mentions``: :data:`MARKED_SPAN_MENTIONS` as the caller read it in this transaction (else read here).
    """
    words = [w.casefold() for w in tokens if any(ch.isalnum() for ch in w)]
    if not words:
        return None
    if mentions is None:
        mentions = db.query_one("SELECT " + MARKED_SPAN_MENTIONS + " AS mentions",  # noqa: S608  # nosec B608
                                {"doc": document_id, "first": first, "end": end}, conn)["mentions"]
    overlapping = [m for m in mentions if m["first_token"] < end and first < m["end_token"]]
    best = max(overlapping, default=None, key=lambda m: (min(end, m["end_token"]) - max(first, m["first_token"]),
                                                         m["end_token"] - m["first_token"]))
    if best is None and mentions:
        text = document_text(conn, document_id)
        for m in mentions:
            theirs = [w.casefold() for w in (text.token_texts(m["first_token"], m["end_token"]) if text else ())
                      if any(ch.isalnum() for ch in w)]
            same = theirs == words
            within = m["category"] == "PERSON" and any(theirs[i:i + len(words)] == words
                                                       for i in range(len(theirs) - len(words) + 1))
            if same or (within and best is None):
                best = m
                if same:
                    break
    if best is None:
        return None
    db.defer("INSERT INTO entity_mention (document_id, first_token, end_token, entity_id, manual) "
             "VALUES (%s, %s, %s, %s, true) ON CONFLICT DO NOTHING",
             (document_id, first, end, best["entity_id"]), conn)  # with the transaction's next statement
    return str(best["category"])


def _log(conn, project_id: int, document_id: int, account_id: int, first: int, end: int, action: str,
         detail: Mapping[str, Any]) -> None:
    import json
    db.execute("INSERT INTO decision_log (project_id, document_id, account_id, first_token, end_token, action, "
               "detail) VALUES (%s, %s, %s, %s, %s, %s, %s)",
               (project_id, document_id, account_id, first, end, action, json.dumps(dict(detail))), conn)
    suggestions.note_decision(project_id)


def merge(conn, document_id: int, span: tuple[int, int], other: tuple[int, int], account_id: int,
          within: tuple[int, int] | None = None,
          hidden: tuple[int, int] | None = None) -> dict[str, Any]:
    """Merge the entity of ``other`` into the entity of ``span`` (all its mentions, in every document)."""
    a = _mention(conn, document_id, *span)
    b = _mention(conn, document_id, *other)
    if a is None or b is None:
        raise EntityError("none", "no entity at that span")
    if a["entity_id"] == b["entity_id"]:
        raise EntityError("same", "both spans already belong to one entity")
    if a["category"] != b["category"]:
        raise EntityError("category", "entities of different categories cannot be merged")
    db.execute("UPDATE entity_mention SET entity_id = %s, manual = true WHERE entity_id = %s",
               (a["entity_id"], b["entity_id"]), conn)
    db.execute("UPDATE entity_mention SET manual = true WHERE entity_id = %s", (a["entity_id"],), conn)
    # the merged entity stays as an alias: documents recognized later with its key join the merge
    db.execute("UPDATE entity SET merged_into = %s WHERE id = %s OR merged_into = %s",
               (a["entity_id"], b["entity_id"], b["entity_id"]), conn)
    _log(conn, a["project_id"], document_id, account_id, span[0], span[1], "entity_merge",
         {"entity": a["key"], "merged": b["key"]})
    return entity_of_span(conn, document_id, *span, within=within, hidden=hidden) or {}


def split(conn, document_id: int, span: tuple[int, int], account_id: int,
          within: tuple[int, int] | None = None,
          hidden: tuple[int, int] | None = None) -> dict[str, Any]:
    """Make the mention at ``span`` an entity of its own (an annotator says "not the same person")."""
    m = _mention(conn, document_id, *span)
    if m is None:
        raise EntityError("none", "no entity at that span")
    first, end = m["first_token"], m["end_token"]
    alone = db.query_one("SELECT count(*) AS n FROM entity_mention WHERE entity_id = %s", (m["entity_id"],), conn)
    if alone["n"] <= 1:  # already alone: the same answer as a split, so it tells nothing about other mentions
        return entity_of_span(conn, document_id, first, end, within=within, hidden=hidden) or {}
    key = f"manual:{document_id}:{first}:{end}"
    # a fresh entity even if this span was split off and merged back before (no alias to follow)
    new_id = int(db.query_one(
        "INSERT INTO entity (project_id, key, category) VALUES (%s, %s, %s) ON CONFLICT (project_id, key) "
        "DO UPDATE SET merged_into = NULL, category = EXCLUDED.category RETURNING id",
        (m["project_id"], key, m["category"]), conn)["id"])
    db.execute("UPDATE entity SET merged_into = NULL WHERE merged_into = %s", (new_id,), conn)
    db.execute("UPDATE entity_mention SET entity_id = %s, manual = true WHERE document_id = %s "
               "AND first_token = %s AND end_token = %s", (new_id, document_id, first, end), conn)
    db.execute("UPDATE entity_mention SET manual = true WHERE entity_id = %s", (m["entity_id"],), conn)
    _log(conn, m["project_id"], document_id, account_id, first, end, "entity_split",
         {"entity": m["key"], "new": key})
    return entity_of_span(conn, document_id, first, end, within=within, hidden=hidden) or {}


def mention_keys(conn, document_id: int) -> dict[tuple[int, int], str]:
    """(first_token, end_token) → entity key of a document's stored mentions (for the output)."""
    rows = db.query("SELECT m.first_token, m.end_token, e.key FROM entity_mention m JOIN entity e "
                    "ON e.id = m.entity_id WHERE m.document_id = %s", (document_id,), conn)
    return {(r["first_token"], r["end_token"]): r["key"] for r in rows}


def manual_keys(conn, document_id: int, doc: Document) -> dict[tuple[int, int], str]:
    """Character span → entity key of the mentions annotators merged or split (the output honours them)."""
    rows = db.query("SELECT m.first_token, m.end_token, e.key FROM entity_mention m JOIN entity e "
                    "ON e.id = m.entity_id WHERE m.document_id = %s AND m.manual", (document_id,), conn)
    n = len(doc.tokens)
    return {doc.char_range(r["first_token"], r["end_token"]): r["key"] for r in rows if r["end_token"] <= n}


def entity_labels(conn, project_id: int, entity_ids: list[int] | None = None) -> dict[int, int]:
    """Entity id → the label persons gave its mentions (the most used; ties: the oldest label).

    A labelled span labels the entity of the mention exactly at it, else of the longest mention
    inside it (a label on "Mr. Harper" labels the entity of "Harper").  ``entity_ids``: only these
    entities (the annotation window's), from the documents they are mentioned in.  One function for the
    output (psan.store.publish.regions) and the annotation window, so the colour a mention has there is
    the label it gets in the download.
    """
    only = "" if entity_ids is None else (
        "AND a.document_id IN (SELECT document_id FROM entity_mention WHERE entity_id = ANY(%(ids)s)) ")
    rows = db.query(_ENTITY_LABELS.replace("ONLY", only), {"p": project_id, "ids": list(entity_ids or [])}, conn)
    return {int(r["entity_id"]): int(r["token_label_id"]) for r in rows
            if entity_ids is None or int(r["entity_id"]) in entity_ids}


#: :func:`entity_labels` (``ONLY``: the clause narrowing the labelled spans to some entities' documents)
_ENTITY_LABELS = (
    "WITH lab AS (SELECT a.document_id, a.first_token, a.end_token, a.token_label_id FROM annotation a "
    "JOIN document d ON d.id = a.document_id WHERE d.project_id = %(p)s AND a.token_label_id IS NOT NULL "
    "AND a.token_decision = 'PRIVATE' ONLY), "
    "hit AS (SELECT DISTINCT ON (lab.document_id, lab.first_token, lab.end_token) m.entity_id, lab.token_label_id "
    "FROM lab JOIN entity_mention m ON m.document_id = lab.document_id AND m.first_token >= lab.first_token "
    "AND m.end_token <= lab.end_token ORDER BY lab.document_id, lab.first_token, lab.end_token, "
    "(m.first_token = lab.first_token AND m.end_token = lab.end_token) DESC, "
    "m.end_token - m.first_token DESC, m.first_token) "
    "SELECT DISTINCT ON (entity_id) entity_id, token_label_id FROM hit "
    "GROUP BY entity_id, token_label_id ORDER BY entity_id, count(*) DESC, token_label_id")
#: :func:`mention_labels` in one statement: the range's mentions, their entities' labels (:data:`_ENTITY_LABELS`
#: narrowed to them), as ``labels``: a JSON array of ``[first, end, label id]``
_MENTION_LABELS = (
    "WITH ms AS (SELECT first_token, end_token, entity_id FROM entity_mention WHERE document_id = %(doc)s "  # noqa: S608  # nosec B608
    "AND first_token < %(end)s AND end_token > %(first)s), el AS (" + _ENTITY_LABELS.replace(
        "ONLY", "AND a.document_id IN (SELECT document_id FROM entity_mention "
        "WHERE entity_id IN (SELECT entity_id FROM ms))") + ") "
    "SELECT coalesce(json_agg(json_build_array(ms.first_token, ms.end_token, el.token_label_id)), '[]') AS labels "
    "FROM ms JOIN el ON el.entity_id = ms.entity_id")


# read with every window's annotations (:func:`psan.runtime.db.read_together`): planned when a connection opens
warm_on_open(_MENTION_LABELS, {"p": 0, "doc": 0, "first": 0, "end": 1})


def mention_labels_read(project_id: int, document_id: int, first: int, end: int) -> db.Read:
    """:func:`mention_labels` as one read (``labels``) for :func:`psan.runtime.db.read_together`."""
    return _MENTION_LABELS, {"p": project_id, "doc": document_id, "first": first, "end": end}


def mention_labels(conn, project_id: int, document_id: int, first: int, end: int) -> list[tuple[int, int, int]]:
    """(first, end, label id) of the mentions in ``[first, end)`` whose entity persons labelled."""
    mentions = db.query("SELECT first_token, end_token, entity_id FROM entity_mention WHERE document_id = %s "
                        "AND first_token < %s AND end_token > %s", (document_id, end, first), conn)
    if not mentions:
        return []
    labels = entity_labels(conn, project_id, sorted({int(m["entity_id"]) for m in mentions}))
    return [(m["first_token"], m["end_token"], labels[int(m["entity_id"])]) for m in mentions
            if int(m["entity_id"]) in labels]
