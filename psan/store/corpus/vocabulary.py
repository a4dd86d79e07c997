"""Which documents contain a word: the distinct case-folded token texts of each recognized document.

Why: after a word-type rule changes, a project run must find the documents the rule can match in
without matching every document (:mod:`psan.store.corpus.rule_changes`).  A word-type rule matches only
where every token of its condition occurs (compared as :mod:`psan.tool.decisions.rules` compares them:
exactly, or case-folded), so the documents whose vocabulary holds all the condition's case-folded
tokens are a superset of those it matches in – found by the GIN index ``words @> condition``.

The vocabulary is written with the tokens (:func:`psan.store.corpus.documents.save_recognized`) and deleted
with them (:func:`psan.store.corpus.documents.clear_recognition`); a document without one (recognized before
migration 0027, or inserted some other way) counts as containing every word until a project run
writes it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from psan.runtime import db
from psan.tool.text.document import Document

__all__ = ["document_words", "fold_condition", "save_vocabulary", "delete_vocabulary"]


def document_words(doc: Document) -> list[str]:
    """The document's distinct case-folded token texts, sorted."""
    text = doc.text
    return sorted({text[t.start:t.end].casefold() for t in doc.tokens})


def fold_condition(tokens: Iterable[str]) -> list[str]:
    """A condition's tokens as the vocabulary stores words (case-folded, distinct, sorted)."""
    return sorted({t.casefold() for t in tokens})


def save_vocabulary(conn, document_id: int, doc: Document) -> None:
    """Write (or replace) the vocabulary of a document from its recognized tokens."""
    save_words(conn, document_id, document_words(doc))


def save_words(conn, document_id: int, words: Sequence[str]) -> None:
    """Write (or replace) a document's vocabulary from ready words (see :func:`document_words`)."""
    db.execute("INSERT INTO document_vocabulary (document_id, words) VALUES (%s, %s::text[]) "
               "ON CONFLICT (document_id) DO UPDATE SET words = EXCLUDED.words", (document_id, list(words)), conn)


def delete_vocabulary(conn, document_id: int) -> None:
    """Forget a document's vocabulary (its tokens are being replaced)."""
    db.execute("DELETE FROM document_vocabulary WHERE document_id = %s", (document_id,), conn)
