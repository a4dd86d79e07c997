"""A span marked by hand in a real browser: it joins the entity it repeats or overlaps, takes that entity's
category without a dialog, and the label dialog asks only when nothing in the document says what it is.
"""
from __future__ import annotations

from tests.browser.helpers import ADMIN, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, group_entities, token_index
from tests.helpers import make_account, sql

skip_without_browser()

TEXT = ("Sarah Connor met Kyle Reese at noon. The weather was fine that day.\n\n"
        "Connor later phoned Reese. Mr. Harper and Harper left. Zorblax waited.\n")


def _mention(app, doc: int, first: int, end: int) -> dict | None:
    rows = sql(app, "SELECT m.entity_id, m.manual, e.category FROM entity_mention m "
                    "JOIN entity e ON e.id = m.entity_id WHERE m.document_id = %s AND m.first_token = %s "
                    "AND m.end_token = %s", (doc, first, end))
    return rows[0] if rows else None


def _mark(page, first: int, end: int) -> None:
    page.click(f'.tok[data-i="{first}"]')
    if end - first > 1:
        page.click(f'.tok[data-i="{end - 1}"]', modifiers=["Shift"])
    wait_js(page, f"document.querySelectorAll('.tok.sel').length === {end - first}")
    page.keyboard.press("s")
    wait_js(page, f"document.querySelector('.tok[data-i=\"{first}\"] .dec-private-nolabel, "
                  f".tok[data-i=\"{first}\"] .dec-private-label') !== null")


def test_a_hand_mark_takes_the_category_and_entity_of_what_it_repeats_and_asks_only_without_one(clean_app, page):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    doc = add_document(app, TEXT, [("Sarah Connor", "PERSON"), ("Kyle Reese", "PERSON"), ("Reese", "NORP"),
                                   ("Harper", "PERSON")])
    group_entities(app, doc)
    sarah = token_index(app, doc, "Sarah")
    connor = token_index(app, doc, "Connor", 1)  # the second "Connor": nothing recognized it
    mr = token_index(app, doc, "Mr")
    harper = token_index(app, doc, "Harper")
    zorblax = token_index(app, doc, "Zorblax")
    login(page, ADMIN)
    page.goto(f"/annotate/document/{doc}")
    page.wait_for_selector(".tok.sel")
    page.keyboard.press("m")  # select tokens

    # a word of a person's name found in the document: a mention of that person, no dialog
    _mark(page, connor, connor + 1)
    wait_js(page, "document.getElementById('ann-message').textContent.includes('Saved')")
    assert page.locator("#ann-label-dialog:not(.d-none)").count() == 0
    sarah_entity = _mention(app, doc, sarah, sarah + 2)["entity_id"]
    assert _mention(app, doc, connor, connor + 1) == {"entity_id": sarah_entity, "manual": True, "category": "PERSON"}

    # a span around a recognized mention joins it ("Mr. Harper" around "Harper"), no dialog
    _mark(page, mr, harper + 1)
    assert page.locator("#ann-label-dialog:not(.d-none)").count() == 0
    assert _mention(app, doc, mr, harper + 1)["entity_id"] == _mention(app, doc, harper, harper + 1)["entity_id"]

    # nothing to go on: the dialog asks
    _mark(page, zorblax, zorblax + 1)
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    assert "choose a category" in page.text_content("#ann-message")
    page.keyboard.press("Escape")
    assert _mention(app, doc, zorblax, zorblax + 1) is None

    out = page.request.get(f"/documents/{doc}/download/tag").text()
    assert "[PERSON] later phoned" in out, out  # the hand-marked "Connor" is a person in the output
    assert "Connor" not in out and "Harper" not in out, out
    assert page.errors == [] and csp_violations(page) == []
