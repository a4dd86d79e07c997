"""Labels page, label key CSV and the annotator JSON API (which never reveals replacements)."""
from __future__ import annotations

import io
import re

from tests.helpers import account_id, csrf_token, default_project, new_project, sql
from tests.web.helpers import add_label, add_rule

XSS = "<img src=x onerror=alert(1)>"


def upload(client, project_id: int, content: bytes | str):
    data = {"csrf_token": csrf_token(client, "/"), "file": (io.BytesIO(
        content.encode() if isinstance(content, str) else content), "labels.csv")}
    return client.post(f"/labels/{project_id}/import", data=data, content_type="multipart/form-data")


def member(app, project_id: int, email: str = "annotator@example.org") -> None:
    sql(app, "INSERT INTO project_member (project_id, account_id) VALUES (%s, %s)",
        (project_id, account_id(app, email)))


def test_create_rename_replacement_and_usage_counts(admin_client, clean_app):
    pid = default_project(clean_app)
    token = csrf_token(admin_client, "/labels/")
    response = admin_client.post(f"/labels/{pid}/new", data={"name": " person ", "category": "PERSON",
                                                             "replacement": "Jan Novák", "csrf_token": token})
    assert response.status_code == 302
    label = sql(clean_app, "SELECT id, name, category, replacement FROM label")[0]
    assert label == {"id": label["id"], "name": "person", "category": "PERSON", "replacement": "Jan Novák"}
    add_rule(clean_app, pid, "Novák", label_id=label["id"])
    page = admin_client.get("/labels/").get_data(as_text=True)
    # the category as a word
    assert re.search(r"<td>person</td>\s*<td>person</td>\s*<td>Jan Novák</td>\s*<td class=\"text-end\">1</td>", page)
    # duplicate and invalid names are form errors, not 500s
    for name in ("person", "", "x" * 101, "tab\there"):
        response = admin_client.post(f"/labels/{pid}/new", data={"name": name, "category": "", "csrf_token": token})
        assert response.status_code == 200, name
    # a NUL is refused for every endpoint by psan.web.input_guard (bad input is a 400, never a 500)
    response = admin_client.post(f"/labels/{pid}/new", data={"name": "a\x00b", "category": "", "csrf_token": token})
    assert response.status_code == 400 and "NUL" in response.get_data(as_text=True)
    assert admin_client.post(f"/labels/{pid}/new", data={"name": "y", "category": "EVIL", "csrf_token": token}
                             ).status_code == 200
    add_label(clean_app, pid, "place")
    response = admin_client.post(f"/labels/{pid}/{label['id']}", data={"name": "place", "category": "",
                                                                      "replacement": "", "csrf_token": token})
    assert response.status_code == 200 and "already exists" in response.get_data(as_text=True)
    response = admin_client.post(f"/labels/{pid}/{label['id']}", data={"name": "human", "category": "PERSON",
                                                                      "replacement": "Eva Malá", "csrf_token": token})
    assert response.status_code == 302
    assert sql(clean_app, "SELECT name, replacement FROM label WHERE id = %s", (label["id"],)) == \
        [{"name": "human", "replacement": "Eva Malá"}]
    assert sql(clean_app, "SELECT count(*) AS n FROM label") == [{"n": 2}]


def test_delete_warns_and_sets_null(admin_client, clean_app, reannotations):
    pid = default_project(clean_app)
    label = add_label(clean_app, pid, "person")
    rule = add_rule(clean_app, pid, "Novák", label_id=label)
    page = admin_client.get(f"/labels/{pid}/{label}/delete").get_data(as_text=True)
    assert "1 rules and 0 annotations" in page and "ON DELETE SET NULL" in page
    assert admin_client.post(f"/labels/{pid}/{label}/delete").status_code == 400  # no CSRF token
    token = csrf_token(admin_client, "/labels/")
    assert admin_client.post(f"/labels/{pid}/{label}/delete", data={"csrf_token": token}).status_code == 302
    assert sql(clean_app, "SELECT id, label_id FROM rule") == [{"id": rule, "label_id": None}]
    assert reannotations == [pid]


def test_forged_label_ids_are_404(admin_client, clean_app):
    pid = default_project(clean_app)
    foreign = add_label(clean_app, new_project(clean_app, "Other"), "foreign")
    token = csrf_token(admin_client, "/labels/")
    for path in (f"/labels/{pid}/{foreign}", f"/labels/{pid}/{foreign}/delete", f"/labels/{pid}/999999999999999999999",
                 "/labels/424242/export.csv"):
        assert admin_client.get(path).status_code == 404, path
        assert admin_client.post(path, data={"name": "x", "csrf_token": token}).status_code in (404, 405), path
    assert sql(clean_app, "SELECT name FROM label") == [{"name": "foreign"}]
    assert admin_client.get("/labels/?project=424242").status_code == 404


def test_names_are_escaped_everywhere(admin_client, clean_app):
    pid = default_project(clean_app)
    label = add_label(clean_app, pid, XSS, replacement=XSS)
    add_rule(clean_app, pid, "x", label_id=label)
    for path in ("/labels/", f"/labels/{pid}/{label}", f"/labels/{pid}/{label}/delete", "/rules/"):
        page = admin_client.get(path).get_data(as_text=True)
        assert XSS not in page, path
        assert "&lt;img src=x onerror=alert(1)&gt;" in page, path
    response = admin_client.get(f"/labels/{pid}/export.csv")
    assert response.mimetype == "text/csv" and response.headers["Content-Disposition"].startswith("attachment;")


def test_key_export_import_round_trip_and_counts(admin_client, clean_app):
    pid = default_project(clean_app)
    add_label(clean_app, pid, "person", "PERSON", "=cmd|' /C calc'!A0")
    add_label(clean_app, pid, "city", "LOCATION", None)
    add_label(clean_app, pid, "Dvořák", None, "-Novák")
    exported = admin_client.get(f"/labels/{pid}/export.csv")
    text = exported.get_data(as_text=True)
    assert text.startswith("\ufeffname,category,replacement\r\n") and "'=cmd" in text and "'-Novák" in text
    target = new_project(clean_app, "Target")
    response = upload(admin_client, target, exported.data)
    assert response.status_code == 302
    assert "3 labels created, 0 updated" in admin_client.get(response.headers["Location"]).get_data(as_text=True)
    key = "SELECT name, category, replacement FROM label WHERE project_id = %s ORDER BY name"
    assert sql(clean_app, key, (target,)) == sql(clean_app, key, (pid,))
    response = upload(admin_client, target, "name,category,replacement\ncity,location,Praha\nperson,PERSON,\n")
    assert "0 labels created, 2 updated" in admin_client.get(response.headers["Location"]).get_data(as_text=True)
    assert sql(clean_app, key, (target,))[0] == {"name": "Dvořák", "category": None, "replacement": "-Novák"}
    assert sql(clean_app, key, (target,))[1:] == [{"name": "city", "category": "LOCATION", "replacement": "Praha"},
                                                  {"name": "person", "category": "PERSON", "replacement": None}]


def test_key_import_reports_every_bad_line(admin_client, clean_app):
    pid = default_project(clean_app)
    response = upload(admin_client, pid, "name,category,replacement\n"
                                         "good,PERSON,x\n"       # 2
                                         ",PERSON,x\n"           # 3 empty name
                                         "bad,ALIEN,x\n"         # 4 category
                                         "good,,y\n"             # 5 duplicate
                                         f"{'n' * 101},,\n"      # 6 too long
                                         "short,\n")             # 7 columns
    assert response.status_code == 200
    assert re.findall(r"<li>line (\d+): ", response.get_data(as_text=True)) == ["3", "4", "5", "6", "7"]
    assert sql(clean_app, "SELECT count(*) AS n FROM label") == [{"n": 0}]
    for content in (b"", b"name;category;replacement\n", b"name,category,replacement\nX\xff,,\n", b"\x00\x01"):
        assert upload(admin_client, pid, content).status_code == 200, content


def test_annotator_never_sees_replacements(user_client, clean_app):
    pid = default_project(clean_app)
    member(clean_app, pid)
    label = add_label(clean_app, pid, "person", "PERSON", "SECRET-REPLACEMENT")
    page = user_client.get("/labels/")
    assert page.status_code == 200 and "person" in page.get_data(as_text=True)
    assert "SECRET-REPLACEMENT" not in page.get_data(as_text=True)
    response = user_client.get(f"/labels/api/{pid}")
    assert response.get_json() == {"labels": [{"id": label, "name": "person", "category": "PERSON"}]}
    assert "SECRET" not in response.get_data(as_text=True)
    for path in (f"/labels/{pid}/export.csv", f"/labels/{pid}/{label}", f"/labels/{pid}/import"):
        response = user_client.get(path)
        assert response.status_code == 403 and "SECRET" not in response.get_data(as_text=True), path
    # an annotator's create form has no replacement field, and a forged one is ignored
    token = csrf_token(user_client, "/labels/")
    assert user_client.post(f"/labels/{pid}/new", data={"name": "city", "category": "LOCATION",
                                                       "replacement": "forged", "csrf_token": token}).status_code == 302
    assert sql(clean_app, "SELECT replacement FROM label WHERE name = 'city'") == [{"replacement": None}]


def test_annotator_api_is_limited_to_member_projects(user_client, clean_app):
    pid = default_project(clean_app)
    other = new_project(clean_app, "Other")
    member(clean_app, other)
    add_label(clean_app, pid, "hidden")
    token = csrf_token(user_client, "/")
    headers = {"X-CSRFToken": token}
    assert user_client.get(f"/labels/api/{pid}").status_code == 404
    assert user_client.post(f"/labels/api/{pid}", json={"name": "x"}, headers=headers).status_code == 404
    assert user_client.get(f"/labels/?project={pid}").status_code == 404
    assert user_client.get("/labels/").status_code == 200          # first member project preselected
    created = user_client.post(f"/labels/api/{other}", json={"name": XSS, "category": "person"}, headers=headers)
    assert created.status_code == 201
    assert created.get_json() == {"id": created.get_json()["id"], "name": XSS, "category": "PERSON"}
    duplicate = user_client.post(f"/labels/api/{other}", json={"name": XSS}, headers=headers)
    assert duplicate.status_code == 409 and duplicate.get_json()["label"]["id"] == created.get_json()["id"]
    for body in ({"name": ""}, {"name": 5}, {"name": "x", "category": "ALIEN"}, ["x"], {"name": "a\x00"}):
        response = user_client.post(f"/labels/api/{other}", json=body, headers=headers)
        assert response.status_code == 400 and "error" in response.get_json(), body
    assert user_client.post(f"/labels/api/{other}", data="not json", headers=headers).status_code == 400
    assert user_client.post(f"/labels/api/{other}", json={"name": "nocsrf"}).status_code == 400
    page = user_client.get(f"/labels/?project={other}").get_data(as_text=True)
    assert XSS not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert sql(clean_app, "SELECT name FROM label WHERE project_id = %s", (other,)) == [{"name": XSS}]


def test_admin_api_reaches_every_project(admin_client, clean_app):
    other = new_project(clean_app, "Other")
    add_label(clean_app, other, "person", replacement="SECRET")
    response = admin_client.get(f"/labels/api/{other}")
    assert response.status_code == 200 and "SECRET" not in response.get_data(as_text=True)
    assert admin_client.get("/labels/api/424242").get_json() == {"error": "project not found"}
    huge = admin_client.get("/labels/api/99999999999999999999")  # outside bigint: refused by the URL converter
    assert huge.status_code == 404 and "error" in huge.get_json()
