"""Per-document audit export (``/documents/<id>/history.csv|json``) after decisions made through the real API."""
from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest

from psan.documents.history import COLUMNS
from tests.documents import add_document, plain_sentences, token_index
from tests.helpers import csrf_token, default_project, sql
from tests.web.helpers import annotator_client

ANNOTATOR = "annotator@example.org"
LABEL = "=SUM(A1)"  # a formula: must come out of the CSV as text


@pytest.fixture()
def annotator(clean_app):
    # a name starting with "@" (spreadsheet formula prefix) to check the CSV escaping of author cells
    return annotator_client(clean_app, ANNOTATOR, window_size=60, name="@anna")


def _api(client, path: str, payload: dict) -> dict:
    response = client.post(f"/annotate/api/{path}", json=payload)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.fixture()
def decided(clean_app, annotator) -> dict:
    """A document with three logged decisions: token PRIVATE, a label, an NE-type PUBLIC."""
    doc = add_document(clean_app, "Jan Novák met Eva in Brno. " + plain_sentences(0, 3),
                       [("Jan Novák", "P"), ("Eva", "P")])
    eva = token_index(clean_app, doc, "Eva")
    assert annotator.get("/annotate/api/window").status_code == 200
    span = {"document_id": doc, "first_token": 0, "end_token": 2}
    _api(annotator, "decide", {**span, "decision": "PRIVATE", "scope": "token"})
    _api(annotator, "label", {**span, "label_name": LABEL})
    _api(annotator, "decide", {"document_id": doc, "first_token": eva, "end_token": eva + 1,
                               "decision": "PUBLIC", "scope": "ne_type"})
    return {"doc": doc, "eva": eva}


def _csv(response) -> list[dict[str, str]]:
    text = response.get_data().decode("utf-8")
    assert text.startswith("\ufeff")
    reader = csv.reader(io.StringIO(text[1:]))
    header = next(reader)
    assert tuple(header) == COLUMNS
    return [dict(zip(header, row, strict=True)) for row in reader]


def _private_attachment(response, suffix: str) -> None:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.headers["Cache-Control"] == "no-store"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and disposition.rstrip('"').endswith(suffix)


def test_csv_has_every_decision_with_author_time_text_and_rule(clean_app, admin_client, decided):
    doc, eva = decided["doc"], decided["eva"]
    response = admin_client.get(f"/documents/{doc}/history.csv")
    _private_attachment(response, "history.csv")
    assert response.mimetype == "text/csv"
    rows = _csv(response)
    logged = sql(clean_app, "SELECT count(*) AS n FROM decision_log WHERE document_id = %s", (doc,))[0]["n"]
    assert len(rows) == logged == 3
    token, label, ne_type = rows
    for row in rows:
        assert row["author_name"] == "'@anna"  # formula prefix neutralized
        assert row["author_email"] == ANNOTATOR
        at = datetime.fromisoformat(row["time"].replace("Z", "+00:00"))
        assert row["time"].endswith("Z") and at.utcoffset().total_seconds() == 0
        assert abs((datetime.now(UTC) - at).total_seconds()) < 600
    assert (token["action"], token["decision"], token["label"]) == ("token", "PRIVATE", "")
    assert (token["first_token"], token["end_token"], token["text"]) == ("0", "2", "Jan Novák")
    assert token["rule_type"] == "WORD_TYPE" and token["rule_condition"]  # the lookup rule it created
    assert (label["decision"], label["label"], label["text"]) == ("PRIVATE", "'" + LABEL, "Jan Novák")
    assert (ne_type["action"], ne_type["decision"], ne_type["text"]) == ("ne_type", "PUBLIC", "Eva")
    assert (ne_type["first_token"], ne_type["end_token"]) == (str(eva), str(eva + 1))
    assert (ne_type["rule_type"], ne_type["rule_condition"], ne_type["rule_confidence"]) == ("NE_TYPE", "P", "1")
    assert json.loads(ne_type["detail"])["scope"] == "ne_type"


def test_json_has_the_same_entries_unescaped(clean_app, admin_client, decided):
    doc = decided["doc"]
    response = admin_client.get(f"/documents/{doc}/history.json")
    _private_attachment(response, "history.json")
    assert response.mimetype == "application/json"
    data = json.loads(response.get_data(as_text=True))
    assert data["document"] == {"id": doc, "name": "doc.txt", "project_id": default_project(clean_app),
                                "project_name": data["document"]["project_name"]}
    entries = data["entries"]
    assert [e["action"] for e in entries] == ["token", "token", "ne_type"]
    assert all(set(e) == set(COLUMNS) for e in entries)
    assert entries[1]["label"] == LABEL and entries[1]["author_name"] == "@anna"
    assert [e["text"] for e in entries] == ["Jan Novák", "Jan Novák", "Eva"]
    assert entries[2]["rule_type"] == "NE_TYPE" and entries[2]["rule_condition"] == "P"
    assert entries[0]["detail"] == {"scope": "token"}
    assert all(e["time"].endswith("Z") for e in entries)
    # the CSV export lists exactly the same rows
    rows = _csv(admin_client.get(f"/documents/{doc}/history.csv"))
    assert [(r["time"], r["action"], r["text"]) for r in rows] == [(e["time"], e["action"], e["text"])
                                                                    for e in entries]


def test_documents_page_links_history_and_annotation(clean_app, admin_client, decided):
    doc = decided["doc"]
    html = admin_client.get(f"/documents/?project={default_project(clean_app)}").get_data(as_text=True)
    assert f'href="/documents/{doc}/history.csv"' in html and f'href="/documents/{doc}/history.json"' in html
    assert f'href="/annotate/document/{doc}"' in html


def test_document_without_decisions_has_an_empty_history(clean_app, admin_client):
    doc = add_document(clean_app, plain_sentences(0, 2))
    assert _csv(admin_client.get(f"/documents/{doc}/history.csv")) == []
    assert admin_client.get(f"/documents/{doc}/history.json").get_json()["entries"] == []


@pytest.mark.parametrize("kind", ["csv", "json"])
def test_annotators_get_403_and_anonymous_users_the_login_page(clean_app, annotator, decided, kind):
    doc = decided["doc"]
    response = annotator.get(f"/documents/{doc}/history.{kind}")
    assert response.status_code == 403
    assert "Jan Novák" not in response.get_data(as_text=True)
    anonymous = clean_app.test_client().get(f"/documents/{doc}/history.{kind}")
    assert anonymous.status_code == 302 and "/auth/login" in anonymous.headers["Location"]


@pytest.mark.parametrize("kind", ["csv", "json"])
@pytest.mark.parametrize("path", ["/documents/999999/history.{kind}", f"/documents/{2**63}/history.{{kind}}",
                                  f"/documents/{2**80}/history.{{kind}}", "/documents/-1/history.{kind}",
                                  "/documents/abc/history.{kind}", "/documents/1.5/history.{kind}"])
def test_forged_ids_are_404(clean_app, admin_client, decided, kind, path):
    assert admin_client.get(path.format(kind=kind)).status_code == 404


def test_deleting_the_document_deletes_its_history(clean_app, admin_client, decided):
    doc = decided["doc"]
    other = add_document(clean_app, "Eva came. " + plain_sentences(0, 2), [("Eva", "P")], name="other.txt")
    sql(clean_app, "INSERT INTO decision_log (project_id, document_id, action) VALUES (%s, %s, 'token')",
        (default_project(clean_app), other))
    token = csrf_token(admin_client, f"/documents/?project={default_project(clean_app)}")
    assert admin_client.post(f"/documents/{doc}/delete", data={"csrf_token": token}).status_code == 302
    assert sql(clean_app, "SELECT count(*) AS n FROM decision_log WHERE document_id = %s", (doc,))[0]["n"] == 0
    assert admin_client.get(f"/documents/{doc}/history.csv").status_code == 404
    assert admin_client.get(f"/documents/{doc}/history.json").status_code == 404
    # other documents keep theirs
    assert len(_csv(admin_client.get(f"/documents/{other}/history.csv"))) == 1
