"""What a new team hit in its first afternoon, each scenario as they wrote it, in a real browser.

The workspace: a project chosen in "My work" takes effect at once; after ``e`` every mention of the
labelled entity has the label's colour; one figure, one count on every page; codes read as words (in
Czech too); ``s`` and ``a`` make no rule; and the small things (a forgot-password page without e-mail,
the label-import help, a save without a pipeline change, the upload's progress, the projects page
naming the command that installs a missing NER model).
"""
from __future__ import annotations

import io
import json
import re
import zipfile

from psan.tool.models.fetch import install_hint
from tests.browser.helpers import ADMIN, ANNOTATOR, ARTIFACTS, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, group_entities, plain_sentences, token_index
from tests.helpers import default_project, join_project, make_account, new_project, set_window_size, sql
from tests.web.helpers import annotator_client, decide_window_and_leave

skip_without_browser()

TEXT = "Karel Novak met Jana in Brno. " + plain_sentences(0, 20) + " Later Karel Novak left Brno."
ENTITIES = [("Karel Novak", "P"), ("Jana", "P"), ("Brno", "G")]


def _window(app, email: str = ANNOTATOR) -> dict | None:
    rows = sql(app, "SELECT d.project_id, w.document_id FROM annotation_window w JOIN document d "
                    "ON d.id = w.document_id JOIN account a ON a.id = w.account_id WHERE a.email = %s", (email,))
    return rows[0] if rows else None


def _home_row(page, project: int) -> None:
    """Move to the project's row of "My work" with j and choose it with Enter (opens the annotation window)."""
    rows = page.locator(".home-row").evaluate_all("rs => rs.map(r => r.getAttribute('data-project'))")
    for _ in range(rows.index(str(project)) + 1):
        page.keyboard.press("j")
    page.keyboard.press("Enter")
    page.wait_for_url("**/annotate/")
    page.wait_for_selector(".tok")


def test_6_choosing_another_project_in_my_work_takes_effect(clean_app, page):
    app = clean_app
    english = default_project(app)
    czech = new_project(app, "Czech court files")
    for n in range(3):
        add_document(app, TEXT, ENTITIES, name=f"en-{n}.txt")
        add_document(app, TEXT, ENTITIES, project_id=czech, name=f"cs-{n}.txt", language="cs")
    make_account(app, ANNOTATOR, "USER")
    join_project(app, english, ANNOTATOR)
    join_project(app, czech, ANNOTATOR)
    set_window_size(app, ANNOTATOR, 40)
    login(page)
    page.goto("/workspace/")
    _home_row(page, english)  # an English window, nothing decided in it yet
    assert _window(app)["project_id"] == english
    page.goto("/workspace/")
    _home_row(page, czech)  # the team's scenario: choose the other project
    assert _window(app)["project_id"] == czech, "the choice did not take effect"
    banners = [t.strip() for t in page.locator(".alert").all_inner_texts() if t.strip()]
    assert not any("current window" in b for b in banners), banners  # no contradicting second banner
    page.keyboard.press("n")
    page.keyboard.press("p")
    wait_js(page, "document.querySelector('.sel .dec-suspicious') === null")
    with page.expect_response(lambda r: r.url.endswith("/annotate/api/next")) as answer:
        page.keyboard.press("w")
    assert answer.value.status == 200
    assert _window(app)["project_id"] == czech
    assert page.errors == [] and csp_violations(page) == []


def test_7_the_second_annotation_form_shows_the_words_keeps_the_choices_and_stays_offered(clean_app, page):
    app = clean_app
    project = default_project(app)
    other = new_project(app, "Other files")
    for n in range(3):
        add_document(app, TEXT, ENTITIES, name=f"doc-{n}.txt")
    add_document(app, TEXT, ENTITIES, project_id=other, name="other.txt")
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    first = annotator_client(app, "one@example.org", window_size=60)
    for _ in range(2):
        decide_window_and_leave(first, "PRIVATE")
    make_account(app, ANNOTATOR, "USER")
    join_project(app, project, ANNOTATOR)
    join_project(app, other, ANNOTATOR)
    login(page)
    page.goto("/workspace/")
    offered = page.locator("#second-waiting").inner_text()
    # choosing another project for one's own windows does not withdraw the offer
    _home_row(page, other)
    page.goto("/workspace/")
    assert page.locator("#second-waiting").inner_text() == offered
    page.click("#claim-second")
    page.wait_for_selector("#second-spans")
    # the page's script focuses the first row once it has run; a key pressed before that would be lost
    wait_js(page, "document.activeElement && document.activeElement.matches('.span-row[data-span=\"0\"]')")
    texts = page.locator("#second-spans .span-text").all_inner_texts()
    assert "Karel Novak" in texts and "Brno" in texts, texts  # each row says which words it is about
    rows = page.locator(".span-row").count()
    page.keyboard.press("p")  # the very first key press counts: the form starts on its first row
    assert page.locator('.span-row[data-span="0"] input[value="PUBLIC"]').is_checked()
    for _ in range(rows - 2):  # every row but the last decided; the last one is left without a choice
        page.keyboard.press("j")
        page.keyboard.press("s")
    page.locator('.span-row:last-child input').evaluate_all("rs => rs.forEach(r => { r.checked = false; })")
    page.click("#save-second")
    page.wait_for_selector(".alert-danger")
    # the refused save kept every choice made
    assert page.locator('.span-row[data-span="0"] input[value="PUBLIC"]').is_checked()
    assert page.locator('.span-row[data-span="1"] input[value="PRIVATE"]').is_checked()
    assert page.errors == [] and csp_violations(page) == []


def test_8_after_e_every_mention_of_the_entity_has_the_label_colour(clean_app, page):
    app = clean_app
    make_account(app, ANNOTATOR, "USER")
    join_project(app, default_project(app), ANNOTATOR)
    set_window_size(app, ANNOTATOR, 300)
    text = ("Jonathan Harper signed the lease. " + plain_sentences(0, 2) + " Harper paid late. "
            + plain_sentences(2, 2) + " Mr. Harper moved out.")
    doc = add_document(app, text, [("Jonathan Harper", "PERSON"), ("Harper", "PERSON")])
    group_entities(app, doc)
    later = [token_index(app, doc, "Harper", 1), token_index(app, doc, "Harper", 2)]
    login(page)
    page.goto("/annotate/")
    page.wait_for_selector('.tok[data-i="0"].sel')
    page.keyboard.press("x")  # the whole entity private: every mention, no label yet
    for i in later:
        wait_js(page, f"document.querySelector('.tok[data-i=\"{i}\"] .dec-private-nolabel') !== null")
    page.keyboard.press("e")
    page.wait_for_selector("#ann-label-dialog:not(.d-none)")
    page.keyboard.type("Tenant")
    page.keyboard.press("Enter")
    wait_js(page, "document.querySelector('.tok[data-i=\"0\"] .dec-private-label') !== null")
    for i in later:  # "Harper" and "Mr. Harper": the label's colour, as the side panel and the download say
        wait_js(page, f"document.querySelector('.tok[data-i=\"{i}\"] .dec-private-label') !== null")
        assert page.locator(f'.tok[data-i="{i}"] .dec-private-nolabel').count() == 0
    page.screenshot(path=str(ARTIFACTS / "first-afternoon-8-labelled-mentions.png"), full_page=True)
    assert page.errors == [] and csp_violations(page) == []


def _admin_page(app, page):
    make_account(app, ADMIN, "ADMIN")
    login(page, ADMIN)


def test_9_every_page_gives_the_same_undecided_count_and_windows_left(clean_app, page):
    app = clean_app
    project = default_project(app)
    text = "Karel Novak met Jana in Brno. " + plain_sentences(0, 40) + " Later Eva left Praha."
    doc = add_document(app, text, [("Karel Novak", "P"), ("Jana", "P"), ("Brno", "G"), ("Eva", "P"),
                                   ("Praha", "G"), ("Novak", "P")])  # "Novak" undecided inside "Karel Novak"
    novak = token_index(app, doc, "Karel")
    sql(app, "UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = %s AND first_token = %s "
             "AND end_token = %s", (doc, novak, novak + 2))  # the full name private, its surname left undecided
    sql(app, "UPDATE document SET status = 'PRE_ANNOTATED' WHERE id = %s", (doc,))
    expected = sql(app, "SELECT count(*) AS n FROM annotation a JOIN project p ON p.id = %s WHERE a.document_id = %s "
                        "AND a.token_decision IS NULL AND a.rule_level > p.private_threshold "
                        "AND a.rule_level < p.public_threshold", (project, doc))[0]["n"]
    assert expected >= 2
    make_account(app, ANNOTATOR, "USER")
    join_project(app, project, ANNOTATOR)
    set_window_size(app, ANNOTATOR, 20)  # the annotator's own window is smaller than the site default
    _admin_page(app, page)
    page.goto(f"/documents/project/{project}/release")
    total = page.locator("table").first.inner_text()
    assert re.search(rf"Undecided spans\s+{expected}\b", total), total
    assert re.search(rf"undecided: {expected}\b", page.content()), "by how decided disagrees"
    page.goto(f"/documents/?project={project}")
    assert re.search(rf"{expected} undecided spans masked", page.content())
    with page.expect_download() as info:
        page.click(f'a[href="/documents/project/{project}/download/tag"]')
    masked = json.loads(zipfile.ZipFile(io.BytesIO(open(info.value.path(), "rb").read())).read("MASKED.json"))
    assert masked["total"] == expected
    page.goto(f"/workspace/projects/{project}/dashboard")
    assert page.locator("#undecided-total").inner_text().strip() == str(expected)
    left = page.locator("#windows-left").inner_text().split()[0]
    forecast = page.locator("#forecast").inner_text()
    assert "0.0 h" not in forecast
    annotator = page.new_session()
    login(annotator)
    annotator.goto("/workspace/")
    mine = annotator.locator(f'.home-row[data-project="{project}"] .left').inner_text()
    assert re.search(rf"about {left} windows left", mine), (mine, left)
    assert page.errors == [] and annotator.errors == []


def test_10_11_codes_read_as_words_and_s_and_a_make_no_rule(clean_app, page):
    app = clean_app
    make_account(app, ANNOTATOR, "USER")
    join_project(app, default_project(app), ANNOTATOR)
    set_window_size(app, ANNOTATOR, 300)
    text = "The Britons met in Leeds. " + plain_sentences(0, 2) + " Sarah Connor paid 300 pounds at the Ritz."
    doc = add_document(app, text, [("Britons", "NORP"), ("Leeds", "GPE"), ("Sarah Connor", "TITLED_NAME"),
                                   ("300", "CARDINAL"), ("Ritz", "FAC")])
    login(page)
    page.goto("/annotate/")
    page.wait_for_selector('.tok.sel')
    britons = token_index(app, doc, "Britons")
    page.click(f'.tok[data-i="{britons}"]')
    wait_js(page, "document.querySelector('#ann-detail table') !== null")
    detail = page.locator("#ann-detail").inner_text()
    for code in ("NORP", "GPE", "FAC", "CARDINAL", "TITLED_NAME", "C (0)", "S (-1)", "P (1)"):
        assert code not in detail, (code, detail)
    assert "nationality, religious or political group" in detail
    page.keyboard.press("s")  # this place only
    wait_js(page, f"document.querySelector('.tok[data-i=\"{britons}\"] .dec-private-nolabel, "
                  f".tok[data-i=\"{britons}\"] .dec-private-label') !== null")
    if page.locator("#ann-label-dialog:not(.d-none)").count():
        page.keyboard.press("Escape")
    page.keyboard.press("a")  # accept the suggestions of the rest
    wait_js(page, "document.getElementById('ann-history').textContent.includes('suggestions accepted')")
    history = page.locator("#ann-history").inner_text()
    assert "rule(s)" not in history, history
    assert not re.search(r"\b(token|accept|word_type)\b", history), history
    page.goto("/workspace/")
    words = page.locator("#history .history-words").all_inner_texts()
    assert "Britons" in words, words  # the words, not token numbers
    assert not any(re.fullmatch(r"\d+–\d+", w) for w in words), words
    # the same in Czech
    page.goto("/annotate/")
    page.wait_for_selector('.tok.sel')
    page.click('form.language-switcher button[lang="cs"]')
    page.wait_for_selector('html[lang="cs"]', state="attached")
    page.wait_for_selector('.tok.sel')
    page.click(f'.tok[data-i="{britons}"]')
    wait_js(page, "document.querySelector('#ann-detail table') !== null")
    detail = page.locator("#ann-detail").inner_text()
    assert "NORP" not in detail and "národnost" in detail, detail
    assert page.errors == [] and csp_violations(page) == []


def test_12_the_small_things(clean_app, page, monkeypatch):
    app = clean_app
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    # the forgot-password page of an instance without e-mail promises no link
    page.goto("/auth/forgot")
    assert "sends no e-mail" in page.inner_text("main") and page.locator('input[name="email"]').count() == 0
    _admin_page(app, page)
    # a Czech project without a model says exactly what to run
    page.goto("/projects/new")
    page.fill('input[name="name"]', "Slovak files")
    page.select_option('select[name="language"]', "sk")
    page.click('main form [type="submit"]')
    page.wait_for_url("**/projects/")
    pid = sql(app, "SELECT id FROM project WHERE name = 'Slovak files'")[0]["id"]
    page.goto(f"/projects/{pid}")
    assert page.locator("#no-ner-command").inner_text() == install_hint("sk")  # one that works as printed
    assert install_hint("sk").startswith("make models")
    # saving without changing the pipeline does not talk about a changed pipeline
    page.click('main form [type="submit"]')
    page.wait_for_url("**/projects/")
    assert "Project saved." in page.inner_text("main") and "changed pipeline" not in page.inner_text("main")
    # the label-import help lists every category the label form offers
    page.goto(f"/labels/{pid}/import")
    help_text = page.inner_text("main")
    page.goto(f"/labels/?project={pid}")
    offered = [o for o in page.locator('select[name="category"] option').evaluate_all(
        "os => os.map(o => o.value)") if o]
    assert offered and all(c in help_text for c in offered), (offered, help_text)
    # an upload says it is working while the request runs
    page.goto(f"/documents/upload?project={pid}")
    page.fill("textarea[name=text]", "Jan Novák bydlí v Brně. " * 50)
    # the server's answer is replaced by "204 No Content", which leaves the page where it is, so what the page
    # showed while the request ran can be read afterwards
    page.route("**/documents/upload**", lambda route: route.fulfill(status=204) if route.request.method == "POST"
               else route.continue_())
    page.click('main form [type="submit"]')
    page.wait_for_selector("#upload-progress:not(.d-none)", timeout=5000)
    assert "Uploading" in page.inner_text("#upload-progress")
    assert page.locator('main form [type="submit"][aria-disabled="true"]').count() == 1
    assert page.errors == [] and csp_violations(page) == []
