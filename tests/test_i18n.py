"""User-interface languages: locale selection, the navbar switcher and the Czech catalogue."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tests.helpers import csrf_token

TRANSLATIONS = Path(__file__).resolve().parent.parent / "psan" / "translations"
PO = TRANSLATIONS / "cs" / "LC_MESSAGES" / "messages.po"
MO = TRANSLATIONS / "cs" / "LC_MESSAGES" / "messages.mo"


def _html_lang(html: str) -> str:
    match = re.search(r'<html lang="([^"]+)"', html)
    assert match, "no <html lang>"
    return match.group(1)


def test_english_by_default(client):
    html = client.get("/auth/login").get_data(as_text=True)
    assert _html_lang(html) == "en"
    assert "Log in" in html and "Forgot your password?" in html


def test_accept_language_cs_gives_czech_login_page(client):
    html = client.get("/auth/login", headers={"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert _html_lang(html) == "cs"
    assert "Přihlásit se" in html
    assert "Zapomněli jste heslo?" in html
    assert "Heslo" in html  # WTForms label (lazy_gettext)


def test_accept_language_best_match_and_unknown_fall_back(client):
    html = client.get("/auth/login", headers={"Accept-Language": "de, en;q=0.8, cs;q=0.5"}).get_data(as_text=True)
    assert _html_lang(html) == "en"
    html = client.get("/auth/login", headers={"Accept-Language": "de, fr"}).get_data(as_text=True)
    assert _html_lang(html) == "en"


def test_czech_flash_and_form_errors(client):
    token = csrf_token(client)
    response = client.post("/auth/login", data={"email": "nobody@example.org", "password": "x" * 12,
                                                "csrf_token": token},
                           headers={"Accept-Language": "cs"})
    html = response.get_data(as_text=True)
    assert "Neplatný e-mail nebo heslo." in html
    assert "Invalid e-mail or password." not in html


def test_switcher_sets_language_for_the_session(client):
    token = csrf_token(client)
    response = client.post("/lang/cs", data={"csrf_token": token, "next": "/auth/login?x=1"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/auth/login?x=1"
    html = client.get("/auth/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert _html_lang(html) == "cs"  # the explicit choice wins over Accept-Language
    assert "Přihlásit se" in html
    client.post("/lang/en", data={"csrf_token": csrf_token(client), "next": "/auth/login"})
    html = client.get("/auth/login", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert _html_lang(html) == "en"


def test_switcher_for_logged_in_user(admin_client):
    html = admin_client.get("/users/").get_data(as_text=True)
    assert 'action="/lang/' in html and 'formaction="/lang/cs"' in html
    token = csrf_token(admin_client, "/users/")
    assert admin_client.post("/lang/cs", data={"csrf_token": token, "next": "/users/"}).status_code == 302
    html = admin_client.get("/users/").get_data(as_text=True)
    assert "Uživatelé" in html and "Nový uživatel" in html and "Odhlásit se" in html


def test_switcher_needs_csrf(client):
    response = client.post("/lang/cs", data={"next": "/auth/login"})
    assert response.status_code == 400
    assert _html_lang(client.get("/auth/login").get_data(as_text=True)) == "en"


@pytest.mark.parametrize("code", ["de", "xx", "EN", "cs-CZ", "..", "en%0d%0a"])
def test_unknown_language_is_404(client, code):
    token = csrf_token(client)
    response = client.post(f"/lang/{code}", data={"csrf_token": token})
    assert response.status_code == 404
    assert _html_lang(client.get("/auth/login").get_data(as_text=True)) == "en"


def test_switcher_get_is_not_allowed(client):
    assert client.get("/lang/cs").status_code == 405


@pytest.mark.parametrize("target", [
    "https://evil.example/", "//evil.example/", "/\\evil.example", "\\\\evil.example", "http:/evil.example",
    "javascript:alert(1)", "evil.example/path", "/\tevil", "/auth/login\r\nSet-Cookie: x=1", "",
])
def test_switcher_refuses_off_site_targets(client, target):
    token = csrf_token(client)
    response = client.post("/lang/cs", data={"csrf_token": token, "next": target})
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location == "/", location  # the home page, never the given target


def test_czech_error_page(client):
    response = client.get("/no-such-page", headers={"Accept-Language": "cs"})
    assert response.status_code == 404
    assert "Nenalezeno" in response.get_data(as_text=True)


def test_csrf_message_english_unchanged(client):
    response = client.post("/auth/logout")
    assert response.status_code == 400
    assert b"security token" in response.data


def _tuple(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


def _messages(catalog):
    """{(context, id): translation}; plural ids and strings as tuples (read_mo gives lists)."""
    def context(m):
        return m.context.decode() if isinstance(m.context, bytes) else m.context
    return {(context(m), _tuple(m.id)): _tuple(m.string) for m in catalog if m.id}


def test_catalogue_is_complete():
    with PO.open("rb") as f:
        catalog = read_po(f)
    assert catalog.locale.language == "cs"
    assert catalog.num_plurals == 3
    empty = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(s and s.strip() for s in strings) or message.fuzzy:
            empty.append(message.id)
        for s in strings:  # the same %(placeholders)s as the English text
            assert set(re.findall(r"%\((\w+)\)s", s)) == set(re.findall(
                r"%\((\w+)\)s", message.id if isinstance(message.id, str) else message.id[-1])), message.id
    assert not empty, f"untranslated or fuzzy messages: {empty}"
    assert len(_messages(catalog)) > 100


def test_catalogue_covers_the_template():
    pot = TRANSLATIONS / "messages.pot"
    with pot.open("rb") as f:
        template = read_po(f)
    with PO.open("rb") as f:
        catalog = read_po(f)
    assert set(_messages(template)) <= set(_messages(catalog)), "run pybabel update (see babel.cfg)"


def test_mo_is_up_to_date_with_po():
    with PO.open("rb") as f:
        catalog = read_po(f)
    with MO.open("rb") as f:
        compiled = read_mo(f)
    assert _messages(compiled) == _messages(catalog), "run pybabel compile -d psan/translations"
    assert _header(compiled) == _header(catalog), "run pybabel compile -d psan/translations"


def _header(catalog) -> dict[str, str]:
    """The catalogue's header without "Generated-By": Babel writes its own version there, so a byte
    comparison failed whenever the installed Babel was newer than the one that compiled the file."""
    return {key: value for key, value in catalog.mime_headers if key != "Generated-By"}
