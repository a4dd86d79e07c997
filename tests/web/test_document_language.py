"""Per-document language at upload and on the documents page."""
from __future__ import annotations

import pytest

from tests.documents import add_document, wait_for_documents
from tests.helpers import csrf_token, meta_csrf, new_project, sql
from tests.people import CS as CS_PERSON
from tests.people import CS_MENTIONS, expected_czech, mention_spans, token_span

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
    token = csrf_token(admin_client, f"/documents/?project={pid}")
    assert admin_client.post(f"/documents/{doc}/language", data={"csrf_token": token, "language": "xx"}
                             ).status_code == 400
    assert admin_client.post("/documents/999999/language", data={"csrf_token": token, "language": "cs"}
                             ).status_code == 404
    assert admin_client.post(f"/documents/{doc}/language", data={"language": "cs"}).status_code == 400  # no CSRF
    assert user_client.post(f"/documents/{doc}/language", data={"language": "cs"}).status_code in (400, 403)
    response = admin_client.post(f"/documents/{doc}/language", data={"csrf_token": token, "language": "cs"})
    assert response.status_code == 302
    row = sql(clean_app, "SELECT language, status::text AS status FROM document WHERE id = %s", (doc,))[0]
    # recognized again in Czech (nobody decided anything): back to NEW, or already taken by a worker the
    # session started earlier (the document was RECOGNIZED before)
    assert row["language"] == "cs" and row["status"] in ("NEW", "PROCESSING", "PRE_ANNOTATED"), row


def test_surrogates_follow_the_documents_language(admin_client, clean_app):
    """A Czech document in an English project gets Czech (female -ová) surrogates, an English one English."""
    pid = new_project(clean_app, "Surrogates")  # English project
    cs = add_document(clean_app, "Smlouvu podepsala paní Jana Nováková včera.\n", [("Jana Nováková", "PERSON")],
                      project_id=pid, name="cs.txt", language="cs")
    en = add_document(clean_app, "The contract was signed by Mary Brown yesterday.\n", [("Mary Brown", "PERSON")],
                      project_id=pid, name="en.txt", language="en")
    sql(clean_app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    out_cs = admin_client.get(f"/documents/{cs}/download/pseudonymize").get_data(as_text=True)
    out_en = admin_client.get(f"/documents/{en}/download/pseudonymize").get_data(as_text=True)
    surname_cs = out_cs.split("paní ", 1)[1].split(" včera", 1)[0].split()[-1]
    assert "Nováková" not in out_cs and surname_cs.endswith("ová"), out_cs
    assert "Mary Brown" not in out_en and not out_en.split("by ", 1)[1].split(" yesterday")[0].endswith("ová")


@pytest.mark.worker
def test_detected_czech_document_in_an_english_project_gets_czech_inflected_surrogates(admin_client, clean_app,
                                                                                     celery_worker):
    """Upload without a language into an English project: detected as Czech, recognized by the worker; the
    person's mentions (marked private through the annotation API) become one male Czech surrogate in
    each mention's case (nominative, genitive, instrumental, dative; tests/people.py)."""
    pid = new_project(clean_app, "English")
    assert sql(clean_app, "SELECT language FROM project WHERE id = %s", (pid,))[0]["language"] == "en"
    assert _upload(admin_client, pid, CS_PERSON, "novak.txt").status_code == 302
    rows = wait_for_documents(clean_app)
    assert [r["status"] for r in rows] == ["PRE_ANNOTATED"], rows
    doc = rows[0]["id"]
    assert sql(clean_app, "SELECT language FROM document WHERE id = %s", (doc,))[0]["language"] == "cs"
    admin_client.environ_base["HTTP_X_CSRFTOKEN"] = meta_csrf(admin_client)
    opened = admin_client.post("/annotate/api/open", json={"document_id": doc})
    assert opened.status_code == 200, opened.get_json()
    names = set()
    for start, end in mention_spans(CS_PERSON, CS_MENTIONS):
        first, last = token_span(clean_app, doc, start, end)
        names.update(range(first, last))
        answer = admin_client.post("/annotate/api/decide", json={
            "document_id": doc, "first_token": first, "end_token": last, "decision": "PRIVATE", "scope": "token"})
        assert answer.status_code == 200 and not answer.get_json()["category_needed"], answer.get_json()
    while True:  # the rest: a name of the person private, anything else public
        window = admin_client.get("/annotate/api/window").get_json()
        left = [a for a in window["annotations"] if a["decision"] == "SUSPICIOUS"]
        if not left:
            break
        a = left[0]
        answer = admin_client.post("/annotate/api/decide", json={
            "document_id": doc, "first_token": a["first_token"], "end_token": a["end_token"], "scope": "token",
            "decision": "PRIVATE" if a["first_token"] in names else "PUBLIC"})
        assert answer.status_code == 200, answer.get_json()
    out = admin_client.get(f"/documents/{doc}/download/pseudonymize").get_data(as_text=True)
    expected, forms = expected_czech(clean_app, pid)
    assert out == expected, (out, forms)
    assert "Novák" not in out and len(set(forms)) == 4
