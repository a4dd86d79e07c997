"""Saving recognized documents and loading them back.

Why COPY: a long document has 10^5 tokens; one ``COPY … FROM STDIN`` writes them in tens of
milliseconds where row-by-row INSERTs take seconds.  Everything of one document is written in
the caller's transaction, after deleting what a previous (interrupted) run may have left, so a
retried task never produces duplicates or half-written data.
"""
from __future__ import annotations

import io
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import numpy as np
import psycopg2
import psycopg2.extras

from psan.runtime import db, sql
from psan.store.corpus import vocabulary
from psan.store.shared.document_status import ANNOTATED, RUNNING_SQL, SUSPICIOUS_SQL, DocumentStatus, sql_value
from psan.store.shared.names import clean_name
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category, Document, Entity, Sentence, Token, collector_paused


def _copy(conn, table: str, columns: str, rows: Iterable[tuple[Any, ...]]) -> None:
    """COPY integer-only rows (no escaping needed) into ``table``."""
    buf = io.StringIO()
    buf.writelines("\t".join(map(str, row)) + "\n" for row in rows)
    buf.seek(0)
    with conn.cursor() as cur:
        cur.copy_expert(f"COPY {table} ({columns}) FROM STDIN", buf)


def clear_recognition(conn, document_id: int) -> None:
    """Delete tokens, sentences, NEs and annotations of a document (before re-recognition)."""
    db.execute("DELETE FROM annotation WHERE document_id = %s", (document_id,), conn)
    db.execute("DELETE FROM named_entity WHERE document_id = %s", (document_id,), conn)
    db.execute("DELETE FROM sentence WHERE document_id = %s", (document_id,), conn)
    db.execute("DELETE FROM token WHERE document_id = %s", (document_id,), conn)
    db.execute("DELETE FROM document_arrays WHERE document_id = %s", (document_id,), conn)
    vocabulary.delete_vocabulary(conn, document_id)


def _packed(values: Iterable[int], count: int) -> psycopg2.Binary:
    """Integers as little-endian int32 bytes (the format :mod:`psan.store.corpus.document_text` reads)."""
    return psycopg2.Binary(np.fromiter(values, dtype="<i4", count=count).tobytes())


def _save_arrays(conn, document_id: int, doc: Document, sentences: list[Sentence]) -> None:
    """The token offsets and sentence bounds as one row of packed arrays (a cold process reads them at once)."""
    n = len(doc.tokens)
    db.execute("INSERT INTO document_arrays (document_id, token_starts, token_ends, sentence_firsts, sentence_ends) "
               "VALUES (%s, %s, %s, %s, %s)",
               (document_id, _packed((t.start for t in doc.tokens), n), _packed((t.end for t in doc.tokens), n),
                _packed((s.first_token for s in sentences), len(sentences)),
                _packed((s.end_token for s in sentences), len(sentences))), conn)


def save_recognized(conn, document_id: int, doc: Document, tagged_xml: str) -> None:
    """Store tokens, sentences, NEs and the tagged XML of a recognized document; status RECOGNIZED."""
    clear_recognition(conn, document_id)
    _copy(conn, "token", "document_id, idx, start_char, end_char",
          ((document_id, i, t.start, t.end) for i, t in enumerate(doc.tokens)))
    _copy(conn, "sentence", "document_id, idx, first_token, end_token",
          ((document_id, i, s.first_token, s.end_token) for i, s in enumerate(doc.sentences)
           if s.first_token < s.end_token))
    _save_arrays(conn, document_id, doc, [s for s in doc.sentences if s.first_token < s.end_token])
    if doc.entities:
        with conn.cursor() as cur:
            psycopg2.extras.execute_values(
                cur, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                     "VALUES %s",
                [(document_id, e.first_token, e.end_token, e.type, str(e.category), e.source, float(e.score))
                 for e in doc.entities], page_size=1000)
    vocabulary.save_vocabulary(conn, document_id, doc)
    db.execute("UPDATE document SET tagged_xml = %s, token_count = %s, status = "  # noqa: S608  # nosec B608
               + sql_value(DocumentStatus.RECOGNIZED) + ", error = NULL, "
               "recognized_at = clock_timestamp(), updated_at = now() WHERE id = %s",
               (tagged_xml, len(doc.tokens), document_id), conn)


def _category(value: str | None, etype: str) -> Category:
    try:
        return Category(value) if value else category_of(etype)
    except ValueError:
        return category_of(etype)


def load_document(conn, document_id: int, first_token: int | None = None,
                  end_token: int | None = None) -> Document | None:
    """A stored document as a :class:`Document` (``None`` if it does not exist).

    With a token range the result keeps the **full text** and global token ids, but holds only the
    tokens of ``[first_token, end_token)`` (so ``doc.tokens[0].id == first_token``) and the
    sentences and entities overlapping that range; use ``token.start``/``end`` on ``doc.text``.
    """
    row = db.query_one("SELECT text, language FROM document WHERE id = %s", (document_id,), conn)
    if row is None:
        return None
    lo = 0 if first_token is None else first_token
    hi = 2**31 - 1 if end_token is None else end_token
    numbers = sql.copy_integers(conn, "SELECT idx, start_char, end_char FROM token WHERE document_id = %s "
                                      "AND idx >= %s AND idx < %s ORDER BY idx", (document_id, lo, hi))
    with collector_paused():  # 10^6 Token objects: no collector passes over the growing heap
        tokens = list(map(Token, numbers[0::3].tolist(), numbers[1::3].tolist(), numbers[2::3].tolist()))
    del numbers
    with conn.cursor() as cur:
        cur.execute("SELECT first_token, end_token FROM sentence WHERE document_id = %s "
                    "AND end_token > %s AND first_token < %s ORDER BY idx", (document_id, lo, hi))
        sentences = [Sentence(a, b) for a, b in cur.fetchall()]
        cur.execute("SELECT first_token, end_token, type, category, source, score FROM named_entity "
                    "WHERE document_id = %s AND end_token > %s AND first_token < %s ORDER BY first_token, id",
                    (document_id, lo, hi))
        entities = [Entity(a, b, t, _category(c, t), s, float(sc)) for a, b, t, c, s, sc in cur.fetchall()]
    return Document(row["text"], tokens, sentences, entities, row["language"])


# --- per-process cache of recognized documents ---------------------------------------------------------
#: most tokens all cached documents may hold together (about 100 bytes each)
CACHE_MAX_TOKENS = 2_000_000
_cache: OrderedDict[int, tuple[Any, Document]] = OrderedDict()
_cache_lock = threading.Lock()


_UNREAD = object()


def load_document_cached(conn, document_id: int, recognized_at: Any = _UNREAD) -> Document | None:
    """Like :func:`load_document` (whole document) but reused while the recognition is unchanged.

    Why: re-annotation after each decision loads the same document again and again; building 10^5
    token objects costs more than matching all rules.  ``recognized_at`` changes with every
    recognition, so a cached copy is never stale.  A caller that has just read the document's
    ``recognized_at`` (one query for a project's many documents) passes it.  Callers must not modify
    the returned document.
    """
    if recognized_at is _UNREAD:
        row = db.query_one("SELECT recognized_at FROM document WHERE id = %s", (document_id,), conn)
        if row is None:
            return None
        recognized_at = row["recognized_at"]
    stamp = recognized_at
    with _cache_lock:
        hit = _cache.get(document_id)
        if hit is not None and stamp is not None and hit[0] == stamp:
            _cache.move_to_end(document_id)
            return hit[1]
    doc = load_document(conn, document_id)
    if doc is not None and stamp is not None and len(doc.tokens) <= CACHE_MAX_TOKENS:
        with _cache_lock:
            _cache[document_id] = (stamp, doc)
            _cache.move_to_end(document_id)
            total = sum(len(d.tokens) for _, d in _cache.values())
            while total > CACHE_MAX_TOKENS and len(_cache) > 1:
                _, (_, old) = _cache.popitem(last=False)
                total -= len(old.tokens)
    return doc


def create_document(conn, project_id: int, name: str, language: str, text: str,
                    created_by: int | None, original: bytes | None = None, original_format: str | None = None,
                    format_report: dict[str, Any] | None = None) -> int:
    """Insert a NEW document and return its id (pre-processing is queued by the caller after commit).

    ``original``: the uploaded file of a DOCX/ODT/HTML/PDF document (``text`` is what psan read from it), so
    outputs can be written back in its ``original_format``; ``format_report``: what the format found and removed.
    """
    row = db.query_one("INSERT INTO document (project_id, name, language, text, created_by, original, "
                       "original_format, format_report) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                       (project_id, clean_name(name)[:255] or "document", language, text, created_by,
                        None if original is None else psycopg2.Binary(original), original_format,
                        None if format_report is None else json.dumps(format_report)), conn)
    return int(row["id"])


def original_file(conn, document_id: int) -> dict[str, Any] | None:
    """The uploaded file of a document read from another format (name, format, bytes, report); None for text."""
    row = db.query_one("SELECT name, original_format, original, format_report FROM document "
                       "WHERE id = %s AND original IS NOT NULL", (document_id,), conn)
    if row is not None:
        row["original"] = bytes(row["original"])
    return row


def mark_not_queued(conn, document_ids: Iterable[int], error: str) -> None:
    """NEW documents whose pre-processing could not be queued become FAILED, so the admin sees Retry."""
    db.execute("UPDATE document SET status = " + sql_value(DocumentStatus.FAILED) + ", error = %s, "  # noqa: S608  # nosec B608
               "updated_at = now() WHERE id = ANY(%s) AND status = " + sql_value(DocumentStatus.NEW),
               (error, list(document_ids)), conn)


def delete_document(conn, document_id: int) -> bool:
    """Delete a document and, by cascade, all its tokens, NEs, annotations, lookup rules and log entries."""
    return db.execute("DELETE FROM document WHERE id = %s", (document_id,), conn) > 0


def list_documents(conn, project_id: int, stale_seconds: float = 120.0) -> list[dict[str, Any]]:
    """Documents of a project with progress: % of suspicious spans (by rules) a person decided.

    ``unqueued``: NEW and not handed to the broker yet (Redis down, project cap); ``waiting_long``: NEW
    and handed to the broker more than ``stale_seconds`` ago (its message may be lost: Retry is offered);
    ``stale``: running without a heartbeat for ``stale_seconds`` (its worker died and no sweeper took
    it back yet).
    """
    rows = db.query(
        "SELECT d.id, d.name, d.language, d.status::text AS status, d.error, d.token_count, d.created_at, "  # noqa: S608  # nosec B608
        "d.original_format, d.format_report, "
        "(d.status = " + sql_value(DocumentStatus.NEW) + " AND d.queued_at IS NULL) AS unqueued, "
        "(d.status = " + sql_value(DocumentStatus.NEW) + " AND d.queued_at < clock_timestamp() "
        " - make_interval(secs => %s)) AS waiting_long, "
        "(d.status IN " + RUNNING_SQL + " AND d.heartbeat_at IS NOT NULL "
        " AND d.heartbeat_at < clock_timestamp() - make_interval(secs => %s)) AS stale, "
        "count(a.id) FILTER (WHERE a.token_decision IS NOT NULL) AS decided, "
        "count(a.id) FILTER (WHERE " + SUSPICIOUS_SQL + ") AS open "
        "FROM document d JOIN project p ON p.id = d.project_id LEFT JOIN annotation a ON a.document_id = d.id "
        "WHERE d.project_id = %s GROUP BY d.id ORDER BY d.id", (float(stale_seconds), float(stale_seconds),
                                                                project_id), conn)
    for r in rows:
        total = r["decided"] + r["open"]
        if r["status"] in ANNOTATED:
            r["progress"] = 100 if total == 0 else int(100 * r["decided"] / total)
        else:
            r["progress"] = 0
    return rows


def get_document(conn, document_id: int) -> dict[str, Any] | None:
    """The document row as the admin pages use it (with text and tagged XML), or None."""
    return db.query_one("SELECT id, project_id, name, language, status::text AS status, text, tagged_xml, "
                        "original_format, format_report FROM document WHERE id = %s", (document_id,), conn)


def document_with_project(conn, document_id: int) -> dict[str, Any] | None:
    """Id, name and project (id, name) of a document, for exports named after both; None if missing."""
    return db.query_one("SELECT d.id, d.name, d.project_id, p.name AS project_name, d.original_format FROM document d "
                        "JOIN project p ON p.id = d.project_id WHERE d.id = %s", (document_id,), conn)


def count_documents(conn, project_id: int) -> int:
    return db.query_one("SELECT count(*) AS n FROM document WHERE project_id = %s", (project_id,), conn)["n"]


def has_decisions(conn, document_id: int) -> bool:
    """Whether a person decided any span of the document (its recognition must then be kept)."""
    return db.query_one("SELECT 1 FROM annotation WHERE document_id = %s AND token_decision IS NOT NULL LIMIT 1",
                        (document_id,), conn) is not None


def set_language(conn, document_id: int, language: str, recognize_again: bool) -> None:
    """Correct the document's language; ``recognize_again`` makes it NEW (the caller queues it)."""
    db.execute("UPDATE document SET language = %s, updated_at = now() WHERE id = %s", (language, document_id), conn)
    if recognize_again:
        # waiting again and not queued yet, as a Retry: a queued_at left from the first run made the
        # queue skip it ("in flight") for an hour, NEW without a Retry button
        db.execute("UPDATE document SET status = %s, error = NULL, queued_at = NULL, heartbeat_at = NULL, "
                   "attempts = 0 WHERE id = %s", (DocumentStatus.NEW.value, document_id), conn)
