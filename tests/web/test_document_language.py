"""Per-document language at upload and on the documents page (issue 10, item 5)."""
from __future__ import annotations

from tests.conftest import csrf_token
from tests.web.annotate_fixtures import add_document
from tests.web.helpers import new_project, page_token, sql

CS = "Pan Jan Novák bydlí v Brně a pracuje jako učitel na základní škole v Králově Poli."
SV = "Herr Johan Andersson bor i Göteborg och arbetar som lärare på en grundskola i staden."


def _upload(client, pid: int, text: str, name: str, language: str = ""):
    token = csrf_token(client, "/documents/upload")
    return client.post("/documents/upload", data={"csrf_token": token, "project": str(pid), "language": language,
                                                  "text": text, "name": name}, content_type="multipart/form-data")


def test_upload_detects_each_documents_language(admin_client, clean_app):
    pid = new_project(clean_app, "Mixed")  # an English project
    assert _upload(admin_client, pid, CS, "cs").status_code == 302
    assert _upload(admin_client, pid, SV, "sv").status_code == 302
    assert _upload(admin_client, pid, "Ok.", "short").status_code == 302
    assert _upload(admin_client, pid, CS, "forced", language="pl").status_code == 302  # explicit choice wins
    got = {r["name"]: r["language"] for r in sql(clean_app, "SELECT name, language FROM document")}
    assert got == {"cs": "cs", "sv": "sv", "short": "en", "forced": "pl"}
    page = admin_client.get(f"/documents/?project={pid}").get_data(as_text=True)
    assert 'name="language"' in page and '<option value="sv" selected' in page


def test_language_is_editable_and_validated(admin_client, user_client, clean_app):
    pid = new_project(clean_app, "Edit")
    doc = add_document(clean_app, CS, [("Jan Novák", "PERSON")], project_id=pid, name="d.txt", language="en")
    token = page_token(admin_client, f"/documents/?project={pid}")
    assert admin_client.post(f"/documents/{doc}/language", data={"csrf_token": token, "language": "xx"}
                             ).status_code == 400
    assert admin_client.post("/documents/999999/language", data={"csrf_token": token, "language": "cs"}
                             ).status_code == 404
    assert admin_client.post(f"/documents/{doc}/language", data={"language": "cs"}).status_code == 400  # no CSRF
    assert user_client.post(f"/documents/{doc}/language", data={"language": "cs"}).status_code in (400, 403)
    response = admin_client.post(f"/documents/{doc}/language", data={"csrf_token": token, "language": "cs"})
    assert response.status_code == 302
    row = sql(clean_app, "SELECT language, status::text AS status FROM document WHERE id = %s", (doc,))[0]
    assert row == {"language": "cs", "status": "NEW"}  # recognized again in Czech (nobody decided anything)
