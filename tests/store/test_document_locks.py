"""Two levels of document locks (psan.store.annotation.document_locks), on the real database.

Why: 20 annotators of one document decide side by side only if decisions on different words do not
wait for each other, and stay correct only if decisions on the same words (in any case) and every
whole-document writer do.
"""
from __future__ import annotations

import contextlib

import psycopg2
import pytest

from psan.runtime import db
from psan.store.annotation.document_locks import lock_document, lock_words, word_key
from tests.documents import add_document


@contextlib.contextmanager
def _connection(app):
    with app.app_context():
        conn = psycopg2.connect(app.config["DATABASE_URL"])
    try:
        with conn.cursor() as cur:
            cur.execute("SET lock_timeout = '300ms'")
        conn.commit()
        yield conn
    finally:
        conn.close()


def test_word_keys_ignore_case_and_differ_by_document_and_text():
    assert word_key(1, ["Karel", "Novák"]) == word_key(1, "KAREL NOVÁK") == word_key(1, ["karel", "novák"])
    assert word_key(1, ["Karel"]) != word_key(2, ["Karel"]) != word_key(1, ["Eva"])


def test_other_words_go_ahead_same_words_and_whole_document_wait(clean_app):
    doc = add_document(clean_app, "Karel met Eva. Karel left.", [("Karel", "P"), ("Eva", "P")])
    with _connection(clean_app) as holder, _connection(clean_app) as other:
        lock_words(holder, doc, [["Karel"]])  # held until holder's transaction ends
        lock_words(other, doc, [["Eva"], ["met"]])  # other words: at once
        other.rollback()
        with pytest.raises(psycopg2.errors.LockNotAvailable):
            lock_words(other, doc, [["KAREL"]])  # the same words in another case: waits
        other.rollback()
        with pytest.raises(psycopg2.errors.LockNotAvailable):
            lock_document(other, doc)  # a whole-document writer waits for the word writers
        other.rollback()
        holder.commit()
        lock_document(other, doc)
        with pytest.raises(psycopg2.errors.LockNotAvailable):
            lock_words(holder, doc, [["Eva"]])  # and word writers wait for it
        holder.rollback()
        other.commit()
    with clean_app.app_context(), db.transaction() as conn:  # nothing left held
        lock_document(conn, doc)
