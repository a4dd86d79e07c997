"""The annotation window in a real browser: headless Debian Chromium driven by Playwright.

Playwright's own browser download is never used (``executable_path`` points at the system
Chromium); the app runs in a real WSGI server in a background thread against the test database.
"""
from __future__ import annotations

import re
from pathlib import Path

from tests.browser.helpers import ADMIN, ANNOTATOR, ARTIFACTS, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, annotation, plain_sentences, token_index
from tests.helpers import default_project, join_project, make_account, set_window_size, sql

skip_without_browser()


def _annotator(app) -> None:
    make_account(app, ANNOTATOR, "USER")
    join_project(app, default_project(app), ANNOTATOR)
    set_window_size(app, ANNOTATOR, 300)


def _classes_at(page, token: int) -> str:
    return page.eval_on_selector(f'.tok[data-i="{token}"]', "t => Array.from(t.querySelectorAll('.ann'))"
                                                            ".map(a => a.className).join(' ') + ' | ' + t.className")


def _status(app, doc: int) -> str:
    return sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (doc,))[0]["s"]


def test_keyboard_only_annotation_until_done(clean_app, page, request):
    _annotator(clean_app)
    sql(clean_app, "UPDATE project SET ask_labels = true WHERE is_default")  # s opens the label dialog
    request.addfinalizer(lambda: sql(clean_app, "UPDATE project SET ask_labels = false WHERE is_default"))
    text = "Jan Novák met Eva in Praha. " + plain_sentences(0, 4) + "\n\nEva wrote to Jan Novák."
    doc = add_document(clean_app, text, [("Jan Novák", "P"), ("Eva", "P"), ("Praha", "gu")])
    praha = token_index(clean_app, doc, "Praha")
    eva = token_index(clean_app, doc, "Eva")
    assert _status(clean_app, doc) == "PRE_ANNOTATED"
    login(page)
    page.goto("/annotate/")
    page.wait_for_selector('.tok[data-i="0"].sel')
    page.screenshot(path=str(ARTIFACTS / "annotate-1-start.png"), full_page=True)
    assert "dec-suspicious" in _classes_at(page, 0) and "sel" in _classes_at(page, 1)
    assert page.locator(".tok").count() == sql(clean_app, "SELECT token_count FROM document WHERE id = %s",
                                               (doc,))[0]["token_count"]

    # movement: l goes to the next token, h snaps back onto the whole annotation, L/J/K resize
    page.keyboard.press("l")
    page.wait_for_selector('.tok[data-i="2"].sel')
    assert page.locator(".tok.sel").count() == 1
    page.keyboard.press("h")
    page.wait_for_selector('.tok[data-i="0"].sel')
    assert page.locator(".tok.sel").count() == 2
    page.keyboard.press("L")
    assert page.locator(".tok.sel").count() == 3
    page.keyboard.press("K")
    page.keyboard.press("J")
    assert page.locator(".tok.sel").count() == 1 and "sel" in _classes_at(page, 1)
    page.keyboard.press("H")
    assert page.locator(".tok.sel").count() == 2

    # s: private by token -> the label dialog opens by itself; type a new label, Enter
    page.keyboard.press("s")
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    assert "dec-private-nolabel" in _classes_at(page, 0)
    page.keyboard.type("Person 1")
    page.keyboard.press("Enter")
    page.wait_for_selector("#ann-label-dialog.d-none", state="attached")
    wait_js(page, "document.querySelector('.tok[data-i=\"0\"] .dec-private-label') !== null")
    page.screenshot(path=str(ARTIFACTS / "annotate-2-private.png"), full_page=True)

    # n: next undecided (Eva), p: public by token -> green
    page.keyboard.press("n")
    page.wait_for_selector(f'.tok[data-i="{eva}"].sel')
    page.keyboard.press("p")
    wait_js(page, f"document.querySelector('.tok[data-i=\"{eva}\"] .dec-public') !== null")

    # n: Praha; c: private by entity type (orange: no label yet), e: label it -> red
    page.keyboard.press("n")
    page.wait_for_selector(f'.tok[data-i="{praha}"].sel')
    page.keyboard.press("c")
    wait_js(page, f"document.querySelector('.tok[data-i=\"{praha}\"] .dec-private-nolabel') !== null")
    page.keyboard.press("e")
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    page.keyboard.type("City")
    page.keyboard.press("Enter")
    wait_js(page, f"document.querySelector('.tok[data-i=\"{praha}\"] .dec-private-label') !== null")

    # the rest: the lookup rule made the later "Jan Novák" suspicious; S decides it by word type
    second_jan = token_index(clean_app, doc, "Jan", 1)
    second_eva = token_index(clean_app, doc, "Eva", 1)
    while page.locator(".dec-suspicious").count():
        page.keyboard.press("n")
        page.wait_for_selector(".tok.sel")
        first = int(page.get_attribute(".tok.sel", "data-i"))
        assert first in (second_jan, second_eva), first
        page.keyboard.press("S" if first == second_jan else "p")
        if first == second_jan:
            page.wait_for_selector("#ann-label-dialog:not(.d-none)")
            page.keyboard.press("Escape")
        wait_js(page, f"!document.querySelector('.tok[data-i=\"{first}\"] .dec-suspicious')")
    wait_js(page, "document.getElementById('ann-status').getAttribute('data-status') === 'DONE'")
    assert page.text_content("#ann-status") == "Done"
    page.screenshot(path=str(ARTIFACTS / "annotate-3-done.png"), full_page=True)
    assert _status(clean_app, doc) == "DONE"
    assert annotation(clean_app, doc, 0, 2)["token_decision"] == "PRIVATE"
    assert annotation(clean_app, doc, eva, eva + 1)["token_decision"] == "PUBLIC"

    # help overlay and the next window (nothing left)
    page.keyboard.press("?")
    page.wait_for_selector("#ann-help:not(.d-none)")
    page.screenshot(path=str(ARTIFACTS / "annotate-4-help.png"))
    page.keyboard.press("Escape")
    page.keyboard.press("w")
    wait_js(page, "document.getElementById('ann-message').textContent.includes('Nothing')")
    assert page.errors == []
    # the translation table is a JSON data block: present, parsed, and no CSP violation
    assert page.locator('script#annotate-messages[type="application/json"]').count() == 1
    assert csp_violations(page) == []

    # an admin (own browser context) downloads the tagged output of the finished document
    make_account(clean_app, ADMIN, "ADMIN")
    admin = page.new_session()
    login(admin, ADMIN)
    admin.goto(f"/documents/?project={default_project(clean_app)}")
    row = admin.locator(f'tr[data-document-id="{doc}"]')
    assert row.locator(".doc-status").get_attribute("data-status") == "DONE"
    assert row.locator(".doc-status").text_content() == "Done"
    assert row.locator(f'a[href="/annotate/document/{doc}"]').count() == 1
    assert row.locator(f'a[href="/documents/{doc}/history.csv"]').count() == 1
    admin.screenshot(path=str(ARTIFACTS / "documents-1-list.png"), full_page=True)
    with admin.expect_download() as info:
        row.locator(f'a[href="/documents/{doc}/download/tag"]').click()
    download = info.value
    assert download.suggested_filename.endswith(".tag.txt")
    output = Path(download.path()).read_text(encoding="utf-8")
    (ARTIFACTS / "documents-2-download.tag.txt").write_text(output, encoding="utf-8")
    from psan.runtime import db
    from psan.store.publish.output import render_document
    with clean_app.app_context(), db.transaction() as conn:
        expected = render_document(conn, doc, "tag")
    assert output == expected
    assert re.search(r"\[[A-Z_]+[^\]]*\]", output), output  # label tags such as [PERSON-1]
    assert "Novák" not in output and "Praha" not in output and "Jan" not in output, output
    assert "plain sentence number 0" in output and "Eva" in output  # public text stays
    assert admin.errors == [] and csp_violations(admin) == []


def test_label_dialog_waits_for_e_unless_the_project_asks_for_labels(clean_app, page):
    _annotator(clean_app)
    sql(clean_app, "UPDATE project SET ask_labels = false WHERE is_default")
    text = "Jan Novák met Eva. " + plain_sentences(0, 2)
    add_document(clean_app, text, [("Jan Novák", "P"), ("Eva", "P")])
    login(page)
    page.goto("/annotate/")
    page.wait_for_selector('.tok[data-i="0"].sel')
    page.keyboard.press("s")
    wait_js(page, "document.querySelector('.tok[data-i=\"0\"] .dec-private-nolabel') !== null")
    assert "d-none" in page.get_attribute("#ann-label-dialog", "class")  # no dialog: the project does not ask
    page.keyboard.press("e")
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    page.keyboard.press("Escape")


def test_document_text_and_label_names_are_shown_as_text(clean_app, page):
    _annotator(clean_app)
    evil_label = "<img src=x onerror=alert(1)>"
    text = 'Mr <script>alert(1)</script> Jan said "<img src=x onerror=alert(2)>" & left. ' + plain_sentences(0, 2)
    doc = add_document(clean_app, text, [("Jan", "P"), ("Mr", "P")])  # "Mr" stays undecided: a window is given
    label = sql(clean_app, "INSERT INTO label (project_id, name) VALUES (%s, %s) RETURNING id",
                (default_project(clean_app), evil_label))[0]["id"]
    jan = token_index(clean_app, doc, "Jan")
    sql(clean_app, "UPDATE annotation SET token_decision = 'PRIVATE', token_label_id = %s WHERE document_id = %s "
                   "AND first_token = %s", (label, doc, jan))
    login(page)
    page.goto("/annotate/")
    page.wait_for_selector(".tok")
    page.click(f'.tok[data-i="{jan}"]')
    wait_js(page, "document.getElementById('ann-detail').textContent.includes('onerror')")
    page.keyboard.press("e")
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    wait_js(page, "document.querySelectorAll('#ann-label-list option').length === 1")
    page.screenshot(path=str(ARTIFACTS / "annotate-5-escaping.png"), full_page=True)
    counts = page.evaluate("() => ({img: document.querySelectorAll('img').length, "
                           "script: document.querySelectorAll('#annotate script, #ann-text script').length, "
                           "text: document.getElementById('ann-text').textContent, "
                           "selection: document.getElementById('ann-selection').textContent, "
                           "option: document.querySelector('#ann-label-list option').value})")
    assert counts["img"] == 0 and counts["script"] == 0
    assert "<script>alert(1)</script>" in counts["text"] and "<img src=x onerror=alert(2)>" in counts["text"]
    assert evil_label in counts["selection"] and counts["option"] == evil_label
    assert page.errors == []


def test_czech_user_interface_in_the_annotation_window(clean_app, page):
    _annotator(clean_app)
    doc = add_document(clean_app, "Jan Novák met Eva. " + plain_sentences(0, 3), [("Jan Novák", "P"), ("Eva", "P")])
    login(page)
    page.goto("/annotate/")
    page.wait_for_selector('.tok[data-i="0"].sel')
    assert page.text_content("h1") == "Annotate"
    # the navbar switcher (CS button) reloads the same page in Czech
    page.click('form.language-switcher button[lang="cs"]')
    page.wait_for_selector('html[lang="cs"]', state="attached")
    page.wait_for_selector('.tok[data-i="0"].sel')
    # template texts
    assert page.text_content("h1") == "Anotovat"
    legend = page.text_content(".card-footer")
    assert "podezřelé" in legend and "veřejné" in legend and "soukromé, bez označení" in legend
    assert "Soukromé" in page.text_content('[data-action="token-private"]')
    assert page.get_attribute('[data-action="type-private"]', "title") == \
        "Označit tato slova všude jako soukromá (pravidlo slovního typu)"
    # texts made by annotate.js from the translated table
    assert page.text_content("#ann-mode") == "výběr po anotacích (m: po tokenech)"
    assert "tokeny 0–" in page.text_content("#ann-where")
    from psan.web.code_names import status_name
    with clean_app.test_request_context(headers={"Accept-Language": "cs"}):
        czech = status_name("PRE_ANNOTATED")  # "K anotaci" (tests/web/test_words_not_codes.py checks the words)
    assert page.text_content("#ann-status") == czech
    assert page.get_attribute("#ann-status", "data-status") == "PRE_ANNOTATED"
    wait_js(page, "document.querySelector('#ann-detail th') !== null")
    detail = page.text_content("#ann-detail")
    assert "Rozhodnutí: podezřelé" in detail and "Důvod" in detail and "Hlas" in detail
    # the system's NE_TYPE rule, its code "P" as a word
    assert "typ entity: osoba" in detail and "systém" in detail and "?" not in detail
    assert "podezřelé" in page.text_content("#ann-selection")
    page.keyboard.press("?")
    page.wait_for_selector("#ann-help:not(.d-none)")
    assert page.text_content("#ann-help-title") == "Klávesové zkratky"
    assert "další / předchozí nerozhodnutý úsek" in page.text_content("#ann-help")
    page.screenshot(path=str(ARTIFACTS / "annotate-6-czech-help.png"))
    page.keyboard.press("Escape")
    page.keyboard.press("p")
    wait_js(page, "document.getElementById('ann-message').textContent === 'Uloženo.'")
    wait_js(page, "document.querySelector('#ann-detail').textContent.includes('Historie')")
    assert "Rozhodnutí: veřejné" in page.text_content("#ann-detail")
    page.screenshot(path=str(ARTIFACTS / "annotate-7-czech.png"), full_page=True)
    assert sql(clean_app, "SELECT count(*) AS n FROM decision_log WHERE document_id = %s", (doc,))[0]["n"] == 1
    assert page.errors == [] and csp_violations(page) == []
    # the violation listener works: an inline script injected now is blocked and reported
    page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
                  " document.body.appendChild(s); }")
    wait_js(page, "(window.__cspViolations || []).length > 0")
    assert page.evaluate("() => window.__ran") is None
    page.csp.clear()
    # back to English
    page.click('form.language-switcher button[lang="en"]')
    page.wait_for_selector('html[lang="en"]', state="attached")
    page.wait_for_selector(".tok.sel")
    assert page.text_content("h1") == "Annotate" and page.text_content("#ann-mode").startswith("selecting")
