"""A lone surname in a real browser: uploaded, recognized by the real pipeline in the worker, never suggested
public, and ``x`` on the full name makes it private too (a scenario of a team's first afternoon);
a town the English NER read as a person ("moved to Manchester") is a place.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.helpers import ADMIN, csp_violations, login, skip_without_browser, wait_js
from tests.documents import token_index, wait_for_documents
from tests.helpers import make_account, new_project, sql

skip_without_browser()

TEXT = ("Sarah Connor met Kyle Reese in Los Angeles in 1984.\n"
        "Connor later phoned Reese from the station.\n"
        "She moved to Manchester in 2019.\n")


@pytest.mark.worker
def test_a_lone_surname_is_a_person_never_suggested_public_and_x_on_the_name_reaches_it(clean_app, page,
                                                                                         celery_worker, tmp_path: Path):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    pid = new_project(app, "Letters")
    sql(app, "UPDATE project SET language = 'en' WHERE id = %s", (pid,))
    source = tmp_path / "connor.txt"
    source.write_text(TEXT, encoding="utf-8")
    login(page, ADMIN)
    page.goto(f"/documents/upload?project={pid}")
    page.set_input_files('input[name="files"]', str(source))
    page.click('main form [type="submit"]')
    page.wait_for_url(re.compile(r".*/documents/\?project=\d+$"))
    (row,) = wait_for_documents(app)
    assert row["status"] == "PRE_ANNOTATED", row
    doc = row["id"]
    sarah, kyle = token_index(app, doc, "Sarah"), token_index(app, doc, "Kyle")
    lone = [token_index(app, doc, "Connor", 1), token_index(app, doc, "Reese", 1)]

    manchester = token_index(app, doc, "Manchester")
    assert sql(app, "SELECT category FROM named_entity WHERE document_id = %s AND first_token = %s",
               (doc, manchester)) == [{"category": "LOCATION"}]

    page.goto(f"/annotate/document/{doc}")
    page.wait_for_selector(".tok.sel")
    page.click(f'.tok[data-i="{manchester}"]')
    wait_js(page, f"document.querySelector('.tok[data-i=\"{manchester}\"]').classList.contains('sel')")
    assert "person" not in page.text_content("#ann-selection").lower()
    for i in lone:  # each lone surname has a span of its own, and no span on it is suggested public
        classes = page.evaluate(f"Array.from(document.querySelectorAll('.tok[data-i=\"{i}\"] .ann'))"
                                ".map(a => a.className)")
        assert classes and not any("sugg-public" in c for c in classes), (i, classes)
    for first in (sarah, kyle):  # x on each full name: the whole entity private, its lone surname too
        page.click(f'.tok[data-i="{first}"]')
        wait_js(page, f"document.querySelectorAll('.tok.sel').length === 2 && "
                      f"document.querySelector('.tok[data-i=\"{first}\"]').classList.contains('sel')")
        page.keyboard.press("x")
        wait_js(page, f"document.querySelector('.tok[data-i=\"{first}\"] .dec-private-nolabel, "
                      f".tok[data-i=\"{first}\"] .dec-private-label') !== null")
    for i in lone:
        wait_js(page, f"document.querySelector('.tok[data-i=\"{i}\"] .dec-private-nolabel, "
                      f".tok[data-i=\"{i}\"] .dec-private-label') !== null")
    out = page.request.get(f"/documents/{doc}/download/tag").text()
    assert "Connor" not in out and "Reese" not in out, out
    assert page.errors == [] and csp_violations(page) == []
