"""Addresses, local phone numbers and nested spans in a real browser: uploaded, recognized by the real pipeline
in the worker, annotated with the keyboard and the mouse, downloaded without any part of an address in clear.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.helpers import ADMIN, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, annotation, token_index, wait_for_documents
from tests.helpers import make_account, new_project, sql

skip_without_browser()

EN_ADDRESS, CS_ADDRESS = "22 Baker Street, London OQ6 8PA", "Korunní 15, Praha 2"
EN_TEXT = f"Sarah Connor moved to {EN_ADDRESS} last spring. Her phone is 555-0199.\n"
CS_TEXT = f"Paní Jana Dvořáková se přestěhovala na adresu {CS_ADDRESS}. Volejte 603 123 456.\n"
#: pieces of the addresses that must never be in a download
ADDRESS_PIECES = ("Baker", "London", "OQ6", "8PA", "22 ", "Korunní", "Praha", "15,")


def _upload(page, app, tmp_path: Path, pid: int, name: str, text: str) -> int:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    before = {r["id"] for r in sql(app, "SELECT id FROM document")}
    page.goto(f"/documents/upload?project={pid}")
    page.set_input_files('input[name="files"]', str(source))
    page.click('main form [type="submit"]')
    page.wait_for_url(re.compile(r".*/documents/\?project=\d+$"))
    rows = [r for r in wait_for_documents(app) if r["id"] not in before]
    assert [r["status"] for r in rows] == ["PRE_ANNOTATED"], rows
    return rows[0]["id"]


def _spans_over(page, first: int, end: int) -> list[dict]:
    """Every annotation element over the tokens ``first … end-1``: its id, classes and whether it covers them all."""
    return page.evaluate(
        "([first, end]) => { const out = {}; for (let i = first; i < end; i++) {"
        " document.querySelectorAll(`.tok[data-i=\"${i}\"] .ann`).forEach(a => {"
        " const id = a.getAttribute('data-ann'); (out[id] = out[id] || {id, cls: a.className, n: 0}).n++; }); }"
        " return Object.values(out).map(o => ({...o, whole: o.n === end - first})); }", [first, end])


def _tokens_of(app, doc: int, text: str, phrase: str) -> tuple[int, int]:
    start = text.index(phrase)
    rows = sql(app, "SELECT idx, start_char, end_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))
    inside = [r["idx"] for r in rows if r["start_char"] < start + len(phrase) and start < r["end_char"]]
    return inside[0], inside[-1] + 1


@pytest.mark.worker
def test_addresses_are_one_span_never_suggested_public_and_a_releases_no_part_of_them(clean_app, page, celery_worker,
                                                                                       tmp_path: Path):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    en, cs = new_project(app, "Letters"), new_project(app, "Dopisy")
    sql(app, "UPDATE project SET language = 'en' WHERE id = %s", (en,))
    sql(app, "UPDATE project SET language = 'cs' WHERE id = %s", (cs,))
    login(page, ADMIN)
    docs = {"en": _upload(page, app, tmp_path, en, "letter.txt", EN_TEXT),
            "cs": _upload(page, app, tmp_path, cs, "dopis.txt", CS_TEXT)}
    for language, text, address, phone in (("en", EN_TEXT, EN_ADDRESS, "555-0199"),
                                           ("cs", CS_TEXT, CS_ADDRESS, "603 123 456")):
        doc = docs[language]
        page.goto(f"/annotate/document/{doc}")
        page.wait_for_selector(".tok.sel")
        for piece, kind in ((address, "ADDRESS"), (phone, "PHONE")):
            first, end = _tokens_of(app, doc, text, piece)
            spans = _spans_over(page, first, end)
            assert any(s["whole"] for s in spans), (piece, spans)  # one span covers it all
            assert not any("sugg-public" in s["cls"] for s in spans), (piece, spans)  # no part suggested public
            assert sql(app, "SELECT type FROM named_entity WHERE document_id = %s AND first_token = %s "
                            "AND end_token = %s", (doc, first, end)) == [{"type": kind}], piece
            page.click(f'.tok[data-i="{first + 1}"]')
            wait_js(page, f"document.querySelector('.tok[data-i=\"{first}\"]').classList.contains('sel')")
            assert "suggested: public" not in page.text_content("#ann-selection")
        page.keyboard.press("a")  # accept the window's suggestions
        wait_js(page, "/accepted|finished/.test(document.getElementById('ann-message').textContent)")
        for mode in ("remove", "tag", "pseudonymize"):
            response = page.request.get(f"/documents/{doc}/download/{mode}")
            assert response.status == 200, mode
            out = response.text()
            for piece in ADDRESS_PIECES:
                assert piece not in out, (language, mode, piece, out)
            assert phone not in out and "0199" not in out, (language, mode, out)
    assert page.errors == [] and csp_violations(page) == []


def test_a_suspicious_span_nested_in_a_private_one_is_reached_by_a_click(clean_app, page):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    text = "The court heard Jan Novák of Brno. The clerk refused.\n"
    doc = add_document(app, text, [("Jan Novák of Brno", "P"), ("Brno", "gu")])
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE' AND condition = 'P'")
    from psan.runtime import db
    from psan.store.corpus.reannotate import reannotate_document_now
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, doc)
    jan, brno = token_index(app, doc, "Jan"), token_index(app, doc, "Brno")
    assert annotation(app, doc, jan, brno + 1)["rule_level"] == -1.0  # the outer span: private by its type

    login(page, ADMIN)
    page.goto(f"/annotate/document/{doc}")
    page.wait_for_selector(".tok.sel")
    page.click(f'.tok[data-i="{jan}"]')  # the private span alone at "Jan"
    wait_js(page, f"document.querySelectorAll('.tok.sel').length === {brno + 1 - jan}")
    page.click(f'.tok[data-i="{brno}"]')  # the mouse reaches the suspicious "Brno" inside it
    wait_js(page, f"document.querySelectorAll('.tok.sel').length === 1 && "
                  f"document.querySelector('.tok[data-i=\"{brno}\"]').classList.contains('sel')")
    page.click(f'.tok[data-i="{brno}"]')  # a second click goes on to the outer span
    wait_js(page, f"document.querySelectorAll('.tok.sel').length === {brno + 1 - jan}")
    page.click(f'.tok[data-i="{brno}"]')
    wait_js(page, "document.querySelectorAll('.tok.sel').length === 1")
    page.keyboard.press("p")
    wait_js(page, "document.getElementById('ann-status').getAttribute('data-status') === 'DONE'")
    assert sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (doc,))[0]["s"] == "DONE"
    assert page.errors == [] and csp_violations(page) == []


PHONES = ("555-0199", "(555) 123-4567", "+420 603 123 456")


@pytest.mark.worker
def test_phone_numbers_in_local_formats_are_one_span_never_suggested_public(clean_app, page, celery_worker,
                                                                          tmp_path: Path):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    pid = new_project(app, "Calls")
    sql(app, "UPDATE project SET language = 'en' WHERE id = %s", (pid,))
    text = f"Ring {PHONES[0]} at the desk. The office is on {PHONES[1]}; in Prague {PHONES[2]}.\n"
    login(page, ADMIN)
    doc = _upload(page, app, tmp_path, pid, "calls.txt", text)
    page.goto(f"/annotate/document/{doc}")
    page.wait_for_selector(".tok.sel")
    for phone in PHONES:
        first, end = _tokens_of(app, doc, text, phone)
        spans = _spans_over(page, first, end)
        assert any(s["whole"] for s in spans), (phone, spans)
        assert not any("sugg-public" in s["cls"] for s in spans), (phone, spans)
        assert sql(app, "SELECT type FROM named_entity WHERE document_id = %s AND first_token = %s "
                        "AND end_token = %s", (doc, first, end)) == [{"type": "PHONE"}], phone
    page.keyboard.press("a")
    wait_js(page, "document.getElementById('ann-message').textContent.length > 0 && !document.getElementById("
                  "'ann-message').classList.contains('d-none')")
    out = page.request.get(f"/documents/{doc}/download/remove").text()
    for phone in PHONES:
        assert phone not in out and phone[-4:] not in out, (phone, out)
    assert page.errors == [] and csp_violations(page) == []
