"""Bidirectional and zero-width characters in names: stripped from names, refused in label names, and user
text is isolated in pages (it cannot reorder the text around it).
"""
from __future__ import annotations

from tests.documents import add_document
from tests.helpers import (
    csrf_token,
    default_project,
    meta_csrf,
    new_project,
    sql,
)
from tests.web.helpers import add_label, add_rule

# --- bidirectional and zero-width characters in names -------------------------------------------------------
RLO, ZWSP = "\u202e", "\u200b"


def test_controls_are_stripped_from_names(admin_client, clean_app, celery_worker):
    import io

    token = csrf_token(admin_client, "/users/new")
    assert admin_client.post("/users/new", data={"email": "i@example.org", "name": f"Eve{RLO}gnp.exe{ZWSP}",
                                                 "role": "USER", "window_size": 300, "active": "y",
                                                 "password": "Xk3-plover-tangent", "csrf_token": token}
                             ).status_code == 302
    assert sql(clean_app, "SELECT name FROM account WHERE email = 'i@example.org'")[0]["name"] == "Evegnp.exe"
    token = csrf_token(admin_client, "/projects/new")
    assert admin_client.post("/projects/new", data={"name": f"{RLO}Secret{ZWSP} files", "language": "en",
                                                   "public_threshold": 1, "private_threshold": -1,
                                                   "csrf_token": token}).status_code == 302
    assert sql(clean_app, "SELECT 1 FROM project WHERE name = 'Secret files'")
    only_controls = admin_client.post("/projects/new", data={"name": RLO + ZWSP, "language": "en",
                                                            "public_threshold": 1, "private_threshold": -1,
                                                            "csrf_token": token})
    assert only_controls.status_code == 200 and "The name is empty" in only_controls.get_data(as_text=True)
    token = csrf_token(admin_client, "/documents/upload")
    response = admin_client.post("/documents/upload", data={
        "project": default_project(clean_app), "language": "", "csrf_token": token,
        "files": (io.BytesIO(b"Hello world."), f"report{RLO}txt.exe{ZWSP}.txt")}, content_type="multipart/form-data")
    assert response.status_code in (200, 302)
    assert sql(clean_app, "SELECT name FROM document")[0]["name"] == "reporttxt.exe.txt"


def test_label_names_with_controls_are_refused(admin_client, clean_app):
    headers = {"X-CSRFToken": meta_csrf(admin_client)}
    for name in (f"evil{RLO}", f"zero{ZWSP}width", "bom\ufeff", "\u2066isolate"):
        response = admin_client.post(f"/labels/api/{default_project(clean_app)}", json={"name": name}, headers=headers)
        assert response.status_code == 400 and "control characters" in response.get_json()["error"], name
    assert not sql(clean_app, "SELECT 1 FROM label")


def test_user_text_is_isolated_in_pages(admin_client, clean_app):
    import re

    legacy = f"old{RLO}name"  # stored before names were cleaned
    pid = new_project(clean_app, legacy)
    sql(clean_app, "UPDATE account SET name = %s WHERE email = 'admin@example.org'", (legacy,))
    add_label(clean_app, pid, legacy)
    add_rule(clean_app, pid, legacy)
    add_document(clean_app, "Some text.", name=legacy, project_id=pid)
    assert f"<bdi>{legacy}</bdi>" in admin_client.get("/").get_data(as_text=True)  # navbar and welcome
    for path in ("/", "/users/", "/projects/", f"/labels/?project={pid}", f"/rules/?project={pid}",
                 f"/documents/?project={pid}"):
        page = admin_client.get(path).get_data(as_text=True)
        # inline user text is in <bdi>; a table cell holding only the name is a bidi paragraph of its own;
        # <option> (isolated by CSS) cannot hold markup and <title> is plain text
        rest = re.sub(r"<option[^>]*>.*?</option>|<title>.*?</title>", "", page, flags=re.S)
        isolated = rest.count(f"<bdi>{legacy}</bdi>") + len(re.findall(f"<td[^>]*>{legacy}</td>", rest))
        assert rest.count(legacy) == isolated, path
    css = admin_client.get("/static/psan.css").get_data(as_text=True)
    assert "unicode-bidi: isolate" in css
    js = admin_client.get("/static/annotate.js").get_data(as_text=True)
    assert "setIsolated(els.where" in js
