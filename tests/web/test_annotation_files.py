"""Annotation files in and out on the documents pages, against the real app and database.

Imports create suspicious spans (or decided ones for a gold standard), exports give the decided spans; a
file exported from one document and imported as a gold standard into a copy of it gives the same spans
back.  Every bad file is refused whole with the reason (400), never a 500, and imports nothing.
"""
from __future__ import annotations

import io
import json
import zipfile

import pytest

from tests.documents import add_document
from tests.helpers import csrf_token, default_project, sql

TEXT = "Jan Novák met Eva Malá in Brno. They talked about the weather for an hour."
BRNO = TEXT.index("Brno")


def _post(client, url: str, fmt: str, data: bytes, filename: str, gold: bool = False):
    form = {"csrf_token": csrf_token(client, url), "format": fmt,
            "file": (io.BytesIO(data), filename)}
    if gold:
        form["gold"] = "y"
    return client.post(url, data=form, content_type="multipart/form-data")


def _problem(response) -> str:
    """The page's error messages (flashes and form errors), for an assertion's message."""
    import re
    html = response.get_data(as_text=True)
    found = re.findall(r'class="(?:alert[^"]*|invalid-feedback[^"]*)"[^>]*>(.*?)</', html, re.S)
    return " | ".join(found) or html[-1500:]


def _imported(app, doc: int) -> list[tuple]:
    return [tuple(r.values()) for r in sql(app, "SELECT ne.first_token, ne.end_token, ne.type, ne.category, "
                                                "a.token_decision::text FROM named_entity ne LEFT JOIN annotation a "
                                                "ON a.document_id = ne.document_id AND a.first_token = ne.first_token "
                                                "AND a.end_token = ne.end_token WHERE ne.document_id = %s AND "
                                                "ne.source = 'import' ORDER BY 1, 2", (doc,))]


@pytest.fixture()
def doc(clean_app) -> int:
    return add_document(clean_app, TEXT, name="meeting.txt")


def test_brat_import_creates_suspicious_spans_with_mapped_categories(clean_app, admin_client, doc):
    ann = f"T1\tPER 0 9\tJan Novák\nT2\tGPE {BRNO} {BRNO + 4}\tBrno\nT3\tWHATEVER 14 17\tEva\n"
    response = _post(admin_client, f"/documents/{doc}/annotations", "brat", ann.encode(), "meeting.ann")
    assert response.status_code == 302, _problem(response)
    rows = _imported(clean_app, doc)
    assert [(r[2], r[3], r[4]) for r in rows] == [("PER", "PERSON", None), ("WHATEVER", "OTHER", None),
                                                  ("GPE", "LOCATION", None)]
    page = admin_client.get(f"/documents/{doc}/annotations").get_data(as_text=True)
    assert "3 span(s) imported into 1 document(s)." in page
    output = admin_client.get(f"/documents/{doc}/download/tag")
    assert output.status_code == 200
    assert not {"Jan", "Novák", "Brno", "Eva"} & set(output.get_data(as_text=True).replace(".", " ").split())
    assert 'id="label-table"' in page and "GPE" in page


def test_gold_import_decides_spans_and_export_round_trips(clean_app, admin_client, doc):
    tasks = [{"data": {"text": TEXT, "name": "meeting.txt"}, "annotations": [{"result": [
        {"id": "a", "from_name": "label", "to_name": "text", "type": "labels",
         "value": {"start": 0, "end": 9, "text": "Jan Novák", "labels": ["PERSON"]}},
        {"id": "b", "from_name": "label", "to_name": "text", "type": "labels",
         "value": {"start": 14, "end": 22, "text": "Eva Malá", "labels": ["PER"]}},
        {"id": "c", "from_name": "label", "to_name": "text", "type": "labels",
         "value": {"start": BRNO, "end": BRNO + 4, "text": "Brno", "labels": ["LOC"]}}]}]}]
    project = default_project(clean_app)
    response = _post(admin_client, f"/documents/project/{project}/annotations", "labelstudio",
                     json.dumps(tasks).encode(), "tasks.json", gold=True)
    assert response.status_code == 302, _problem(response)
    assert [r[4] for r in _imported(clean_app, doc)] == ["PRIVATE", "PRIVATE", "PRIVATE"]
    assert sql(clean_app, "SELECT count(*) AS n FROM decision_log WHERE document_id = %s AND action = 'span_import'",
               (doc,))[0]["n"] == 3
    expected = [(0, 9, "PERSON"), (14, 22, "PERSON"), (BRNO, BRNO + 4, "LOCATION")]
    for fmt in ("brat", "webanno", "xmi", "labelstudio", "conll", "conllu", "presidio", "jsonl"):
        exported = admin_client.get(f"/documents/{doc}/annotations/export/{fmt}")
        assert exported.status_code == 200, (fmt, exported.get_data(as_text=True)[:500])
        assert exported.headers["Cache-Control"] == "no-store"
        copy = add_document(clean_app, TEXT, name=f"copy-{fmt}.txt")
        data = exported.get_data()
        response = _post(admin_client, f"/documents/{copy}/annotations", fmt, data, f"x-{fmt}", gold=True)
        assert response.status_code == 302, (fmt, _problem(response))
        again = admin_client.get(f"/documents/{copy}/annotations/export/jsonl").get_data(as_text=True)
        spans = sorted((r["start"], r["end"], r["category"]) for r in map(json.loads, again.splitlines()))
        assert spans == expected, fmt


def test_project_export_of_a_one_document_format_is_a_zip_named_after_documents(clean_app, admin_client, doc):
    project = default_project(clean_app)
    add_document(clean_app, "Another text about Praha.", name="other.txt")
    response = admin_client.get(f"/documents/project/{project}/annotations/export/brat")
    assert response.status_code == 200
    names = set(zipfile.ZipFile(io.BytesIO(response.get_data())).namelist())
    assert names == {"meeting.ann", "meeting.txt", "other.ann", "other.txt"}


BILLION_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
                  b'<xmi:XMI xmlns:xmi="http://www.omg.org/XMI">&lol2;</xmi:XMI>')


@pytest.mark.parametrize(("fmt", "data", "reason"), [
    ("brat", "T1\tPER 0 9\tEva Malá\n".encode(), "the offsets do not fit this text"),
    ("brat", b"T1\tPER 0 900\tJan\n", "outside the text"),
    ("brat", b"T1\tPER zero nine\tJan\n", "expected &#39;TYPE START END"),
    ("labelstudio", b"[{\"data\": {\"text\": ", "not JSON"),
    ("labelstudio", json.dumps([{"data": {"text": "another text"}}]).encode(), "another text"),
    ("presidio", b'[{"entity_type": "PERSON", "start": "0", "end": 3}]', "whole numbers"),
    ("xmi", BILLION_LAUGHS, "DTD or entities"),
    ("xmi", b"<xmi:XMI", "not well-formed XML"),
    ("webanno", b"hello", "not a WebAnno TSV 3 file"),
    ("conll", b"Petr B-PER\n", "does not match the document text"),
    ("jsonl", b"\x00\x01binary", "binary"),
    ("xmi", b"PK\x03\x04garbage", "not a valid ZIP"),
])
def test_bad_file_is_refused_with_its_reason_and_imports_nothing(clean_app, admin_client, doc, fmt, data, reason):
    response = _post(admin_client, f"/documents/{doc}/annotations", fmt, data, "bad")
    assert response.status_code == 400
    assert reason in response.get_data(as_text=True)
    assert _imported(clean_app, doc) == []


def test_project_import_naming_an_unknown_document_imports_nothing(clean_app, admin_client, doc):
    project = default_project(clean_app)
    lines = [json.dumps({"file": "meeting.txt", "start": 0, "end": 9, "text": "Jan Novák", "type": "PER"}),
             json.dumps({"file": "missing.txt", "start": 0, "end": 3, "type": "PER"})]
    response = _post(admin_client, f"/documents/project/{project}/annotations", "jsonl",
                     "\n".join(lines).encode(), "spans.jsonl")
    assert response.status_code == 400
    assert "no document of this project is named missing.txt" in response.get_data(as_text=True)
    assert _imported(clean_app, doc) == []


def test_unknown_export_format_is_not_found(admin_client, doc):
    assert admin_client.get(f"/documents/{doc}/annotations/export/docx").status_code == 404


@pytest.mark.worker
def test_gold_import_into_a_document_the_real_worker_preprocessed(clean_app, admin_client, celery_worker):
    """Upload → real Celery worker and NER → a Label Studio gold standard imported on the project page → the
    decided spans exported as CoNLL-U: the gold spans come back (psan's own spans stay undecided)."""
    from tests.documents import wait_for_documents
    project = default_project(clean_app)
    token = csrf_token(admin_client, "/documents/upload")
    text = "Jonathan Harper wrote to Acme Corporation in Leeds on Monday."
    response = admin_client.post("/documents/upload", data={"csrf_token": token, "project": str(project),
                                                             "language": "en", "text": text, "name": "letter"},
                                 content_type="multipart/form-data")
    assert response.status_code == 302
    [row] = wait_for_documents(clean_app)
    assert row["status"] == "PRE_ANNOTATED"
    name = sql(clean_app, "SELECT name FROM document WHERE id = %s", (row["id"],))[0]["name"]
    gold = [(text.index("Jonathan Harper"), text.index("Jonathan Harper") + 15, "PER"),
            (text.index("Leeds"), text.index("Leeds") + 5, "GPE")]
    results = [{"id": str(i), "from_name": "label", "to_name": "text", "type": "labels",
                "value": {"start": s, "end": e, "text": text[s:e], "labels": [label]}}
               for i, (s, e, label) in enumerate(gold)]
    tasks = [{"data": {"text": text, "name": name}, "annotations": [{"result": results}]}]
    response = _post(admin_client, f"/documents/project/{project}/annotations", "labelstudio",
                     json.dumps(tasks).encode(), "gold.json", gold=True)
    assert response.status_code == 302, _problem(response)
    exported = admin_client.get(f"/documents/project/{project}/annotations/export/conllu").get_data(as_text=True)
    tags = [line.split("\t")[9] for line in exported.splitlines() if line and not line.startswith("#")]
    assert [t.split("|")[0] for t in tags if not t.startswith("NER=O")] == [
        "NER=B-PERSON", "NER=I-PERSON", "NER=B-LOCATION"]
