"""An invitation link works once and expires.
"""
from __future__ import annotations

import time

from tests.helpers import Auth, account_id, csrf_token, make_account


def _invitation_link(app) -> str:
    from psan.auth.reset_links import reset_link
    from psan.identity import accounts
    make_account(app, "invited@example.org", password=None)
    with app.test_request_context():
        account = accounts.get(account_id(app, "invited@example.org"))
        return reset_link(account).split("localhost", 1)[-1]


def test_an_invitation_link_works_once(clean_app):
    link = _invitation_link(clean_app)
    first = clean_app.test_client()
    form = {"password": "invited Pass-phrase 1", "confirm": "invited Pass-phrase 1",
            "csrf_token": csrf_token(first, link)}
    assert first.post(link, data=form).status_code == 302
    again = clean_app.test_client()
    response = again.get(link)
    assert response.status_code == 404 and "already been used" in response.get_data(as_text=True)
    # a form opened before the first use cannot set a second password either
    assert first.post(link, data={**form, "password": "other Pass-phrase 2", "confirm": "other Pass-phrase 2"}
                      ).status_code == 404
    assert Auth(clean_app.test_client()).login("invited@example.org", "invited Pass-phrase 1").status_code == 302


def test_an_invitation_link_expires(clean_app):
    link = _invitation_link(clean_app)
    clean_app.config["PASSWORD_RESET_MAX_AGE"] = 1
    try:
        time.sleep(2.2)
        response = clean_app.test_client().get(link)
    finally:
        clean_app.config["PASSWORD_RESET_MAX_AGE"] = 3600
    assert response.status_code == 404 and "expired" in response.get_data(as_text=True)
