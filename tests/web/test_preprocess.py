"""Upload → real Celery worker → recognition, NE-type rules, rules applied, propagation, DONE, output, delete."""
from __future__ import annotations

import io
import zipfile

import pytest

from psan.runtime import db
from psan.store.corpus.reannotate import reannotate_document_now
from tests.documents import wait_for_documents
from tests.helpers import csrf_token, sql

pytestmark = pytest.mark.worker

MARKER = "Zqxwvmarker"
TEXT_A = (f"John Smith met Mary Brown in London on Monday. {MARKER} Smith wrote to Acme Corporation.\n"
          "Later John Smith went home.")
TEXT_B = "Mary Brown called John Smith from Paris. <script>alert(1)</script>"


def _upload(client, project_id, **data):
    token = csrf_token(client, "/documents/upload")
    return client.post("/documents/upload", data={"csrf_token": token, "project": str(project_id), "language": "",
                                                  **data}, content_type="multipart/form-data")


def _reannotate(app, document_id):
    with app.app_context(), db.transaction() as conn:
        return reannotate_document_now(conn, document_id)


def test_full_workflow(admin_client, clean_app, celery_worker):
    app = clean_app
    pid = sql(app, "SELECT id FROM project WHERE is_default")[0]["id"]
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as zf:
        zf.writestr("b.txt", TEXT_B.encode())
    response = _upload(admin_client, pid, text=TEXT_A, name="doc A", files=[(zbuf.getvalue() and io.BytesIO(
        zbuf.getvalue()), "docs.zip")])
    assert response.status_code == 302, response.get_data(as_text=True)
    rows = wait_for_documents(app)
    assert [r["status"] for r in rows] == ["PRE_ANNOTATED", "PRE_ANNOTATED"], rows
    a, b = rows[0]["id"], rows[1]["id"]

    # tokens, NEs, XML stored; NE-type rules created with confidence 0 (suspicious)
    assert sql(app, "SELECT count(*) AS n FROM token WHERE document_id = %s", (a,))[0]["n"] > 10
    types = {r["condition"] for r in sql(app, "SELECT condition FROM rule WHERE type = 'NE_TYPE'")}
    assert "PERSON" in types
    assert sql(app, "SELECT count(*) AS n FROM annotation WHERE document_id = %s", (a,))[0]["n"] > 0
    # a decided NE-type rule is not reset by a later document
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE' AND condition = 'PERSON'")

    # the list escapes user text; the JSON endpoint reports status and progress
    page = admin_client.get(f"/documents/?project={pid}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page and "b.txt" in page
    status = admin_client.get(f"/documents/status?project={pid}").get_json()
    assert {d["status"] for d in status["documents"]} == {"PRE_ANNOTATED"}

    # a WORD_TYPE rule inserted directly propagates to both documents on re-annotation
    rule = sql(app, "INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'WORD_TYPE', "
                    "'Smith', -1) RETURNING id", (pid,))[0]["id"]
    from psan.celery.tasks import re_annotate, re_annotate_project
    with app.app_context():
        re_annotate_project.delay(pid).get(timeout=60)
    for doc_id in (a, b):
        linked = sql(app, "SELECT 1 FROM annotation_rule ar JOIN annotation an ON an.id = ar.annotation_id "
                          "WHERE an.document_id = %s AND ar.rule_id = %s", (doc_id, rule))
        assert linked, doc_id
    # idempotent: again gives the same rows
    before = sql(app, "SELECT id, first_token, end_token, rule_level FROM annotation ORDER BY id")
    with app.app_context():
        re_annotate.delay(a).get(timeout=60)
    assert sql(app, "SELECT id, first_token, end_token, rule_level FROM annotation ORDER BY id") == before

    # PERSON spans are private now; deciding every suspicious span → DONE
    sql(app, "UPDATE annotation a SET token_decision = 'PUBLIC' FROM project p WHERE a.document_id = %s "
             "AND p.id = %s AND a.rule_level > p.private_threshold AND a.rule_level < p.public_threshold", (a, pid))
    assert _reannotate(app, a).status == "DONE"
    # a new rule makes something suspicious again → back to PRE_ANNOTATED
    sql(app, "INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'WORD_TYPE', 'home', 0)", (pid,))
    assert _reannotate(app, a).status == "PRE_ANNOTATED"

    # downloads in every mode
    assert admin_client.get(f"/documents/{a}/download/input").get_data(as_text=True) == TEXT_A
    assert "<submission>" in admin_client.get(f"/documents/{a}/download/xml").get_data(as_text=True)
    removed = admin_client.get(f"/documents/{a}/download/remove").get_data(as_text=True)
    tagged = admin_client.get(f"/documents/{a}/download/tag").get_data(as_text=True)
    pseudo = admin_client.get(f"/documents/{a}/download/pseudonymize").get_data(as_text=True)
    assert "Smith" not in removed and "Smith" not in tagged and "Smith" not in pseudo
    assert "[PERSON]" in tagged
    for kind in ("input", "xml", "remove", "tag", "pseudonymize"):
        data = admin_client.get(f"/documents/project/{pid}/download/{kind}").get_data()
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
        documents = [n for n in names if n not in ("RELEASE_REPORT.json", "RELEASE_REPORT.html", "MASKED.json")]
        assert len(documents) == 2, (kind, names)
        assert {"RELEASE_REPORT.json", "RELEASE_REPORT.html"} <= set(names)  # the release report is in every ZIP

    # deleting a document leaves none of its text anywhere
    token = csrf_token(admin_client, f"/documents/?project={pid}")
    assert admin_client.post(f"/documents/{a}/delete", data={"csrf_token": token}).status_code == 302
    columns = sql(app, "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
                       "'public' AND data_type IN ('text', 'jsonb', 'character varying', 'json')")
    for col in columns:
        hits = sql(app, f'SELECT count(*) AS n FROM "{col["table_name"]}" '
                        f'WHERE "{col["column_name"]}"::text LIKE %s', (f"%{MARKER}%",))
        assert hits[0]["n"] == 0, col
    assert not sql(app, "SELECT 1 FROM token WHERE document_id = %s", (a,))


def test_failed_document_shows_error_and_retries(admin_client, clean_app, celery_worker):
    app = clean_app
    pid = sql(app, "INSERT INTO project (name, pipeline) VALUES ('broken', '{\"ner\": [\"nosuchkind\"]}') "
                   "RETURNING id")[0]["id"]
    assert _upload(admin_client, pid, text="Jane Doe lives here.").status_code == 302
    rows = wait_for_documents(app)
    assert rows[0]["status"] == "FAILED" and "nosuchkind" in rows[0]["error"]
    page = admin_client.get(f"/documents/?project={pid}").get_data(as_text=True)
    assert "nosuchkind" in page and "Retry" in page
    sql(app, "UPDATE project SET pipeline = '{\"tokenizer\": \"regex\", \"ner\": []}' WHERE id = %s", (pid,))
    token = csrf_token(admin_client, f"/documents/?project={pid}")
    assert admin_client.post(f"/documents/{rows[0]['id']}/retry", data={"csrf_token": token}).status_code == 302
    rows = wait_for_documents(app)
    assert rows[0]["status"] in ("PRE_ANNOTATED", "DONE") and rows[0]["error"] is None
