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


def test_surrogates_follow_the_documents_language(admin_client, clean_app):
    """A Czech document in an English project gets Czech (female -ová) surrogates, an English one English."""
    from tests.web.helpers import sql as run
    pid = new_project(clean_app, "Surrogates")  # English project
    cs = add_document(clean_app, "Smlouvu podepsala paní Jana Nováková včera.\n", [("Jana Nováková", "PERSON")],
                      project_id=pid, name="cs.txt", language="cs")
    en = add_document(clean_app, "The contract was signed by Mary Brown yesterday.\n", [("Mary Brown", "PERSON")],
                      project_id=pid, name="en.txt", language="en")
    run(clean_app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    out_cs = admin_client.get(f"/documents/{cs}/download/pseudonymize").get_data(as_text=True)
    out_en = admin_client.get(f"/documents/{en}/download/pseudonymize").get_data(as_text=True)
    surname_cs = out_cs.split("paní ", 1)[1].split(" včera", 1)[0].split()[-1]
    assert "Nováková" not in out_cs and surname_cs.endswith("ová"), out_cs
    assert "Mary Brown" not in out_en and not out_en.split("by ", 1)[1].split(" yesterday")[0].endswith("ová")
