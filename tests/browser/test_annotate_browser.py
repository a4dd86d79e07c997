"""The annotation window in a real browser: headless Debian Chromium driven by Playwright.

Playwright's own browser download is never used (``executable_path`` points at the system
Chromium); the app runs in a real WSGI server in a background thread against the test database.
"""
from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import PASSWORD, make_account
from tests.web.annotate_fixtures import (
    add_document,
    annotation,
    default_project,
    join_project,
    plain_sentences,
    set_window_size,
    sql,
    token_index,
)

CHROMIUM = os.environ.get("PSAN_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                                               "(pip install playwright; no 'playwright install')")
if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

ANNOTATOR = "annotator@example.org"


@pytest.fixture()
def live_server(clean_app) -> Iterator[str]:
    from werkzeug.serving import make_server
    server = make_server("127.0.0.1", 0, clean_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture()
def page(live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    dialogs: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900})
            pg = context.new_page()
            pg.set_default_timeout(15_000)
            pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            errors: list[str] = []
            pg.on("pageerror", lambda exc: errors.append(str(exc)))
            pg.dialogs = dialogs
            pg.errors = errors
            yield pg
        finally:
            browser.close()
    assert dialogs == [], f"a JavaScript dialog was opened: {dialogs}"


def _annotator(app) -> None:
    make_account(app, ANNOTATOR, "USER")
    join_project(app, default_project(app), ANNOTATOR)
    set_window_size(app, ANNOTATOR, 300)


def _login(page) -> None:
    page.goto("/auth/login")
    page.fill('input[name="email"]', ANNOTATOR)
    page.fill('input[name="password"]', PASSWORD)
    page.click('main form input[type="submit"], main form button[type="submit"]')
    page.wait_for_url("**/")


def _wait_js(page, expression: str, timeout: float = 15.0) -> None:
    """Poll a JavaScript expression with ``page.evaluate`` (CDP, not subject to the page's CSP, unlike
    ``wait_for_function`` which evals a string inside the page and is blocked by ``script-src 'self'``)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        time.sleep(0.05)


def _classes_at(page, token: int) -> str:
    return page.eval_on_selector(f'.tok[data-i="{token}"]', "t => Array.from(t.querySelectorAll('.ann'))"
                                                            ".map(a => a.className).join(' ') + ' | ' + t.className")


def _status(app, doc: int) -> str:
    return sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (doc,))[0]["s"]


def test_keyboard_only_annotation_until_done(clean_app, page):
    _annotator(clean_app)
    text = "Jan Novák met Eva in Praha. " + plain_sentences(0, 4) + "\n\nEva wrote to Jan Novák."
    doc = add_document(clean_app, text, [("Jan Novák", "P"), ("Eva", "P"), ("Praha", "gu")])
    praha = token_index(clean_app, doc, "Praha")
    eva = token_index(clean_app, doc, "Eva")
    assert _status(clean_app, doc) == "PRE_ANNOTATED"
    _login(page)
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
    _wait_js(page, "document.querySelector('.tok[data-i=\"0\"] .dec-private-label') !== null")
    page.screenshot(path=str(ARTIFACTS / "annotate-2-private.png"), full_page=True)

    # n: next undecided (Eva), p: public by token -> green
    page.keyboard.press("n")
    page.wait_for_selector(f'.tok[data-i="{eva}"].sel')
    page.keyboard.press("p")
    _wait_js(page, f"document.querySelector('.tok[data-i=\"{eva}\"] .dec-public') !== null")

    # n: Praha; c: private by entity type (orange: no label yet), e: label it -> red
    page.keyboard.press("n")
    page.wait_for_selector(f'.tok[data-i="{praha}"].sel')
    page.keyboard.press("c")
    _wait_js(page, f"document.querySelector('.tok[data-i=\"{praha}\"] .dec-private-nolabel') !== null")
    page.keyboard.press("e")
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    page.keyboard.type("City")
    page.keyboard.press("Enter")
    _wait_js(page, f"document.querySelector('.tok[data-i=\"{praha}\"] .dec-private-label') !== null")

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
        _wait_js(page, f"!document.querySelector('.tok[data-i=\"{first}\"] .dec-suspicious')")
    _wait_js(page, "document.getElementById('ann-status').textContent === 'DONE'")
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
    _wait_js(page, "document.getElementById('ann-message').textContent.includes('Nothing')")
    assert page.errors == []


def test_document_text_and_label_names_are_shown_as_text(clean_app, page):
    _annotator(clean_app)
    evil_label = "<img src=x onerror=alert(1)>"
    text = 'Mr <script>alert(1)</script> Jan said "<img src=x onerror=alert(2)>" & left. ' + plain_sentences(0, 2)
    doc = add_document(clean_app, text, [("Jan", "P")])
    label = sql(clean_app, "INSERT INTO label (project_id, name) VALUES (%s, %s) RETURNING id",
                (default_project(clean_app), evil_label))[0]["id"]
    jan = token_index(clean_app, doc, "Jan")
    sql(clean_app, "UPDATE annotation SET token_decision = 'PRIVATE', token_label_id = %s WHERE document_id = %s "
                   "AND first_token = %s", (label, doc, jan))
    sql(clean_app, "INSERT INTO annotation (document_id, first_token, end_token, rule_level) VALUES (%s, 0, 1, 0)",
        (doc,))
    _login(page)
    page.goto("/annotate/")
    page.wait_for_selector(".tok")
    page.click(f'.tok[data-i="{jan}"]')
    _wait_js(page, "document.getElementById('ann-detail').textContent.includes('onerror')")
    page.keyboard.press("e")
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    _wait_js(page, "document.querySelectorAll('#ann-label-list option').length === 1")
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
