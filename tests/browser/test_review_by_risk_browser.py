"""Review by risk in a real browser: a keyboard-only span review with undo, text routed to reading with the reason
shown, and a release the page blocks until the QA sample of unread text bounds the misses."""
from __future__ import annotations

from tests.browser.helpers import ADMIN, ANNOTATOR, ARTIFACTS, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, plain_sentences, token_index
from tests.helpers import default_project, join_project, make_account, set_window_size, sql

skip_without_browser()

TEXT = plain_sentences(0, 25) + " Yesterday John Smith met the judge. " + plain_sentences(25, 25)


def _setup(app) -> int:
    make_account(app, ANNOTATOR, "USER")
    join_project(app, default_project(app), ANNOTATOR)
    set_window_size(app, ANNOTATOR, 300)
    sql(app, "UPDATE project SET review_mode = 'risk' WHERE is_default")
    return add_document(app, TEXT, [("John Smith", "PERSON")])


def test_span_review_by_keyboard_then_reading_with_its_reason(clean_app, page):
    doc = _setup(clean_app)
    john = token_index(clean_app, doc, "John")
    login(page)
    page.goto("/annotate/")
    page.wait_for_selector(f'.tok[data-i="{john}"].sel')
    assert page.locator(".tok").count() <= 20  # the span's sentence, not a 300-token window
    assert "Yesterday John Smith met the judge" in page.inner_text("#ann-text")
    page.screenshot(path=str(ARTIFACTS / "risk-1-span-review.png"), full_page=True)
    page.keyboard.press("s")
    wait_js(page, f"document.querySelector('.tok[data-i=\"{john}\"] .dec-private-nolabel') !== null")
    page.keyboard.press("u")  # undo: the span waits again
    wait_js(page, f"document.querySelector('.tok[data-i=\"{john}\"] .dec-suspicious') !== null")
    page.keyboard.press("s")
    wait_js(page, f"document.querySelector('.tok[data-i=\"{john}\"] .dec-private-nolabel') !== null")
    page.keyboard.press("w")  # no span left: the text the project routes to reading
    wait_js(page, "document.querySelector('#ann-message').textContent.includes('Read this text in full')")
    message = page.inner_text("#ann-message")
    assert "risk model" in message  # too few hand marks yet: it says everything is read until it has
    assert page.locator(".tok").count() > 20
    page.screenshot(path=str(ARTIFACTS / "risk-2-reading.png"), full_page=True)
    assert not page.errors and not csp_violations(page)


def test_release_page_blocks_until_the_bound_is_below_the_target(clean_app, page):
    app = clean_app
    _setup(app)
    make_account(app, ADMIN, "ADMIN")
    pid = default_project(app)
    login(page, ADMIN)
    page.goto(f"/documents/project/{pid}/release")
    assert page.locator("#release-blocked").is_visible()
    assert page.request.get(f"/documents/project/{pid}/download/pseudonymize").status == 409
    page.click("text=Draw a sample of unread sentences")
    page.wait_for_selector("#review-sample-form")
    fields = page.locator('#review-sample-form input[type="number"]')
    assert fields.count() >= 1
    for i in range(fields.count()):
        fields.nth(i).fill("0")
    page.click('#review-sample-form button[type="submit"]')
    page.wait_for_selector("#review-sample-form")
    page.screenshot(path=str(ARTIFACTS / "risk-3-sample.png"), full_page=True)
    page.goto(f"/documents/project/{pid}/release")
    bound = page.inner_text(".review-bound")
    assert bound.endswith("%")
    blocked = page.locator("#release-blocked").count() > 0
    status = page.request.get(f"/documents/project/{pid}/download/pseudonymize").status
    assert status == (409 if blocked else 200)
    page.screenshot(path=str(ARTIFACTS / "risk-4-release.png"), full_page=True)
    assert not page.errors and not csp_violations(page)
