"""A window's token texts, sentences and entities read as a range equal those from the per-process cache.

Why these tests: the first window of a process on a document it has not cached is answered from range
reads (psan.store.annotation.window_content) and the whole document is cached only after the answer; both
paths must show exactly the same words, gaps, sentences and entities, at the document's ends too.
"""
from __future__ import annotations

import pytest

from psan.runtime import db
from psan.store.annotation import window_content
from psan.store.corpus import document_text
from tests.documents import add_document
from tests.helpers import sql

TEXT = ("Jan Novák bydlí v Brně.\n\nPíše jí Eva  Malá.\tA dost! Karel Velký jel do Prahy, "
        "kde potkal Annu Malou.  Konec.\n")
RANGES = [(0, 5), (0, 1000), (3, 9), (-4, 2), (7, 8), (8, 8), (12, 40), (25, 1000), (1000, 1005)]


@pytest.fixture()
def recognized(app, clean_app):
    doc = add_document(app, TEXT, [("Jan Novák", "P"), ("Brně", "gu"), ("Karel Velký", "P")])
    sql(app, "UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (doc,))
    stamp = sql(app, "SELECT recognized_at FROM document WHERE id = %s", (doc,))[0]["recognized_at"]
    document_text.clear_cache()
    window_content._recent.clear()
    yield doc, stamp
    document_text.clear_cache()
    window_content._recent.clear()


def _reads(conn, doc: int, stamp, first: int, end: int) -> tuple:
    return (window_content.token_texts(conn, doc, first, end, stamp),
            window_content.span_text(conn, doc, first, end, stamp),
            window_content.sentence_rows(conn, doc, first, end, stamp),
            window_content.entity_rows(conn, doc, first, end, stamp))


def test_range_reads_equal_the_cached_document(app, recognized):
    doc, stamp = recognized
    with app.app_context(), db.transaction() as conn:
        uncached = [_reads(conn, doc, stamp, a, b) for a, b in RANGES]
        assert document_text.cached(doc, stamp) is None  # nothing loaded the whole document
        document_text.document_text(conn, doc, stamp)
        assert document_text.cached(doc, stamp) is not None
        assert [_reads(conn, doc, stamp, a, b) for a, b in RANGES] == uncached


def test_sub_ranges_of_a_read_range_need_no_read_of_their_own(app, recognized, monkeypatch):
    doc, stamp = recognized
    with app.app_context(), db.transaction() as conn:
        whole = window_content.token_texts(conn, doc, 0, 1000, stamp)

        def no_read(*args, **kwargs):
            raise AssertionError("read again")
        monkeypatch.setattr(window_content.db, "query_one", no_read)
        for a, b in [(0, 4), (2, 9), (5, 5), (0, len(whole[0]))]:
            words, gaps = window_content.token_texts(conn, doc, a, b, stamp)
            assert words == whole[0][a:b]
            assert gaps == (whole[1][a:b - 1] + [""] if b > a else [])
