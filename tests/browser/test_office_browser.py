"""A Word file through the browser: uploaded on the upload page, annotated in the annotation window,
downloaded as DOCX from the documents page — with no trace of the name planted in a comment and a header.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tests.browser.helpers import ADMIN, csp_violations, login, skip_without_browser, wait_js
from tests.documents import wait_for_documents
from tests.helpers import make_account, new_project, sql
from tests.tool.formats.helpers import assert_no_trace

skip_without_browser()
pytestmark = pytest.mark.worker
NAME, SURNAME = "Jan Novák", "Novák"


def _docx() -> bytes:
    docx = pytest.importorskip("docx", reason="python-docx makes the test file")
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = f"Spis pana {NAME}"
    p = d.add_paragraph(f"Soud rozhodl ve věci, kterou podal {NAME} z Brna.")
    d.add_comment(p.runs, text=f"Ověřit adresu, kterou uvedl {NAME}.", author=NAME, initials="JN")
    d.core_properties.author = NAME
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def test_docx_with_a_name_in_a_comment_and_a_header_comes_back_without_it(clean_app, page, celery_worker,
                                                                          tmp_path: Path):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    pid = new_project(app, "Soud")
    sql(app, "UPDATE project SET language = 'cs' WHERE id = %s", (pid,))
    source = tmp_path / "rozsudek.docx"
    source.write_bytes(_docx())
    login(page, ADMIN)
    page.goto(f"/documents/upload?project={pid}")
    page.set_input_files('input[name="files"]', str(source))
    page.click('main form [type="submit"]')
    page.wait_for_url(re.compile(r".*/documents/\?project=\d+$"))
    assert "comment" in page.inner_text(".doc-parts") and "header" in page.inner_text(".doc-parts")
    rows = wait_for_documents(app)
    assert [r["status"] for r in rows] == ["PRE_ANNOTATED"], rows
    doc = rows[0]["id"]

    page.goto(f"/annotate/document/{doc}")
    page.wait_for_selector(".tok.sel")
    page.click('.tok[data-i="0"]')
    while page.locator(".dec-suspicious").count():  # every highlighted span private, as a clerk would
        page.keyboard.press("n")
        first = int(page.get_attribute(".tok.sel", "data-i"))
        page.keyboard.press("s")
        wait_js(page, f"!document.querySelector('.tok[data-i=\"{first}\"] .dec-suspicious')")
        if page.locator("#ann-label-dialog:not(.d-none)").count():
            page.keyboard.press("Escape")
    assert page.errors == [] and csp_violations(page) == []

    page.goto(f"/documents/?project={pid}")
    with page.expect_download() as info:
        page.locator(f'tr[data-document-id="{doc}"] a[href="/documents/{doc}/download/pseudonymize"]').click()
    assert info.value.suggested_filename == "rozsudek.pseudonymize.docx"
    data = Path(info.value.path()).read_bytes()
    assert_no_trace(data, [NAME, SURNAME])
    from psan.tool.formats import files as formats
    text = formats.read(data, "out.docx").text
    assert "Soud rozhodl ve věci" in text and "Ověřit adresu" in text and "Spis pana" in text
