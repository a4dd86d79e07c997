"""The per-process cache of document text and token offsets (psan.store.corpus.document_text).

Why these tests: windows, decisions and the rule search read token texts from this cache instead of
the token table; a stale entry would show or match the wrong words, so the cache must follow every
new recognition and agree with the stored rows.
"""
from __future__ import annotations

import pytest

from psan.runtime import db
from psan.store.corpus import document_text as cache
from psan.store.corpus.documents import save_recognized
from psan.tool.text.document import Document, Sentence, Token
from psan.tool.text.tokens import tokenize
from tests.documents import add_document
from tests.helpers import sql


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear_cache()
    yield
    cache.clear_cache()


def _stored_tokens(app, doc: int) -> list[str]:
    text = sql(app, "SELECT text FROM document WHERE id = %s", (doc,))[0]["text"]
    return [text[r["start_char"]:r["end_char"]] for r in
            sql(app, "SELECT start_char, end_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))]


def test_token_texts_agree_with_the_token_table(app, clean_app):
    doc = add_document(app, "Jan Novák bydlí v Brně.\n\nPíše jí Eva <b>&amp;</b> \"Petr\".")
    with app.app_context(), db.transaction() as conn:
        text = cache.document_text(conn, doc)
    stored = _stored_tokens(app, doc)
    assert text is not None and text.token_count == len(stored)
    assert text.token_texts(0, len(stored)) == stored
    assert text.token_texts(2, 4) == stored[2:4]
    assert text.token_texts(-3, 10**6) == stored  # clipped, never an IndexError


def test_token_index_finds_every_occurrence_by_case(app, clean_app):
    """The word index behind the rule search: exact tokens only (never inside a word), folded on request."""
    doc = add_document(app, "Jan a jan a JAN. Janek není Jan, ale Jana zná jana i Straße a STRASSE.")
    with app.app_context(), db.transaction() as conn:
        text = cache.document_text(conn, doc)
    stored = _stored_tokens(app, doc)
    for word in ("Jan", "jan", "Jana", "Straße", "není", "nothing"):
        assert text.occurrences(word) == [i for i, t in enumerate(stored) if t == word]
        assert text.occurrences(word, fold=True) == [i for i, t in enumerate(stored)
                                                     if t.casefold() == word.casefold()]
        assert text.count(word) >= len(text.occurrences(word))
    assert text.occurrences("strasse", fold=True) == [stored.index("Straße"), stored.index("STRASSE")]


def test_cache_hit_until_a_new_recognition(app, clean_app):
    doc = add_document(app, "Anna Malá a Karel Velký.")
    sql(app, "UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (doc,))
    with app.app_context(), db.transaction() as conn:
        first = cache.document_text(conn, doc)
        assert cache.document_text(conn, doc) is first  # same recognition: the cached object
    new_text = "Úplně jiný text o Brně."
    tokens = [Token(i, s, e) for i, (s, e) in enumerate([(0, 5), (6, 10), (11, 15), (16, 17), (18, 22), (22, 23)])]
    with app.app_context(), db.transaction() as conn:
        db.execute("UPDATE document SET text = %s WHERE id = %s", (new_text, doc), conn)
        save_recognized(conn, doc, Document(new_text, tokens, [Sentence(0, 6)], [], "cs"), "<doc/>")
    with app.app_context(), db.transaction() as conn:
        second = cache.document_text(conn, doc)
    assert second is not first
    assert second.token_texts(0, 6) == ["Úplně", "jiný", "text", "o", "Brně", "."]


def test_missing_document_and_segments(app, clean_app):
    doc = add_document(app, "První věta tady. Druhá věta tam.")
    with app.app_context(), db.transaction() as conn:
        assert cache.document_text(conn, 10**9) is None
        text = cache.document_text(conn, doc)
    bounds = sql(app, "SELECT first_token, end_token FROM sentence WHERE document_id = %s ORDER BY idx", (doc,))
    assert len(bounds) == 2
    split = bounds[1]["first_token"]
    assert text.same_segment(0, split)
    assert not text.same_segment(split - 1, split + 1)  # a rule match never crosses a sentence boundary


def test_never_recognized_documents_are_read_not_cached(app, clean_app):
    doc = add_document(app, "Bez razítka rozpoznání.")
    with app.app_context(), db.transaction() as conn:
        assert cache.document_text(conn, doc).token_texts(0, 2) == ["Bez", "razítka"]
    assert doc not in cache._cache


def test_eviction_keeps_the_budget(app, clean_app, monkeypatch):
    monkeypatch.setattr(cache, "CACHE_MAX_TOKENS", 10)
    docs = [add_document(app, f"Dokument číslo {i} má několik slov navíc.") for i in range(3)]
    sql(app, "UPDATE document SET recognized_at = clock_timestamp() WHERE id = ANY(%s)", (docs,))
    with app.app_context(), db.transaction() as conn:
        for doc in docs:
            cache.document_text(conn, doc)
    assert list(cache._cache) == [docs[-1]]  # over budget: only the most recent one stays


def test_entities_come_from_the_cache_only_while_the_recognition_is_current(app, clean_app):
    doc = add_document(app, "Anna Malá a Karel Velký jeli do Brna.", [("Anna Malá", "P"), ("Brna", "gu")])
    sql(app, "UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (doc,))
    with app.app_context(), db.transaction() as conn:
        text = cache.document_text(conn, doc)
        rows = text.entities_starting_in(conn, doc, 0, 100)
        assert [(r["first_token"], r["end_token"], r["type"]) for r in rows] == [(0, 2, "P"), (7, 8, "gu")]
        assert text.entities_starting_in(conn, doc, 1, 7) == []
    sql(app, "UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (doc,))
    stale = cache.DocumentText(text.stamp, text.text, text.starts, text.ends, text.segment_starts)
    with app.app_context(), db.transaction() as conn:
        assert stale.entities_starting_in(conn, doc, 0, 100) is None  # recognized again: read the table


def test_packed_arrays_load_what_the_token_and_sentence_rows_hold(app, clean_app):
    """A document saved with its packed arrays loads the same offsets and segments as from the rows."""
    text = "Jan Novák bydlí v Brně.\n\nPíše jí Eva.  A dost\n"
    doc = add_document(app, text)
    tokens, sentences = tokenize(text, "cs")
    with app.app_context(), db.transaction() as conn:  # what recognition writes: rows and arrays
        save_recognized(conn, doc, Document(text, tokens, sentences, [], "cs"), "<doc/>")
    assert sql(app, "SELECT count(*) AS n FROM document_arrays WHERE document_id = %s", (doc,))[0]["n"] == 1
    with app.app_context(), db.transaction() as conn:
        packed = cache.document_text(conn, doc)
    cache.clear_cache()
    sql(app, "DELETE FROM document_arrays WHERE document_id = %s", (doc,))
    with app.app_context(), db.transaction() as conn:
        from_rows = cache.document_text(conn, doc)
    for name in ("starts", "ends", "segment_starts", "sentence_firsts", "sentence_ends"):
        assert getattr(packed, name).tolist() == getattr(from_rows, name).tolist(), name
    assert packed.token_texts(0, 100) == _stored_tokens(app, doc)


@pytest.mark.parametrize("sentences", [[], [(0, 2)], [(1, 3), (5, 6)], [(0, 3), (3, 6)], [(2, 4), (1, 3)],
                                       [(0, 9)], [(4, 4), (5, 6)]])
def test_segment_starts_equal_the_rule_matchers_segments(sentences):
    """The vectorised segment starts are those of psan.tool.decisions.rules.sentence_segments, odd sentences
    included."""
    import numpy as np

    from psan.tool.decisions.rules import sentence_segments
    n = 6
    expected = [a for a, _ in sentence_segments(Document("x" * n, [Token(i, i, i + 1) for i in range(n)],
                                                         [Sentence(a, b) for a, b in sentences], [], "en"))]
    firsts = np.asarray([a for a, _ in sentences], dtype=np.int64)
    ends = np.asarray([b for _, b in sentences], dtype=np.int64)
    assert cache.segment_starts(firsts, ends, n).tolist() == expected


def test_vectorised_word_hashes_equal_the_hash_of_each_word():
    """One hash per token from prefix sums equals the word's own hash, casefolded or not (ß, İ, astral)."""
    import numpy as np
    text = "Straße STRASSE İstanbul i̇stanbul ﬁle FILE 😀x 😀X Σίσυφος ΣΊΣΥΦΟΣ"
    spans = [(m.start(), m.end()) for m in __import__("re").finditer(r"\S+", text)]
    starts = np.asarray([a for a, _ in spans], dtype=np.int32)
    ends = np.asarray([b for _, b in spans], dtype=np.int32)
    for fold in (False, True):
        assert cache.word_hashes(text, starts, ends, fold).tolist() == [
            cache.word_hash(text[a:b].casefold() if fold else text[a:b]) for a, b in spans]
    folded = cache.word_hashes(text, starts, ends, True).tolist()
    assert folded[0] == folded[1] and folded[4] == folded[5] and folded[8] == folded[9]
