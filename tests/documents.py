"""Documents for the tests, inserted directly (no NER models, no Celery), and waiting for the worker's.

A document is tokenized with :func:`psan.tool.text.tokens.tokenize`, given named entities for the
phrases the test names, NE_TYPE rules with confidence 0 (so those spans are suspicious) and then
annotated by the real :func:`psan.store.corpus.reannotate.reannotate_document_now`; its mentions can be
grouped into entities by the real :func:`psan.store.annotation.entities.update_document_entities`.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import psycopg2.extras

from psan.runtime import db
from psan.store.annotation import entities as store_entities
from psan.store.corpus.documents import load_document
from psan.store.corpus.reannotate import reannotate_document_now
from psan.tool.text.categories import category_of
from psan.tool.text.tokens import tokenize
from tests.helpers import default_project, sql


def plain_sentences(start: int, count: int) -> str:
    """``count`` sentences of 7 tokens each ("This is plain sentence number 12 .")."""
    return " ".join(f"This is plain sentence number {n}." for n in range(start, start + count))


def _occurrences(words: list[str], phrase: list[str]) -> Iterable[int]:
    n = len(phrase)
    for i in range(len(words) - n + 1):
        if words[i:i + n] == phrase:
            yield i


def phrase_spans(app, document_id: int, phrase: str) -> list[tuple[int, int]]:
    """Token ranges ``(first, end)`` of every occurrence of ``phrase`` (its words split at spaces) in the document."""
    with app.app_context(), db.transaction() as conn:
        doc = load_document(conn, document_id)
    words = [doc.text[t.start:t.end] for t in doc.tokens]
    want = phrase.split()
    return [(i, i + len(want)) for i in _occurrences(words, want)]


def decide_phrase(app, project_id: int, document_id: int, phrase: str, decision: str, account: int) -> None:
    """A person's token decision on the phrase's first occurrence (the store's call, no re-annotation)."""
    from psan.store.annotation import decisions as store_decisions
    first, end = phrase_spans(app, document_id, phrase)[0]
    with app.app_context(), db.transaction() as conn:
        store_decisions.decide(conn, store_decisions.Span(project_id, document_id, first, end),
                               store_decisions.Scope.TOKEN, decision, account, phrase.split())


def add_document(app, text: str, entities: Iterable[tuple[str, str]] = (), project_id: int | None = None,
                 name: str = "doc.txt", language: str = "en",
                 spans: Iterable[tuple[int, int, str]] = ()) -> int:
    """Insert a recognized, pre-annotated document; every occurrence of each entity phrase is an NE.

    ``spans``: further NEs given by token range and type (overlapping ones too).
    """
    entities, spans = list(entities), list(spans)
    project_id = project_id or default_project(app)
    tokens, sentences = tokenize(text, language)
    words = [text[t.start:t.end] for t in tokens]
    with app.app_context(), db.transaction() as conn:
        document_id = db.query_one(
            "INSERT INTO document (project_id, name, language, status, text, token_count) "
            "VALUES (%s, %s, %s, 'RECOGNIZED', %s, %s) RETURNING id",
            (project_id, name, language, text, len(tokens)), conn)["id"]
        with conn.cursor() as cur:
            psycopg2.extras.execute_values(cur, "INSERT INTO token (document_id, idx, start_char, end_char) VALUES %s",
                                           [(document_id, t.id, t.start, t.end) for t in tokens], page_size=5000)
            psycopg2.extras.execute_values(
                cur, "INSERT INTO sentence (document_id, idx, first_token, end_token) VALUES %s",
                [(document_id, i, s.first_token, s.end_token) for i, s in enumerate(sentences)], page_size=5000)
            rows = []
            for phrase, etype in entities:
                phrase_words = [phrase[t.start:t.end] for t in tokenize(phrase, language)[0]]
                for i in _occurrences(words, phrase_words):
                    rows.append((document_id, i, i + len(phrase_words), etype, str(category_of(etype)), "test", 1.0))
            rows += [(document_id, first, end, etype, str(category_of(etype)), "test", 1.0)
                     for first, end, etype in spans]
            if rows:
                psycopg2.extras.execute_values(
                    cur, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, "
                         "score) VALUES %s", rows)
        for etype in sorted({e for _, e in entities} | {e for _, _, e in spans}):
            db.execute("INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'NE_TYPE', %s, 0) "
                       "ON CONFLICT DO NOTHING", (project_id, etype), conn)
        reannotate_document_now(conn, document_id)
    return document_id


def group_entities(app, document_id: int) -> int:
    """Group the document's recognized mentions into entities as the worker does; the number of entities."""
    with app.app_context(), db.transaction() as conn:
        return store_entities.update_document_entities(conn, document_id, load_document(conn, document_id))


def entity_of(app, document_id: int, first: int, end: int) -> int:
    """The entity the mention (first, end) belongs to."""
    rows = sql(app, "SELECT entity_id FROM entity_mention WHERE document_id = %s AND first_token = %s "
                    "AND end_token = %s", (document_id, first, end))
    assert rows, (first, end)
    return rows[0]["entity_id"]


def label_span(app, document_id: int, first_word: str, label_id: int, occurrence: int = 0) -> None:
    """A person decision: the two-word name starting at ``first_word`` is private with ``label_id``."""
    first = token_index(app, document_id, first_word, occurrence)
    sql(app, "UPDATE annotation SET token_decision = 'PRIVATE', token_label_id = %s "
             "WHERE document_id = %s AND first_token = %s AND end_token = %s",
        (label_id, document_id, first, first + 2))
    assert sql(app, "SELECT 1 FROM annotation WHERE document_id = %s AND first_token = %s AND token_label_id = %s",
               (document_id, first, label_id)), (first_word, occurrence)


def token_index(app, document_id: int, word: str, occurrence: int = 0) -> int:
    """Index of the ``occurrence``-th token whose text is ``word``."""
    text = sql(app, "SELECT text FROM document WHERE id = %s", (document_id,))[0]["text"]
    rows = sql(app, "SELECT idx, start_char, end_char FROM token WHERE document_id = %s ORDER BY idx",
               (document_id,))
    hits = [r["idx"] for r in rows if text[r["start_char"]:r["end_char"]] == word]
    return hits[occurrence]


def annotation(app, document_id: int, first: int, end: int) -> dict[str, Any] | None:
    rows = sql(app, "SELECT id, token_decision::text AS token_decision, token_label_id, rule_level FROM annotation "
                    "WHERE document_id = %s AND first_token = %s AND end_token = %s", (document_id, first, end))
    return rows[0] if rows else None


def wait_for_documents(app, statuses=("PRE_ANNOTATED", "DONE", "FAILED"), timeout: float = 120.0) -> list[dict]:
    """Every document, once all have one of ``statuses`` (the worker finished with them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = sql(app, "SELECT id, name, status::text AS status, error FROM document ORDER BY id")
        if rows and all(r["status"] in statuses for r in rows):
            return rows
        time.sleep(0.3)
    raise AssertionError(f"documents not finished: {rows}")
