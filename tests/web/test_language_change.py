"""A document whose language changes is recognized again and listed until then; a release never omits a
document silently.
"""
from __future__ import annotations

from tests.helpers import default_project, sql


# --- a language change is recognized again, and a release never omits a document silently -------------------
def test_language_change_is_recognized_again_and_listed_until_then(admin_client, clean_app,
                                                                             celery_worker):
    import io
    import zipfile

    from tests.documents import wait_for_documents
    from tests.helpers import csrf_token
    app = clean_app
    project = default_project(app)
    token = csrf_token(admin_client, "/documents/upload")
    for name in ("first.txt", "second.txt"):
        assert admin_client.post("/documents/upload", data={
            "csrf_token": token, "project": str(project), "language": "en", "name": name,
            "text": "Mr. John Smith lives in London and works at Acme Ltd."},
            content_type="multipart/form-data").status_code == 302
    rows = wait_for_documents(app, timeout=180)
    assert {r["status"] for r in rows} <= {"PRE_ANNOTATED", "DONE"}, rows
    doc = rows[0]["id"]
    # the first run's queue mark stays on the row: it made the queue count the document as in flight
    assert sql(app, "SELECT queued_at FROM document WHERE id = %s", (doc,))[0]["queued_at"] is not None
    token = csrf_token(admin_client, f"/documents/?project={project}")
    assert admin_client.post(f"/documents/{doc}/language", data={"csrf_token": token, "language": "cs"}
                             ).status_code == 302
    # recognized again in Czech, within seconds (not stuck in NEW behind the first run's queue mark)
    rows = wait_for_documents(app, timeout=120)
    again = next(r for r in rows if r["id"] == doc)
    assert again["status"] in ("PRE_ANNOTATED", "DONE"), again
    assert sql(app, "SELECT language FROM document WHERE id = %s", (doc,))[0]["language"] == "cs"

    # a document that is not annotated (yet) is named on the release page and in the ZIP's report
    sql(app, "UPDATE document SET status = 'NEW', queued_at = now() - interval '1 hour' WHERE id = %s", (doc,))
    page = admin_client.get(f"/documents/project/{project}/release").get_data(as_text=True)
    assert "release-not-included" in page and "first.txt" in page.split("release-not-included", 1)[1][:2000]
    archive = admin_client.get(f"/documents/project/{project}/download/pseudonymize")
    assert archive.status_code == 200
    with zipfile.ZipFile(io.BytesIO(archive.data)) as zf:
        names = zf.namelist()
        report = zf.read("RELEASE_REPORT.html").decode()
    assert not any(n.startswith("first") for n in names)
    assert "Documents not included" in report and "first.txt" in report
    # and a document queued long ago that no worker took offers Retry on the documents page
    listing = admin_client.get(f"/documents/status?project={project}").get_json()
    entry = next(d for d in listing["documents"] if d["id"] == doc)
    assert entry["retryable"] is True, entry
