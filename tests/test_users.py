"""Admin user management and the last-admin rule."""
import re

from psan.identity import accounts
from psan.runtime import db
from tests.helpers import Auth, csrf_token, make_account


def _form(client, path):
    return csrf_token(client, path)


def test_admin_creates_user_with_password(admin_client, clean_app):
    token = _form(admin_client, "/users/new")
    response = admin_client.post("/users/new", data={"email": "New@Example.org", "name": "<b>New</b>", "role": "USER",
                                                     "window_size": 250, "active": "y",
                                                     "password": "initial password", "csrf_token": token})
    assert response.status_code == 302
    page = admin_client.get("/users/").get_data(as_text=True)
    assert "&lt;b&gt;New&lt;/b&gt;" in page and "<b>New</b>" not in page
    assert Auth(clean_app.test_client()).login("new@example.org", "initial password").status_code == 302


def test_admin_creates_user_with_invitation_link_when_mail_is_off(admin_client, clean_app):
    token = _form(admin_client, "/users/new")
    response = admin_client.post("/users/new", data={"email": "inv@example.org", "name": "Inv", "role": "USER",
                                                     "window_size": 250, "active": "y", "csrf_token": token},
                                 follow_redirects=True)
    page = response.get_data(as_text=True)
    link = re.search(r"http://localhost(/auth/reset/[A-Za-z0-9._-]+)", page).group(1)
    client = clean_app.test_client()
    token = csrf_token(client, link)
    assert client.post(link, data={"password": "invited password", "confirm": "invited password",
                                   "csrf_token": token}).status_code == 302
    assert Auth(client).login("inv@example.org", "invited password").status_code == 302


def test_duplicate_email_is_a_form_error(admin_client):
    token = _form(admin_client, "/users/new")
    response = admin_client.post("/users/new", data={"email": "admin@example.org", "name": "Dup", "role": "USER",
                                                     "window_size": 100, "password": "initial password",
                                                     "csrf_token": token})
    assert response.status_code == 200 and b"already exists" in response.data


def test_forged_role_is_rejected(admin_client):
    token = _form(admin_client, "/users/new")
    response = admin_client.post("/users/new", data={"email": "f@example.org", "name": "F", "role": "ROOT",
                                                     "window_size": 100, "password": "initial password",
                                                     "csrf_token": token})
    assert response.status_code == 200 and b"Not a valid choice" in response.data


def test_edit_role_and_window(admin_client, clean_app):
    user = make_account(clean_app, "ann@example.org")
    token = _form(admin_client, f"/users/{user.id}")
    response = admin_client.post(f"/users/{user.id}", data={"name": "Ann", "role": "USER", "window_size": 777,
                                                            "active": "y", "csrf_token": token})
    assert response.status_code == 302
    with clean_app.app_context(), db.transaction() as conn:
        assert accounts.get_by_email("ann@example.org", conn).window_size == 777


def test_unknown_account_is_404(admin_client):
    assert admin_client.get("/users/999999").status_code == 404


def _admin_id(app, email="admin@example.org"):
    with app.app_context(), db.transaction() as conn:
        return accounts.get_by_email(email, conn).id


def test_last_admin_cannot_be_demoted_disabled_or_deleted(admin_client, clean_app):
    admin_id = _admin_id(clean_app)
    token = _form(admin_client, f"/users/{admin_id}")
    for data in ({"role": "USER", "active": "y"}, {"role": "ADMIN"}):
        response = admin_client.post(f"/users/{admin_id}", data={"name": "A", "window_size": 100,
                                                                 "csrf_token": token, **data}, follow_redirects=True)
        assert b"last active admin" in response.data
    response = admin_client.post(f"/users/{admin_id}/delete", data={"csrf_token": token}, follow_redirects=True)
    assert b"last active admin" in response.data
    with clean_app.app_context(), db.transaction() as conn:
        admin = accounts.get(admin_id, conn)
    assert admin.is_admin and admin.active


def test_an_admin_can_go_once_another_exists(admin_client, clean_app):
    make_account(clean_app, "second@example.org", "ADMIN")
    admin_id = _admin_id(clean_app)
    token = _form(admin_client, "/users/")
    response = admin_client.post(f"/users/{admin_id}/delete", data={"csrf_token": token})
    assert response.status_code == 302 and response.headers["Location"].endswith("/auth/login")
    with clean_app.app_context(), db.transaction() as conn:
        assert accounts.get(admin_id, conn) is None
