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


def _suspicious_inside(page, first: int, end: int) -> bool:
    """Does a suspicious span lie on some of the tokens ``first … end-1`` in the page?"""
    return page.evaluate("([first, end]) => { for (let i = first; i < end; i++) {"
                         " if (document.querySelector(`.tok[data-i=\"${i}\"] .ann.dec-suspicious`)) return true; }"
                         " return false; }", [first, end])


def _undecided_inside(app, doc: int, first: int, end: int) -> list[tuple[int, int]]:
    """The undecided spans strictly inside ``[first, end)`` in the database."""
    rows = sql(app, "SELECT first_token, end_token FROM annotation WHERE document_id = %s AND token_decision IS NULL "
                    "AND first_token >= %s AND end_token <= %s AND (first_token, end_token) <> (%s, %s) "
                    "ORDER BY 1, 2", (doc, first, end, first, end))
    return [(r["first_token"], r["end_token"]) for r in rows]


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
    connor_first = token_index(app, doc, "Connor")
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
    assert _suspicious_inside(page, harper, harper + 1)  # the recognized "Harper" asks before the mark ...
    _mark(page, mr, harper + 1)
    assert page.locator("#ann-label-dialog:not(.d-none)").count() == 0
    assert _mention(app, doc, mr, harper + 1)["entity_id"] == _mention(app, doc, harper, harper + 1)["entity_id"]
    # ... and not after it: the mark covers it, no second suspicious span inside the name (page and database)
    assert not _suspicious_inside(page, mr, harper + 1)
    assert _undecided_inside(app, doc, mr, harper + 1) == []
    # a hand mark over a whole name the lone surname's lookup has reached ("Sarah Connor" after "Connor"):
    # the lookup's span inside it goes, and no re-application brings it back
    assert _undecided_inside(app, doc, sarah, sarah + 2) == [(connor_first, connor_first + 1)]
    _mark(page, sarah, sarah + 2)
    assert not _suspicious_inside(page, sarah, sarah + 2)
    assert _undecided_inside(app, doc, sarah, sarah + 2) == []

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
