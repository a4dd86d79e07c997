"""Background work is visible on the documents page: a failed entity grouping shows, Retry is offered only where
nothing else will finish the document, and a large download is prepared in the background with its stage.
"""
from __future__ import annotations

import re
import time

from tests.documents import add_document
from tests.helpers import csrf_token, default_project, sql


# --- a failed grouping shows on the documents page ----------------------------------------------------------
def test_failed_entity_grouping_shows_on_the_documents_page(clean_app, admin_client, database_url):
    """The grouping fails for real (PostgreSQL refuses its lock in time): the document stays annotatable,
    and the documents page says what is missing instead of a plain "To annotate"."""
    import psycopg2

    from psan.runtime import db
    from psan.store.annotation import entities as store_entities
    from psan.store.corpus.documents import load_document
    app = clean_app
    doc = add_document(app, "Jonathan Harper sued. Later Harper left.", [("Jonathan Harper", "P"), ("Harper", "P")])
    blocker = psycopg2.connect(database_url)
    try:
        with blocker.cursor() as cur:
            cur.execute("LOCK TABLE entity IN ACCESS EXCLUSIVE MODE")  # e.g. a long maintenance statement
        with app.app_context(), db.transaction() as conn:
            db.execute("SET LOCAL lock_timeout = '300ms'", None, conn)
            store_entities.update_document_entities_or_log(conn, doc, load_document(conn, doc))
    finally:
        blocker.close()
    row = sql(app, "SELECT status::text AS status, error FROM document WHERE id = %s", (doc,))[0]
    assert row["status"] == "PRE_ANNOTATED" and "Entities were not grouped" in row["error"]
    page = admin_client.get(f"/documents/?project={default_project(app)}").get_data(as_text=True)
    assert "Entities were not grouped" in page
    status = admin_client.get(f"/documents/status?project={default_project(app)}")
    assert "Entities were not grouped" in status.get_data(as_text=True)
    # grouping again (a new recognition) clears the note
    with app.app_context(), db.transaction() as conn:
        store_entities.update_document_entities_or_log(conn, doc, load_document(conn, doc))
    assert sql(app, "SELECT error FROM document WHERE id = %s", (doc,))[0]["error"] is None


# --- a long download is prepared in the background, with its stage shown ------------------------------------
def _wait_job(client, job: int, timeout: float = 180) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = client.get(f"/documents/prepared/{job}/status").get_json()
        if state["status"] in ("DONE", "FAILED") or time.monotonic() > deadline:
            return state
        time.sleep(0.3)


def test_large_downloads_are_prepared_in_the_background(admin_client, clean_app, celery_worker,
                                                                 monkeypatch):
    import io
    import zipfile

    from tests.helpers import csrf_token, logged_in_client
    app = clean_app
    project = default_project(app)
    text = " ".join(f"Yesterday John Smith met Mary Brown in Leeds at {n} o'clock." for n in range(400))
    doc = add_document(app, text, [("John Smith", "PERSON"), ("Mary Brown", "PERSON"), ("Leeds", "GPE")])
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE'")
    from psan.runtime import db
    from psan.store.corpus.reannotate import reannotate_document_now
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, doc)
    monkeypatch.setitem(app.config, "LARGE_DOWNLOAD_TOKENS", 1000)  # this document counts as large
    page = admin_client.get(f"/documents/?project={project}").get_data(as_text=True)
    assert f"/documents/{doc}/prepare/pseudonymize" in page and f"/documents/{doc}/download/pseudonymize" not in page
    token = csrf_token(admin_client, f"/documents/?project={project}")
    started = admin_client.post(f"/documents/{doc}/prepare/pseudonymize", data={"csrf_token": token})
    assert started.status_code == 302
    job = int(started.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    waiting = admin_client.get(f"/documents/prepared/{job}")
    assert waiting.status_code == 200 and "prepared.js" in waiting.get_data(as_text=True)
    state = _wait_job(admin_client, job)
    assert state["status"] == "DONE", state
    prepared = admin_client.get(state["file"])
    assert prepared.status_code == 200 and prepared.headers["Cache-Control"] == "no-store"
    direct = admin_client.get(f"/documents/{doc}/download/pseudonymize").data
    assert prepared.data == direct and b"John Smith" not in prepared.data
    # the project ZIP in the background: the same documents as the direct ZIP
    started = admin_client.post(f"/documents/project/{project}/prepare/tag", data={"csrf_token": token})
    zip_job = int(started.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    state = _wait_job(admin_client, zip_job)
    assert state["status"] == "DONE", state
    assert state["total"] == 1 and state["done"] == 1  # documents done of total, shown while it runs
    with zipfile.ZipFile(io.BytesIO(admin_client.get(state["file"]).data)) as zf:
        background = {n: zf.read(n) for n in zf.namelist() if n.endswith(".tag.txt")}
    with zipfile.ZipFile(io.BytesIO(admin_client.get(f"/documents/project/{project}/download/tag").data)) as zf:
        assert background == {n: zf.read(n) for n in zf.namelist() if n.endswith(".tag.txt")} != {}
    started = admin_client.post(f"/documents/project/{project}/prepare/pseudonymize", data={"csrf_token": token})
    state = _wait_job(admin_client, int(started.headers["Location"].rstrip("/").rsplit("/", 1)[1]))
    assert state["status"] == "DONE" and state["done"] == state["total"] == 1, state
    # only the admin who asked sees the job and its file
    other = logged_in_client(app, "other-admin@example.org", "ADMIN")
    assert other.get(f"/documents/prepared/{job}").status_code == 404
    assert other.get(f"/documents/prepared/{job}/file").status_code == 404
    assert admin_client.post(f"/documents/{doc}/prepare/bogus", data={"csrf_token": token}).status_code == 404


def _documents_with_every_status(app) -> dict[str, int]:
    project = default_project(app)
    ids = {}
    for status in ("NEW", "RECOGNIZED", "PRE_ANNOTATED", "DONE", "FAILED"):
        # queued_at set: handed to the broker (a NEW row without it reads "Waiting for the queue")
        ids[status] = sql(app, "INSERT INTO document (project_id, name, language, status, text, error, queued_at) "
                               "VALUES (%s, %s, 'en', %s, 'x', %s, now()) RETURNING id",
                          (project, f"{status.lower()}.txt", status, "boom" if status == "FAILED" else None))[0]["id"]
    return ids


def test_retry_only_on_failed(admin_client, clean_app):
    ids = _documents_with_every_status(clean_app)
    html = admin_client.get("/documents/").get_data(as_text=True)
    for status, document_id in ids.items():
        form = re.search(rf'action="/documents/{document_id}/retry" class="([^"]*)"', html).group(1)
        assert ("d-none" in form) == (status != "FAILED"), (status, form)
    token = csrf_token(admin_client, "/documents/")
    page = admin_client.post(f"/documents/{ids['NEW']}/retry", data={"csrf_token": token},
                             follow_redirects=True).get_data(as_text=True)
    assert "Only failed or stalled documents can be retried" in page
    assert sql(clean_app, "SELECT status::text AS s FROM document WHERE id = %s", (ids["NEW"],))[0]["s"] == "NEW"
