"""Who may change a document's annotations at the same time: one writer of the whole document, or
many writers of different words.

Why two levels: with 20 annotators on one document, a lock on the whole document for every
decision makes them queue one behind the other (measured: 97 % of the time held, decision p95
three times the target).  But a decision by token or by word type only ever touches the
annotations of *its own words*: its lookup or word-type rule matches spans whose text equals the
condition (modulo case), a removed lookup rule was linked only to such spans, and an annotation's
level depends only on the rules linked to it.  Decisions on different words therefore touch
disjoint rows and may run side by side; decisions on the same words must not (two transactions
summing one annotation's level from different snapshots would lose an update).

* :func:`lock_words` (decisions by token or word type, labels, accepting suggestions): the
  document row ``FOR KEY SHARE`` (shared among such writers, compatible with the status update
  and with every foreign-key check), then one transaction-scoped advisory lock per distinct
  case-folded text, taken in key order (no two writers can wait for each other in a cycle).
* :func:`lock_document` (everything else that writes annotations: decisions by NE type or by
  entity, learned type rules, the full re-annotation, pre-processing): the document row
  ``FOR UPDATE``, which excludes the word writers (and waits for those running).

Either is taken before the transaction writes anything, and held until it ends.  Every whole-
document writer already locks the row ``FOR UPDATE`` (psan.store.corpus.reannotate, .processing,
.project_model), so they exclude word writers without a change.  A hash collision of two texts
only makes two writers wait for each other needlessly; it never lets two writers of one text in.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from psan.runtime import db
from psan.runtime.sql import prepared

__all__ = ["lock_document", "lock_words", "word_key"]


def word_key(document_id: int, words: Sequence[str] | str) -> int:
    """The advisory lock key (signed 64 bits) of a text in a document, the same for every case variant."""
    text = words if isinstance(words, str) else " ".join(words)
    digest = hashlib.blake2b(f"{int(document_id)}\x00{text.casefold()}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def lock_document(conn, document_id: int, deferred: bool = False) -> None:
    """Lock the whole document until the transaction ends, *before* anything is written.

    Why first: a decision updates its annotation, then applies rules that update other annotations'
    levels; two concurrent writers doing that in opposite orders would deadlock.  Taking the
    document lock first gives every writer one order: document, then rows.
    """
    if deferred:  # taken when the connection's next statement runs, before it
        db.defer("SELECT 1 FROM document WHERE id = %s FOR UPDATE", (document_id,), conn)
        return
    db.execute(prepared("SELECT 1 FROM document WHERE id = %s FOR UPDATE"), (document_id,), conn)


def lock_words(conn, document_id: int, texts: Iterable[Sequence[str] | str], deferred: bool = False) -> None:
    """Lock the document for writers of the given texts only (see the module docstring), one round trip
    (``deferred``: none of its own, taken when the connection's next statement runs, before it)."""
    keys = sorted({word_key(document_id, t) for t in texts})
    # one statement: the advisory locks (in key order) are taken as the row is read, then the row lock;
    # either order is safe (a whole-document writer never waits for a word lock)
    sql = ("SELECT (SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT unnest(%(keys)s::bigint[]) AS k "
           "ORDER BY 1) s) FROM document WHERE id = %(doc)s FOR KEY SHARE")
    if deferred:
        db.defer(sql, {"doc": document_id, "keys": keys}, conn)
        return
    db.execute(prepared(sql), {"doc": document_id, "keys": keys}, conn)
