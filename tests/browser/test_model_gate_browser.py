"""In a real browser: a project model trained on 130 tokens serves no span.

The model trains on five short reviewed documents (about 130 decided tokens) and predicts over the
project; the annotation window of a new document nobody decided shows no span of the model (the app's
answer to the window, and the spans on the page), and the projects page and the model page say why the
model makes no suggestions.
"""
from __future__ import annotations

from tests.browser.helpers import ADMIN, csp_violations, login, skip_without_browser
from tests.helpers import make_account, sql
from tests.model_training import small_model_project

skip_without_browser()

NEW = "The board met again on day 9. Projekt Kestrel was discussed. Nothing else was said about it."


def test_a_model_trained_on_130_tokens_serves_no_span_and_the_pages_say_why(clean_app, page):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    pid, (new,), meta = small_model_project(app, ADMIN, (NEW,))
    assert 100 <= meta["tokens"] <= 160
    why = f"trained on {meta['tokens']} decided tokens; a model serves only after 500"
    assert sql(app, "SELECT count(*) AS n FROM named_entity WHERE source = 'model'") == [{"n": 0}]

    login(page, ADMIN)
    with page.expect_response("**/annotate/api/open") as opened:
        page.goto(f"/annotate/document/{new}")
    page.wait_for_selector(".tok")
    assert "Kestrel" in page.inner_text("body")  # the window shows the new document ...
    shown = opened.value.json()["annotations"]  # ... with what the patterns and the lookups found, no model span
    assert shown and all("MODEL" not in a["ne_types"] for a in shown), shown
    page.goto("/projects/")
    listing = page.inner_text("main")
    assert why in listing and "no suggestions" in listing
    page.goto(f"/projects/{pid}/model")
    assert page.locator('[data-serves="no"]').count() >= 1 and why in page.inner_text("main")
    assert csp_violations(page) == []
