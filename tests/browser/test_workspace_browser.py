"""The workspace pages in a real browser: an annotator picks a project and
continues there; a dashboard of a project with two annotators whose chart and table match the
database; a concordance search with a bulk decision; a double-annotated window with a disagreement
adjudicated, and the agreement in the release report.  Keyboard first, under the strict CSP."""
from __future__ import annotations

import re

from tests.browser.helpers import ADMIN, ANNOTATOR, ARTIFACTS, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, plain_sentences
from tests.helpers import default_project, join_project, make_account, new_project, set_window_size, sql
from tests.web.helpers import annotator_client, decide_window_and_leave

skip_without_browser()

TEXT = ("Karel Novak met Jana in Brno. " + plain_sentences(0, 30) + " Later Karel Novak left Brno. "
        + plain_sentences(30, 30) + " Karel Novak and Jana were seen in Praha.")
ENTITIES = [("Karel Novak", "P"), ("Jana", "P"), ("Brno", "G"), ("Praha", "G")]


def _window_project(app, email: str) -> int | None:
    rows = sql(app, "SELECT d.project_id FROM annotation_window w JOIN document d ON d.id = w.document_id "
                    "JOIN account a ON a.id = w.account_id WHERE a.email = %s", (email,))
    return rows[0]["project_id"] if rows else None


def test_an_annotator_picks_a_project_and_continues_there(clean_app, page):
    app = clean_app
    other = new_project(app, "Court files")
    for n in range(3):
        add_document(app, TEXT, ENTITIES, name=f"default-{n}.txt")
        add_document(app, TEXT, ENTITIES, project_id=other, name=f"court-{n}.txt")
    make_account(app, ANNOTATOR, "USER")
    join_project(app, default_project(app), ANNOTATOR)
    join_project(app, other, ANNOTATOR)
    set_window_size(app, ANNOTATOR, 40)
    login(page)
    page.goto("/workspace/")
    assert page.locator(".home-row").count() == 2
    # keyboard: j to the project row, Enter chooses it and opens the annotation window
    row = page.locator(f'.home-row[data-project="{other}"]')
    index = [page.locator(".home-row").nth(i).get_attribute("data-project") for i in range(2)].index(str(other))
    for _ in range(index + 1):
        page.keyboard.press("j")
    page.keyboard.press("Enter")
    page.wait_for_url("**/annotate/")
    page.wait_for_selector(".tok")
    assert _window_project(app, ANNOTATOR) == other
    # decide (p) and take the next windows (w): they all stay in the chosen project
    for _ in range(4):
        page.keyboard.press("n")
        page.keyboard.press("p")
        wait_js(page, "document.querySelector('.dec-suspicious.sel, .sel .dec-suspicious') === null")
        page.keyboard.press("w")
        page.wait_for_timeout(300)
        assert _window_project(app, ANNOTATOR) == other
    document = sql(app, "SELECT d.name FROM annotation_window w JOIN document d ON d.id = w.document_id")[0]["name"]
    page.goto("/workspace/")
    assert "chosen" in row.inner_text()
    assert document in page.locator("#continue").inner_text()
    assert int(re.search(r"\d+", page.locator(f'.home-row[data-project="{other}"] .mine').inner_text()).group()) >= 1
    page.screenshot(path=str(ARTIFACTS / "workspace-home.png"), full_page=True)
    page.keyboard.press("c")  # continue where I left off: the same window
    page.wait_for_url("**/annotate/")
    page.wait_for_selector(".tok")
    assert _window_project(app, ANNOTATOR) == other
    assert csp_violations(page) == [] and page.errors == []


def test_dashboard_of_a_project_with_two_annotators(clean_app, page):
    app = clean_app
    for n in range(2):
        add_document(app, TEXT, ENTITIES, name=f"doc-{n}.txt")
    for email in ("one@example.org", "two@example.org"):
        client = annotator_client(app, email, window_size=40)
        for _ in range(2):
            decide_window_and_leave(client, "PRIVATE", limit=1)
    make_account(app, ADMIN, "ADMIN")
    login(page, ADMIN)
    page.goto("/projects/")
    page.click(f'a[href="/workspace/projects/{default_project(app)}/dashboard"]')
    page.wait_for_selector("#chart-category svg")
    page.screenshot(path=str(ARTIFACTS / "workspace-dashboard.png"), full_page=True)
    done = sql(app, "SELECT count(*) AS n FROM window_log WHERE decisions > 0 AND NOT forced")[0]["n"]
    assert done == 4 and page.locator("#windows-done").inner_text().strip() == "4"
    assert page.locator("#progress-summary progress").get_attribute("value") == "4"
    # the category chart's table equals the database, and so do the chart's bars
    table = {r.get_attribute("data-category"): [int(c.inner_text()) for c in r.locator("td").all()[1:]]
             for r in page.locator("#table-category tbody tr").all()}
    rows = sql(app, "SELECT coalesce(ne.category, 'OTHER') AS c, count(*) FILTER (WHERE a.token_decision = 'PUBLIC') "
                    "AS pub, count(*) FILTER (WHERE a.token_decision = 'PRIVATE') AS priv FROM annotation a "
                    "LEFT JOIN named_entity ne ON ne.document_id = a.document_id AND ne.first_token = a.first_token "
                    "AND ne.end_token = a.end_token WHERE a.token_decision IS NOT NULL GROUP BY 1")
    assert table == {r["c"]: [r["pub"], r["priv"]] for r in rows} and sum(r["priv"] for r in rows) == 4
    bars = sorted(int(b.get_attribute("data-value")) for b in page.locator("#chart-category rect").all())
    assert bars == sorted(v for pair in table.values() for v in pair)
    people = {r.get_attribute("data-account"): r.locator("td").all()[1].inner_text()
              for r in page.locator("#table-throughput tbody tr").all()}
    assert people == {"one@example.org": "2", "two@example.org": "2"}
    assert page.locator("#chart-progress polyline").count() == 2
    assert csp_violations(page) == [] and page.errors == []


def test_concordance_search_and_bulk_decision_then_undo(clean_app, page):
    app = clean_app
    doc = add_document(app, TEXT, ENTITIES)
    make_account(app, ADMIN, "ADMIN")
    login(page, ADMIN)
    page.goto(f"/workspace/projects/{default_project(app)}/search")
    page.keyboard.press("Escape")
    page.locator("body").click()
    page.keyboard.press("/")
    page.keyboard.type("novak")
    page.keyboard.press("Enter")
    page.wait_for_selector("#kwic")
    assert page.locator(".kwic-row").count() == 3
    assert page.locator(".kwic-hit").all_inner_texts() == ["Novak"] * 3
    # keyboard: j/x ticks the first two occurrences
    page.keyboard.press("j")
    page.keyboard.press("x")
    page.keyboard.press("j")
    page.keyboard.press("x")
    assert page.locator(".kwic-check:checked").count() == 2
    page.click("#bulk-private")
    page.wait_for_selector(".alert-success")
    logged = sql(app, "SELECT action, decision::text AS d, first_token FROM decision_log WHERE document_id = %s "
                      "ORDER BY id", (doc,))
    assert [(r["action"], r["d"]) for r in logged] == [("search", "PRIVATE")] * 2
    decisions = [r.get_attribute("data-decision") for r in page.locator(".kwic-row").all()]
    assert decisions[:2] == ["PRIVATE", "PRIVATE"]
    page.screenshot(path=str(ARTIFACTS / "workspace-search.png"), full_page=True)
    # u undoes the whole bulk decision: both occurrences are undecided again
    page.keyboard.press("u")
    page.wait_for_selector("#undo-form", state="detached")
    assert sql(app, "SELECT count(*) AS n FROM annotation WHERE document_id = %s AND token_decision IS NOT NULL",
               (doc,))[0]["n"] == 0
    assert "PRIVATE" not in [r.get_attribute("data-decision") for r in page.locator(".kwic-row").all()]
    assert sql(app, "SELECT count(*) AS n FROM decision_log WHERE action = 'undo'")[0]["n"] == 2
    assert csp_violations(page) == [] and page.errors == []


def test_double_annotated_window_is_adjudicated_and_reported(clean_app, page):
    app = clean_app
    project = default_project(app)
    doc = add_document(app, TEXT, ENTITIES)
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    pending = decide_window_and_leave(annotator_client(app, "one@example.org", window_size=60), "PRIVATE")
    make_account(app, ANNOTATOR, "USER")
    join_project(app, project, ANNOTATOR)
    login(page)
    page.goto("/workspace/")
    page.click("#claim-second")
    page.wait_for_selector("#second-spans")
    wait_js(page, "document.readyState === 'complete'")  # the keys below need workspace.js's handlers
    rows = page.locator(".span-row").count()
    assert rows >= 2
    # keyboard: the first span public (a disagreement; the form starts on it), every other private
    page.keyboard.press("p")
    for _ in range(rows - 1):
        page.keyboard.press("j")
        page.keyboard.press("s")
    page.click("#save-second")
    page.wait_for_url("**/workspace/")
    assert sql(app, "SELECT state FROM double_window")[0]["state"] == "disagreed"
    admin = page.new_session()
    make_account(app, ADMIN, "ADMIN")
    login(admin, ADMIN)
    admin.goto(f"/workspace/projects/{project}/dashboard")
    admin.click("#to-adjudicate")
    admin.click("#adjudication-list a")
    admin.wait_for_selector("#adjudicate-spans")
    wait_js(admin, "document.readyState === 'complete'")  # a key pressed before workspace.js runs is lost
    assert admin.locator('.span-row[data-differs="yes"]').count() == 1
    assert admin.locator("mark.adj-differ").count() == 1
    admin.keyboard.press("j")
    admin.keyboard.press("2")  # the second version: public
    wait_js(admin, """document.querySelector('.span-row[data-differs="yes"] input[value="PUBLIC"]').checked""")
    admin.screenshot(path=str(ARTIFACTS / "workspace-adjudicate.png"), full_page=True)
    admin.click("#save-final")
    admin.wait_for_selector(".alert-success")
    assert sql(app, "SELECT state FROM double_window")[0]["state"] == "adjudicated"
    first = pending[0]
    assert sql(app, "SELECT token_decision::text AS d FROM annotation WHERE document_id = %s AND first_token = %s "
                    "AND end_token = %s", (doc, first["first_token"], first["end_token"]))[0]["d"] == "PUBLIC"
    admin.goto(f"/documents/project/{project}/release")
    table = admin.locator("#table-agreement")
    assert table.count() == 1
    person = admin.locator('#table-agreement tr[data-category="PERSON"] td').all_inner_texts()
    assert person[3].replace(" ", "") != "" and person[1] not in ("", "–")
    assert csp_violations(admin) == [] and admin.errors == [] and csp_violations(page) == []
