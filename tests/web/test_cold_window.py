"""The first window of a process on a recognized document: answered from range reads, then the document cached.

Why: a process that has not cached a 10^6-token document answered its first window only after loading all
of it (seconds); now the answer comes from the window's own rows and the whole document is cached once the
response is closed (what the WSGI server does after sending it), so the next decision finds it loaded.
"""
from __future__ import annotations

from psan.store.corpus import document_text
from tests.documents import add_document, plain_sentences
from tests.helpers import sql
from tests.web.helpers import annotator_client


def test_first_window_is_answered_before_the_document_is_cached(clean_app):
    doc = add_document(clean_app, plain_sentences(0, 10) + " Yesterday Jan Novák came home. " + plain_sentences(10, 10),
                       [("Jan Novák", "P")])
    sql(clean_app, "UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (doc,))
    stamp = sql(clean_app, "SELECT recognized_at FROM document WHERE id = %s", (doc,))[0]["recognized_at"]
    client = annotator_client(clean_app, "cold@example.org", window_size=30)
    document_text.clear_cache()
    response = client.get("/annotate/api/window")
    cold = response.get_json()
    assert response.status_code == 200 and cold["window"]["document_id"] == doc
    assert document_text.cached(doc, stamp) is None  # answered from the window's rows
    response.close()
    assert document_text.cached(doc, stamp) is not None  # cached once the answer was sent
    warm = client.get("/annotate/api/window").get_json()
    assert warm["tokens"] == cold["tokens"] and warm["sentences"] == cold["sentences"]
    assert warm["annotations"] == cold["annotations"]
