"""The workspace pages over HTTP: the dashboard's numbers equal the database, the concordance and its
bulk decisions, access (annotators never search)."""
from __future__ import annotations

import re

from tests.documents import add_document, plain_sentences
from tests.helpers import default_project, sql
from tests.web.helpers import annotator_client, api_decide, api_window, decide_window_and_leave

TEXT = ("Karel Novak met Jana in Brno. " + plain_sentences(0, 40) + " Later Karel Novak left Brno. "
        + plain_sentences(40, 40) + " Karel Novak and Jana were seen in Praha.")
ENTITIES = [("Karel Novak", "P"), ("Jana", "P"), ("Brno", "G"), ("Praha", "G")]


def _cells(html: str, table_id: str) -> list[list[str]]:
    body = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_dashboard_numbers_match_the_database(clean_app, reannotations):
    app = clean_app
    add_document(app, TEXT, ENTITIES)
    one = annotator_client(app, "one@example.org", window_size=60)
    two = annotator_client(app, "two@example.org", window_size=60)
    for client in (one, two):
        assert len(decide_window_and_leave(client, "PRIVATE", limit=1)) == 1
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    html = admin.get(f"/workspace/projects/{default_project(app)}/dashboard").get_data(as_text=True)
    assert 'id="chart-progress"' in html and "<svg" in html and "<script>" not in html
    logged = sql(app, "SELECT count(*) AS n FROM window_log WHERE decisions > 0 AND NOT forced")[0]["n"]
    assert logged == 2
    assert re.search(r'id="windows-done">\s*2<', html)
    people = {r[0]: r for r in _cells(html, "table-throughput")}
    assert people["one"][1:3] == ["1", "1"] and people["two"][1:3] == ["1", "1"]
    codes = re.findall(r'<tr data-category="([A-Z]+)"', html.split('id="table-category"')[1].split("</table>")[0])
    by_category = {code: r[1:] for code, r in zip(codes, _cells(html, "table-category"), strict=True)}
    expected = sql(app, "SELECT coalesce(ne.category, 'OTHER') AS c, count(*) AS n FROM annotation a "
                        "LEFT JOIN named_entity ne ON ne.document_id = a.document_id "
                        "AND ne.first_token = a.first_token AND ne.end_token = a.end_token "
                        "WHERE a.token_decision = 'PRIVATE' GROUP BY 1")
    assert {c: ["0", str(n)] for c, n in ((r["c"], r["n"]) for r in expected)} == by_category
    progress = _cells(html, "table-progress")
    assert progress[-1][3] == "2" and progress[-1][4] == "2"


def test_concordance_and_bulk_decision(clean_app, reannotations):
    app = clean_app
    doc = add_document(app, TEXT, ENTITIES)
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    project = default_project(app)
    html = admin.get(f"/workspace/projects/{project}/search", query_string={"q": "novak"}).get_data(as_text=True)
    rows = _cells(html, "kwic")
    assert len(rows) == 3 and all(r[3] == "Novak" for r in rows)
    values = re.findall(r'name="occurrence" value="([0-9:]+)"', html)
    assert len(values) == 3
    token = admin.get(f"/workspace/projects/{project}/search").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    response = admin.post(f"/workspace/projects/{project}/search/decide",
                          data={"csrf_token": csrf, "decision": "PRIVATE", "occurrence": values[:2], "q": "novak"})
    assert response.status_code == 302, token
    logged = sql(app, "SELECT action, decision::text AS d, detail FROM decision_log WHERE document_id = %s", (doc,))
    assert len(logged) == 2 and {r["action"] for r in logged} == {"search"}
    assert len({r["detail"]["bulk"] for r in logged}) == 1
    undo = re.search(r"undo=(\d+)", response.headers["Location"]).group(1)
    html = admin.get(response.headers["Location"]).get_data(as_text=True)
    assert html.count('data-decision="PRIVATE"') >= 2 and 'id="bulk-undo"' in html
    # one undo takes back both decisions (one action over the whole request)
    response = admin.post(f"/workspace/projects/{project}/search/undo",
                          data={"csrf_token": csrf, "action_id": undo, "q": "novak"})
    assert response.status_code == 302
    assert sql(app, "SELECT count(*) AS n FROM annotation WHERE document_id = %s AND token_decision IS NOT NULL",
               (doc,))[0]["n"] == 0
    html = admin.get(f"/workspace/projects/{project}/search", query_string={"q": "novak"}).get_data(as_text=True)
    assert 'data-decision="PRIVATE"' not in html
    # an annotator cannot undo the admin's action
    one = annotator_client(app, "one@example.org")
    assert one.post("/workspace/undo", data={"csrf_token": _csrf(one), "action_id": undo}).status_code == 302
    assert "No such action of yours" in one.get("/workspace/").get_data(as_text=True)


def test_search_guards_bad_patterns(clean_app):
    app = clean_app
    add_document(app, TEXT, ENTITIES)
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    url = f"/workspace/projects/{default_project(app)}/search"
    for pattern, message in [("(", "Invalid regular expression"), ("a*", "matches empty text"),
                             ("x" * 300, "too long"), (r"(a)\1", "Back references")]:
        response = admin.get(url, query_string={"q": pattern, "mode": "regex"})
        assert response.status_code == 200 and message in response.get_data(as_text=True), pattern
    html = admin.get(url, query_string={"q": r"Br[a-z]+", "mode": "regex"}).get_data(as_text=True)
    assert len(_cells(html, "kwic")) == 2


def test_annotators_cannot_search_or_see_the_dashboard(clean_app):
    app = clean_app
    add_document(app, TEXT, ENTITIES)
    one = annotator_client(app, "one@example.org")
    project = default_project(app)
    assert one.get(f"/workspace/projects/{project}/search", query_string={"q": "Karel"}).status_code == 403
    assert one.get(f"/workspace/projects/{project}/dashboard").status_code == 403
    response = one.post(f"/workspace/projects/{project}/search/decide", data={"decision": "PUBLIC"})
    assert response.status_code in (400, 403)


def test_a_chosen_project_keeps_the_windows_there(clean_app):
    from tests.helpers import join_project, new_project
    app = clean_app
    other = new_project(app, "Other")
    for n in range(3):
        add_document(app, TEXT, ENTITIES, name=f"default-{n}.txt")
        add_document(app, TEXT, ENTITIES, project_id=other, name=f"other-{n}.txt")
    one = annotator_client(app, "one@example.org", window_size=40)
    join_project(app, other, "one@example.org")
    html = one.get("/workspace/").get_data(as_text=True)
    assert html.count('class="list-group-item home-row') == 2 and "any document" not in html
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    assert one.post("/workspace/choose", data={"csrf_token": csrf, "project_id": other, "go": "1"}).status_code == 302
    for _ in range(6):
        assert api_window(one)[1]["window"]["project_id"] == other
        decide_window_and_leave(one, "PUBLIC", limit=1)
    html = one.get("/workspace/").get_data(as_text=True)
    assert "chosen" in html and 'id="history"' in html and "<td>public</td>" in html
    # undo from the history: the newest decision is taken back
    newest = re.search(r'name="action_id" value="(\d+)"', html).group(1)
    span = sql(app, "SELECT document_id, first_token, end_token FROM action ORDER BY id DESC LIMIT 1")[0]
    assert one.post("/workspace/undo", data={"csrf_token": csrf, "action_id": newest}).status_code == 302
    restored = sql(app, "SELECT token_decision FROM annotation WHERE document_id = %(document_id)s "
                        "AND first_token = %(first_token)s AND end_token = %(end_token)s", span)
    assert restored[0]["token_decision"] is None
    assert f'data-action="{newest}" class="text-muted"' in one.get("/workspace/").get_data(as_text=True)
    # a project the annotator is not in, a document of a project that does not allow choosing: refused
    third = new_project(app, "Third")
    assert one.post("/workspace/choose", data={"csrf_token": csrf, "project_id": third}).status_code == 403
    doc = sql(app, "SELECT id FROM document WHERE project_id = %s LIMIT 1", (other,))[0]["id"]
    assert one.post("/workspace/choose", data={"csrf_token": csrf, "project_id": other,
                                               "document_id": doc}).status_code == 403
    sql(app, "UPDATE project SET annotators_choose_document = true WHERE id = %s", (other,))
    # the current window has a decision, so choosing a document leaves it at once
    body = api_window(one)[1]
    pending = [a for a in body["annotations"] if a["decision"] == "SUSPICIOUS"]
    api_decide(one, body["window"]["document_id"], pending[0]["first_token"], pending[0]["end_token"], "PUBLIC")
    assert "other-0.txt" in one.get("/workspace/").get_data(as_text=True)
    assert one.post("/workspace/choose", data={"csrf_token": csrf, "project_id": other,
                                               "document_id": doc}).status_code == 302
    code, body = api_window(one)
    assert body["window"]["document_id"] == doc


def _csrf(client, path="/workspace/"):
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)


def test_double_annotation_disagreement_is_masked_then_adjudicated(clean_app, reannotations):
    from psan.runtime import db
    from psan.store.publish import release
    app = clean_app
    project = default_project(app)
    doc = add_document(app, TEXT, ENTITIES)
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    one = annotator_client(app, "one@example.org", window_size=60)
    two = annotator_client(app, "two@example.org", window_size=60)
    pending = decide_window_and_leave(one, "PUBLIC")
    windows = sql(app, "SELECT id, state, first_token, end_token FROM double_window")
    assert len(windows) == 1 and windows[0]["state"] == "open"
    double = windows[0]["id"]
    # the first annotator is never asked for the second version; the second is
    assert "second-waiting" not in one.get("/workspace/").get_data(as_text=True)
    assert "second-waiting" in two.get("/workspace/").get_data(as_text=True)
    response = two.post("/workspace/second/claim", data={"csrf_token": _csrf(two)})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/workspace/second/{double}")
    assert one.get(f"/workspace/second/{double}").status_code == 404  # not theirs
    page = two.get(f"/workspace/second/{double}").get_data(as_text=True)
    assert "Karel" in page and "PUBLIC" not in re.sub(r'value="PUBLIC"', "", page)  # no first version shown
    fields = dict.fromkeys(re.findall(r'name="(d-\d+-\d+)"', page))
    disputed = f"d-{pending[0]['first_token']}-{pending[0]['end_token']}"
    data = {"csrf_token": _csrf(two, f"/workspace/second/{double}"),
            **{name: "PRIVATE" if name == disputed else "PUBLIC" for name in fields}}
    # incomplete: refused, nothing stored
    assert "Decide every highlighted span" in two.post(f"/workspace/second/{double}", data={
        "csrf_token": data["csrf_token"]}, follow_redirects=True).get_data(as_text=True)
    assert two.post(f"/workspace/second/{double}", data=data).status_code == 302
    assert sql(app, "SELECT state FROM double_window")[0]["state"] == "disagreed"
    first, end = pending[0]["first_token"], pending[0]["end_token"]
    masked = sql(app, "SELECT token_decision::text AS d FROM annotation WHERE document_id = %s AND first_token = %s "
                      "AND end_token = %s", (doc, first, end))[0]["d"]
    assert masked == "PRIVATE"  # disagreed: masked until adjudicated
    agreed = pending[1]
    assert sql(app, "SELECT token_decision::text AS d FROM annotation WHERE document_id = %s AND first_token = %s "
                    "AND end_token = %s", (doc, agreed["first_token"], agreed["end_token"]))[0]["d"] == "PUBLIC"
    assert sql(app, "SELECT count(*) AS n FROM decision_log WHERE action = 'double-mask'")[0]["n"] == 1
    # the admin adjudicates: public after all
    admin = annotator_client(app, "admin@example.org", "ADMIN", member=False)
    listing = admin.get(f"/workspace/projects/{project}/adjudicate").get_data(as_text=True)
    assert f"/workspace/adjudicate/{double}" in listing
    page = admin.get(f"/workspace/adjudicate/{double}").get_data(as_text=True)
    assert page.count('data-differs="yes"') == 1
    csrf = _csrf(admin, f"/workspace/adjudicate/{double}")
    assert "Choose the final decision" in admin.post(f"/workspace/adjudicate/{double}", data={"csrf_token": csrf},
                                                     follow_redirects=True).get_data(as_text=True)
    response = admin.post(f"/workspace/adjudicate/{double}", data={"csrf_token": csrf, disputed: "PUBLIC"})
    assert response.status_code == 302
    assert sql(app, "SELECT state FROM double_window")[0]["state"] == "adjudicated"
    assert sql(app, "SELECT token_decision::text AS d FROM annotation WHERE document_id = %s AND first_token = %s "
                    "AND end_token = %s", (doc, first, end))[0]["d"] == "PUBLIC"
    with app.app_context(), db.transaction() as conn:
        report = release.project_report(conn, project)
    assert report["agreement"]["windows"] == 1
    person = report["agreement"]["by_category"]["PERSON"]
    assert person["spans_first"] == 0 and person["spans_second"] == 1 and person["f1"] == 0.0
    assert "Inter-annotator agreement" in release.report_html(report)
    dashboard = admin.get(f"/workspace/projects/{project}/dashboard").get_data(as_text=True)
    assert 'id="table-agreement"' in dashboard


def test_my_decisions_show_the_words_and_none_after_leaving_the_project(clean_app):
    """The history names the words decided, not token numbers, and only while the person is in the project."""
    add_document(clean_app, TEXT, ENTITIES)
    one = annotator_client(clean_app, "one@example.org", window_size=40)
    decided = decide_window_and_leave(one, "PUBLIC", limit=1)[0]
    cells = re.findall(r'<td class="history-words">(.*?)</td>', one.get("/workspace/").get_data(as_text=True))
    assert [re.sub(r"<[^>]+>", "", c) for c in cells] == ["Karel Novak"], (cells, decided)
    sql(clean_app, "DELETE FROM project_member")
    page = one.get("/workspace/").get_data(as_text=True)
    assert "Karel Novak" not in page
