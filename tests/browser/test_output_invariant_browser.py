"""In a real browser: a rule-private name stays masked whatever overlaps it.

"Mr E. Cinmen" is private by the PERSON entity-type rule; in the annotation window the admin marks
the "." inside it private by token (``s``) and tries to decide a wider model span "Mr E. Cinmen ," public
by entity type (``C``): refused, the model's spans are no entity type (a public ``MODEL`` rule would
release every model span unseen); so it decides that span public by token (``p``).  Every download mode
masks the whole name.  Then ``u`` undoes the ``p`` and the history list shows it undone.
"""
from __future__ import annotations

from tests.browser.helpers import ADMIN, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, annotation, token_index
from tests.helpers import make_account, sql

skip_without_browser()

TEXT = ("The hearing was adjourned. On 3 May Mr E. Cinmen, the applicant, asked for a copy of the file. "
        "The clerk refused.\n")


def _select(page, first: int, end: int) -> None:
    page.click(f'.tok[data-i="{first}"]')
    if end - first > 1:
        page.click(f'.tok[data-i="{end - 1}"]', modifiers=["Shift"])
    wait_js(page, f"document.querySelectorAll('.tok.sel').length === {end - first}")


def test_rule_private_name_stays_masked_under_a_public_model_span(clean_app, page):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    doc = add_document(app, TEXT, [("Mr E. Cinmen", "PERSON")])
    mr = token_index(app, doc, "Mr")
    comma = token_index(app, doc, ",")
    dot = token_index(app, doc, ".", 1)  # the full stop of "E."
    assert mr < dot < comma
    # a wider span of the learned model over the name, and the PERSON type decided private
    sql(app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
             "VALUES (%s, %s, %s, 'MODEL', 'PERSON', 'model', 0.9)", (doc, mr, comma + 1))
    sql(app, "INSERT INTO rule (project_id, type, condition, confidence) SELECT project_id, 'NE_TYPE', 'MODEL', 0 "
             "FROM document WHERE id = %s", (doc,))
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE' AND condition = 'PERSON'")
    from psan.runtime import db
    from psan.store.corpus.reannotate import reannotate_document_now
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, doc)
    assert annotation(app, doc, mr, comma)["rule_level"] == -1.0

    login(page, ADMIN)
    page.goto(f"/annotate/document/{doc}")
    page.wait_for_selector(".tok.sel")
    page.keyboard.press("m")  # select by tokens
    _select(page, dot, dot + 1)
    page.keyboard.press("s")  # the person's PRIVATE decision on the "." only
    wait_js(page, "document.querySelectorAll('#ann-history li.mb-1').length === 1")  # saved: in the history
    _select(page, mr, comma + 1)
    # "by entity type" is refused on a span only the model proposed: its rule is nobody's type decision
    # (a public MODEL rule would release every model span unseen, recognizers' spans the model also drew too)
    page.keyboard.press("C")
    wait_js(page, "document.getElementById('ann-message').textContent.indexOf('one by one') >= 0")
    assert sql(app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'MODEL'") == [
        {"confidence": 0.0}]
    page.keyboard.press("p")  # the wider model span public: the person's decision on exactly its tokens
    wait_js(page, f"document.querySelector('.tok[data-i=\"{comma}\"] .dec-public') !== null")
    assert annotation(app, doc, dot, dot + 1)["token_decision"] == "PRIVATE"
    assert annotation(app, doc, mr, comma + 1)["token_decision"] == "PUBLIC"

    for mode in ("remove", "tag", "pseudonymize"):
        response = page.request.get(f"/documents/{doc}/download/{mode}")
        assert response.status == 200, mode
        out = response.text()
        for clear in ("Cinmen", "Mr E", "E."):
            assert clear not in out, (mode, clear, out)
        assert "The hearing was adjourned." in out and "asked for a copy of the file." in out, (mode, out)

    # u undoes the last action (the p); the history list says so
    wait_js(page, "document.querySelectorAll('#ann-history li.mb-1').length === 2")
    page.keyboard.press("u")
    wait_js(page, "document.querySelector('#ann-history li .text-decoration-line-through') !== null")
    assert annotation(app, doc, mr, comma + 1)["token_decision"] is None
    assert annotation(app, doc, dot, dot + 1)["token_decision"] == "PRIVATE"  # the older decision stays
    assert page.errors == [] and csp_violations(page) == []
