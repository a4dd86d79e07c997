"""Office files through the web app: upload a DOCX, annotate it, download it as DOCX with no trace of the name.

Real upload → real Celery worker → recognition → the annotation API → downloads in every mode, the project
ZIP and the release report.
"""
from __future__ import annotations

import io
import json
import time
import zipfile

import pytest

from psan.tool.formats import files as formats
from tests.documents import wait_for_documents
from tests.helpers import csrf_token, default_project, sql
from tests.tool.formats.helpers import assert_no_trace
from tests.tool.formats.office_files import EMAIL, NAME, SURNAME, rich_docx
from tests.web.helpers import annotator_client, api_window, decide_window_and_leave

pytestmark = pytest.mark.worker
SECRETS = (NAME, SURNAME, EMAIL)


def _upload_file(client, project_id: int, data: bytes, name: str):
    token = csrf_token(client, "/documents/upload")
    return client.post("/documents/upload", data={"csrf_token": token, "project": str(project_id), "language": "cs",
                                                  "files": [(io.BytesIO(data), name)]},
                       content_type="multipart/form-data", follow_redirects=True)


@pytest.fixture()
def uploaded(admin_client, clean_app, celery_worker):
    pytest.importorskip("docx", reason="python-docx makes the test file")
    pid = default_project(clean_app)
    sql(clean_app, "UPDATE project SET language = 'cs' WHERE id = %s", (pid,))
    page = _upload_file(admin_client, pid, rich_docx(), "rozsudek.docx").get_data(as_text=True)
    assert "rozsudek.docx: found body" in page and "comment" in page and "header" in page
    rows = wait_for_documents(clean_app)
    assert [r["status"] for r in rows] == ["PRE_ANNOTATED"], rows
    return {"pid": pid, "doc": rows[0]["id"]}


def test_docx_annotated_and_downloaded_as_docx_without_the_name(admin_client, clean_app, uploaded):
    pid, doc = uploaded["pid"], uploaded["doc"]
    stored = sql(clean_app, "SELECT text, original_format, format_report FROM document WHERE id = %s", (doc,))[0]
    assert stored["original_format"] == "docx" and f"Ověřit u {NAME}" in stored["text"]  # the comment's text
    assert f"Spis {NAME}" in stored["text"]  # the header's
    annotator = annotator_client(clean_app, "clerk@example.com")
    for _ in range(50):  # every span the recognizers found is decided private by a person
        status, body = api_window(annotator)
        if status != 200 or body.get("window") is None:
            break
        decide_window_and_leave(annotator, "PRIVATE")
    assert sql(clean_app, "SELECT count(*) AS n FROM annotation WHERE document_id = %s AND token_decision IS NOT NULL",
               (doc,))[0]["n"] > 0
    for mode in ("pseudonymize", "tag", "remove"):
        response = admin_client.get(f"/documents/{doc}/download/{mode}")
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.mimetype.endswith("wordprocessingml.document")
        assert f"rozsudek.{mode}.docx" in response.headers["Content-Disposition"]
        data = response.get_data()
        assert_no_trace(data, SECRETS)
        text = formats.read(data, "out.docx").text  # a DOCX psan (and Word) can open again
        assert "Rozsudek ve věci" in text
        as_text = admin_client.get(f"/documents/{doc}/download/{mode}?as=text")
        assert as_text.mimetype == "text/plain" and SURNAME not in as_text.get_data(as_text=True)
    original = admin_client.get(f"/documents/{doc}/download/input")  # the uploaded file itself
    assert original.status_code == 200 and formats.read(original.get_data(), "in.docx").text == stored["text"]
    archive = zipfile.ZipFile(io.BytesIO(admin_client.get(f"/documents/project/{pid}/download/pseudonymize")
                                        .get_data()))
    assert "rozsudek.pseudonymize.docx" in archive.namelist()
    assert_no_trace(archive.read("rozsudek.pseudonymize.docx"), SECRETS)
    report = json.loads(archive.read("RELEASE_REPORT.json"))
    files = report["files"]
    assert files[0]["format"] == "docx" and "comment and revision authors" in files[0]["metadata_removed"]
    assert "custom document properties" in files[0]["parts_dropped"]
    assert "Original files" in archive.read("RELEASE_REPORT.html").decode()
    page = admin_client.get(f"/documents/?project={pid}").get_data(as_text=True)
    assert "DOCX: body" in page and "1 comment" in page
    release = admin_client.get(f"/documents/project/{pid}/release").get_data(as_text=True)
    assert 'id="release-files"' in release and "custom document properties" in release


def test_refused_office_files_say_why(admin_client, clean_app):
    pid = default_project(clean_app)
    page = _upload_file(admin_client, pid, b"PK\x03\x04broken", "broken.docx")
    assert page.status_code == 400
    assert "broken.docx: the DOCX file is damaged" in page.get_data(as_text=True)
    scan = _upload_file(admin_client, pid, b"%PDF-1.4\n%%EOF", "scan.pdf")
    assert scan.status_code == 400 and "scan.pdf:" in scan.get_data(as_text=True)


def test_large_docx_prepared_in_the_background_comes_back_as_docx(admin_client, clean_app, uploaded, monkeypatch):
    # every document is "large": the page offers background jobs
    monkeypatch.setitem(clean_app.config, "LARGE_DOWNLOAD_TOKENS", 0)
    doc = uploaded["doc"]
    token = csrf_token(admin_client, f"/documents/?project={uploaded['pid']}")
    response = admin_client.post(f"/documents/{doc}/prepare/tag", data={"csrf_token": token})
    assert response.status_code == 302
    job = int(response.headers["Location"].rstrip("/").split("/")[-1])
    for _ in range(120):
        state = admin_client.get(f"/documents/prepared/{job}/status").get_json()
        if state.get("file"):
            break
        time.sleep(0.5)
    got = admin_client.get(f"/documents/prepared/{job}/file")
    assert got.status_code == 200 and "rozsudek.tag.docx" in got.headers["Content-Disposition"]
    assert_no_trace(got.get_data(), SECRETS)


def test_zip_of_office_files_and_the_projects_tracked_changes_setting(admin_client, clean_app):
    """A ZIP with a DOCX and a text file gives two documents; a project that rejects tracked changes reads the
    deleted text and not the inserted one (the choice is kept with the document for writing it back)."""
    pytest.importorskip("docx", reason="python-docx makes the test file")
    pid = default_project(clean_app)
    sql(clean_app, "UPDATE project SET tracked_changes = 'reject' WHERE id = %s", (pid,))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("case/rozsudek.docx", rich_docx())
        zf.writestr("case/note.txt", f"Dopis pro {NAME}.\n")
    page = _upload_file(admin_client, pid, buf.getvalue(), "case.zip")
    assert page.status_code == 200, page.get_data(as_text=True)
    rows = sql(clean_app, "SELECT name, text, original_format, format_report FROM document ORDER BY name")
    assert [(r["name"], r["original_format"]) for r in rows] == [("note.txt", None), ("rozsudek.docx", "docx")]
    docx_row = rows[1]
    assert f"smazal {NAME}" in docx_row["text"] and "vložil" not in docx_row["text"]
    assert docx_row["format_report"]["tracked_changes"] == "reject"
