"""An admin confirms an offered public rule on the annotate page with the keyboard only, and undoes it.

Offers show words of every document, so only admins see the panel (annotators see nothing outside their window).

Headless Debian Chromium driven by Playwright (``executable_path``: the system Chromium); the app in a real WSGI
server against the test database.
"""
from __future__ import annotations

from tests.browser.helpers import ARTIFACTS, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, decide_phrase, plain_sentences
from tests.helpers import account_id, default_project, join_project, make_account, set_window_size, sql

skip_without_browser()

COURT = "Supreme Court of Ruritania"
FORM = "supreme court of ruritania"
STEWARD = "steward@example.org"  # an admin who annotates too


def test_confirm_an_offer_by_keyboard_and_undo_it(clean_app, page):
    app = clean_app
    project = default_project(app)
    make_account(app, STEWARD, "ADMIN")
    join_project(app, project, STEWARD)
    set_window_size(app, STEWARD, 300)
    me = account_id(app, STEWARD)
    decided = [add_document(app, f"The {COURT} heard Jan Novák. " + plain_sentences(i, 2), [(COURT, "ORG"),
                                                                                          ("Jan Novák", "P")],
                            name=f"d{i}.txt") for i in range(3)]
    for doc in decided:
        decide_phrase(app, project, doc, "Supreme Court of Ruritania", "PUBLIC", me)
    # the document the annotator works on: the court twice, undecided
    sql(app, "UPDATE document SET status = 'DONE' WHERE id = ANY(%s)", (decided,))
    add_document(app, f"Eva Malá wrote to the {COURT}. The {COURT} answered her.",
                 [(COURT, "ORG"), ("Eva Malá", "P")], name="open.txt")

    login(page, STEWARD)
    page.goto("/annotate/")
    page.wait_for_selector(".tok.sel")
    page.wait_for_selector("#offers-panel:not(.d-none) .offer-confirm")
    offer = page.locator("#offers-list .offer")
    assert offer.count() == 1 and offer.get_attribute("data-form") == FORM
    assert page.locator("#offers-list mark").count() == 2  # the two undecided mentions, with their context
    page.screenshot(path=str(ARTIFACTS / "public-offers-1-offered.png"), full_page=True)

    # o: to the offer; a letter key inside the panel decides nothing in the text
    page.keyboard.press("o")
    wait_js(page, "document.activeElement && document.activeElement.classList.contains('offer-confirm')")
    page.keyboard.press("s")
    assert not sql(app, "SELECT 1 FROM annotation a JOIN document d ON d.id = a.document_id "
                        "WHERE d.name = 'open.txt' AND a.token_decision IS NOT NULL")
    page.keyboard.press("Enter")
    page.wait_for_selector("#offers-message .offer-undo")
    rules = sql(app, "SELECT id, condition, case_sensitive, confidence, author_id FROM rule "
                     "WHERE project_id = %s AND type = 'WORD_TYPE' AND annotation_id IS NULL", (project,))
    assert [(r["condition"], r["case_sensitive"], r["confidence"], r["author_id"]) for r in rules] == \
        [(FORM, False, 1.0, me)]
    assert page.locator("#offers-list .offer").count() == 0
    wait_js(page, "document.activeElement && document.activeElement.classList.contains('offer-undo')")
    page.screenshot(path=str(ARTIFACTS / "public-offers-2-confirmed.png"), full_page=True)

    # Enter on the focused undo takes the rule back, and the offer is shown again
    page.keyboard.press("Enter")
    page.wait_for_selector("#offers-list .offer-confirm")
    assert not sql(app, "SELECT 1 FROM rule WHERE id = %s", (rules[0]["id"],))
    assert not sql(app, "SELECT 1 FROM public_offer")
    # Esc: back to the text, whose keys work again
    page.keyboard.press("o")
    page.keyboard.press("Escape")
    wait_js(page, "document.activeElement && document.activeElement.id === 'ann-text'")
    assert page.errors == [] and csp_violations(page) == []
