"""What a new admin or annotator is shown: the admin's next steps on the home page, the link after creating an
annotator, whom an annotator in no project should ask, the "ask for labels" project setting, the favicon.
"""
from __future__ import annotations

import re

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from tests.documents import add_document
from tests.helpers import PASSWORD, Auth, csrf_token, default_project, join_project, make_account, sql
from tests.services import app_config

PO = "psan/translations/cs/LC_MESSAGES/messages.po"


@pytest.fixture(scope="module")
def _czech_app(database_url, redis_url, tmp_path_factory):
    from psan import create_app
    folder = tmp_path_factory.mktemp("translations")
    (folder / "cs" / "LC_MESSAGES").mkdir(parents=True)
    with open(PO, "rb") as src, open(folder / "cs" / "LC_MESSAGES" / "messages.mo", "wb") as dst:
        write_mo(dst, read_po(src))
    return create_app(app_config(database_url, redis_url, BABEL_TRANSLATION_DIRECTORIES=str(folder)))


@pytest.fixture()
def czech_app(_czech_app):
    """The app with the Czech catalogue compiled from the .po now (the committed .mo is rebuilt at release).

    Flask-Babel caches loaded catalogues in its (process-wide) domain, whichever app loaded them:
    the cache is emptied before, so this app loads its own, and after, so no other app sees them.
    """
    from psan.web.i18n import babel
    babel.domain_instance.cache.clear()
    yield _czech_app
    babel.domain_instance.cache.clear()


def _czech_client(app, email: str):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    assert Auth(client).login(email).status_code == 302
    return client


# --- favicon ------------------------------------------------------------------------------------------------
def test_favicon_is_served_to_everyone(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.data.startswith(b"<svg") and len(response.data) < 1024
    html = client.get("/auth/login").get_data(as_text=True)
    assert '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">' in html
    assert client.get("/static/favicon.svg").status_code == 200


# --- ask for labels -----------------------------------------------------------------------------------------
def test_ask_labels_project_setting(admin_client, clean_app):
    project = default_project(clean_app)
    page = admin_client.get(f"/projects/{project}").get_data(as_text=True)
    assert 'name="ask_labels"' in page and "Ask for labels" in page
    token = csrf_token(admin_client, f"/projects/{project}")
    base = {"name": "Default", "language": "en", "pipeline": "", "public_threshold": "1", "private_threshold": "-1",
            "csrf_token": token}
    assert admin_client.post(f"/projects/{project}", data={**base, "ask_labels": "y"}).status_code == 302
    assert sql(clean_app, "SELECT ask_labels FROM project WHERE id = %s", (project,))[0]["ask_labels"] is True
    page = admin_client.get(f"/projects/{project}").get_data(as_text=True)
    assert re.search(r'<input[^>]*checked[^>]*name="ask_labels"|<input[^>]*name="ask_labels"[^>]*checked', page)
    add_document(clean_app, "Jan Novák lives in Praha.", [("Jan Novák", "PERSON")])
    data = admin_client.get("/annotate/api/window").get_json()
    assert data["project"]["ask_labels"] is True
    token = csrf_token(admin_client, f"/projects/{project}")
    assert admin_client.post(f"/projects/{project}", data={**base, "csrf_token": token}).status_code == 302
    assert sql(clean_app, "SELECT ask_labels FROM project WHERE id = %s", (project,))[0]["ask_labels"] is False


def test_new_projects_do_not_ask_for_labels(admin_client, clean_app):
    token = csrf_token(admin_client, "/projects/new")
    assert admin_client.post("/projects/new", data={"name": "Quiet", "language": "en", "pipeline": "",
                                                    "public_threshold": "1", "private_threshold": "-1",
                                                    "csrf_token": token}).status_code == 302
    assert sql(clean_app, "SELECT ask_labels FROM project WHERE name = 'Quiet'")[0]["ask_labels"] is False


# --- an annotator in no project -----------------------------------------------------------------------------
def test_annotator_in_no_project_is_told_whom_to_ask(clean_app):
    make_account(clean_app, "boss@example.org", "ADMIN", name="Boss")
    make_account(clean_app, "lonely@example.org")
    client = clean_app.test_client()
    Auth(client).login("lonely@example.org")
    data = client.get("/annotate/api/window").get_json()
    assert data["window"] is None
    assert "not in any project" in data["message"] and "Boss <boss@example.org>" in data["message"]
    home = client.get("/").get_data(as_text=True)
    assert 'id="no-project"' in home and "Boss &lt;boss@example.org&gt;" in home
    join_project(clean_app, default_project(clean_app), "lonely@example.org")
    data = client.get("/annotate/api/window").get_json()
    assert data["message"] == "Nothing is left to annotate right now."
    home = client.get("/").get_data(as_text=True)
    assert 'id="no-project"' not in home and 'href="/annotate/"' in home


def test_annotator_in_no_project_in_czech(clean_app, czech_app):
    make_account(clean_app, "boss@example.org", "ADMIN", name="Boss")
    make_account(clean_app, "lonely@example.org")
    client = _czech_client(czech_app, "lonely@example.org")
    message = client.get("/annotate/api/window").get_json()["message"]
    assert message.startswith("Zatím nejste v žádném projektu") and "boss@example.org" in message


def test_created_annotator_flash_links_to_projects(admin_client):
    token = csrf_token(admin_client, "/users/new")
    page = admin_client.post("/users/new", data={"email": "new@example.org", "name": "<i>New</i>", "role": "USER",
                                                 "window_size": 250, "active": "y", "password": PASSWORD,
                                                 "csrf_token": token}, follow_redirects=True).get_data(as_text=True)
    assert "new@example.org can annotate only after you add them to a project" in page
    assert '<a class="alert-link" href="/projects/">Open the projects</a>' in page
    token = csrf_token(admin_client, "/users/new")
    page = admin_client.post("/users/new", data={"email": "admin2@example.org", "name": "A", "role": "ADMIN",
                                                 "window_size": 250, "active": "y", "password": PASSWORD,
                                                 "csrf_token": token}, follow_redirects=True).get_data(as_text=True)
    assert "admin2@example.org can annotate only after" not in page  # admins annotate every project


# --- next steps on the admin's home page --------------------------------------------------------------------
def _steps(html: str) -> list[str]:
    return re.findall(r'data-done="(yes|no)"', html)


def test_home_page_shows_next_steps(admin_client, clean_app):
    html = admin_client.get("/").get_data(as_text=True)
    assert "Next steps" in html
    assert _steps(html) == ["no"] * 5
    for link in ('href="/projects/new"', 'href="/documents/upload"', 'href="/users/new"', 'href="/annotate/"'):
        assert link in html
    sql(clean_app, "INSERT INTO project (name) VALUES ('Court files')")
    make_account(clean_app, "ann@example.org")
    add_document(clean_app, "Jan Novák lives in Praha.", [("Jan Novák", "PERSON")])
    assert _steps(admin_client.get("/").get_data(as_text=True)) == ["yes", "yes", "yes", "no", "no"]
    join_project(clean_app, default_project(clean_app), "ann@example.org")
    assert _steps(admin_client.get("/").get_data(as_text=True)) == ["yes", "yes", "yes", "yes", "no"]
