"""Pasted and uploaded text: the paste limit is the documented one and a refusal keeps the text; mostly-UTF-8
input is not silently garbled (it asks for confirmation and shows a preview).
"""
from __future__ import annotations

import pytest

from tests.helpers import (
    csrf_token,
    default_project,
    sql,
)


# --- the paste limit is the documented one, and a refusal keeps the text ------------------------------------
def _paste(client, project: int, text: str):
    from tests.helpers import csrf_token
    token = csrf_token(client, "/documents/upload")
    return client.post("/documents/upload", data={"csrf_token": token, "project": str(project), "language": "en",
                                                  "name": "pasted", "text": text},
                       content_type="multipart/form-data")


def test_paste_limit_matches_the_documented_chars_and_a_refusal_keeps_the_text(admin_client, clean_app):
    app = clean_app
    project = default_project(app)
    limit = app.config["MAX_DOCUMENT_CHARS"]
    assert limit == 5_000_000
    # 1.1 MB of Czech text (a paste used to fail above ~500 kB): accepted
    paragraph = "Žluťoučký kůň úpěl ďábelské ódy a Jan Novák poslouchal. "
    text = paragraph * (1_100_000 // len(paragraph.encode()) + 1)
    response = _paste(admin_client, project, text)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    stored = sql(app, "SELECT length(text) AS n FROM document WHERE name = 'pasted'")
    assert stored and stored[0]["n"] >= len(text) - 1
    # exactly the limit in multi-byte characters: accepted; one more: refused with a message, text kept
    at_limit = "č" * limit
    assert _paste(admin_client, project, at_limit).status_code == 302
    over = "MARKER-" + "č" * (limit - 6)
    refused = _paste(admin_client, project, over)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400
    assert "more than the limit" in page or "víc" in page
    assert "MARKER-" + "č" * 100 in page and len(page) > limit  # the text is in the form again
    # the page refuses a too long paste before sending it (upload.js with the limits)
    form = admin_client.get("/documents/upload").get_data(as_text=True)
    assert 'src="/static/upload.js"' in form and f'data-max-chars="{limit}"' in form


# --- mostly-UTF-8 input is not silently garbled -------------------------------------------------------------
def test_mostly_utf8_needs_confirmation_and_shows_a_preview(admin_client, clean_app, celery_worker):
    import html
    import io

    from psan.documents.upload import UploadError, decode
    damaged = b"Hello \xed\xa0\x80 John"
    with clean_app.test_request_context(), pytest.raises(UploadError, match="almost UTF-8"):
        decode(damaged, "a.txt", 1000)
    with clean_app.test_request_context():
        broken_utf8 = "Žluťoučký kůň".encode() + b"\xff"
        with pytest.raises(UploadError, match="1 bytes are invalid"):
            decode(broken_utf8, "b.txt", 1000)
        # a real single-byte text is still detected and converted without asking
        cp1250 = decode("Příliš žluťoučký kůň úpěl ďábelské ódy, řekl pan Dvořák.".encode("cp1250"), "c.txt", 1000)
        assert cp1250.text.startswith("Příliš") and cp1250.note
    token = csrf_token(admin_client, "/documents/upload")
    form = {"project": default_project(clean_app), "language": "", "csrf_token": token}
    refused = admin_client.post("/documents/upload", data={**form, "files": (io.BytesIO(damaged), "a.txt")},
                                content_type="multipart/form-data")
    assert refused.status_code == 400
    page = html.unescape(refused.get_data(as_text=True))
    assert "almost UTF-8" in page and "Hello ��� John" in page  # the preview of both readings
    assert not sql(clean_app, "SELECT 1 FROM document")
    confirmed = admin_client.post("/documents/upload", data={**form, "confirm_conversion": "y",
                                                             "files": (io.BytesIO(damaged), "a.txt")},
                                  content_type="multipart/form-data")
    assert confirmed.status_code == 302
    [doc] = sql(clean_app, "SELECT text FROM document")
    assert doc["text"].startswith("Hello ") and doc["text"].endswith(" John")
