"""A script's whole day through the API and psan.client only: project, uploads (one a ZIP), pre-processing by the
real Celery worker, spans, decisions through an annotate-scoped token in the annotator's window, release ZIP and
its report (real PostgreSQL, Redis and worker; no mocks)."""
from __future__ import annotations

import io
import json
import zipfile

import pytest

from psan.client import ApiError, Client, WsgiTransport
from tests.api.tokens import make_token
from tests.helpers import account_id, make_account

pytestmark = pytest.mark.worker

TEXT_A = "John Smith met Mary Brown in London on Monday. Write to john.smith@example.org or call him.\n"
TEXT_B = "Mary Brown called John Smith from Paris yesterday.\n"
TEXT_C = "Peter Novak wrote to Acme Corporation about John Smith.\n"


def _zip(name: str, text: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(name, text.encode())
    return buf.getvalue()


def test_project_to_release_through_the_api_only(clean_app, celery_worker):
    app = clean_app
    make_account(app, "steward@example.org", "ADMIN")
    make_account(app, "annotator@example.org", "USER")
    admin = Client(token=make_token(app, "steward@example.org", "admin"), transport=WsgiTransport(app.test_client()))

    project = admin.create_project("Nightly export", "en", members=[account_id(app, "annotator@example.org")])
    pid = project["id"]
    assert project["members"] == [account_id(app, "annotator@example.org")]
    uploaded = admin.upload(pid, [("a.txt", TEXT_A.encode()), ("b.txt", TEXT_B.encode()),
                                  ("more.zip", _zip("c.txt", TEXT_C))], language="en")
    assert sorted(d["name"] for d in uploaded["documents"]) == ["a.txt", "b.txt", "c.txt"], uploaded
    assert uploaded["refused"] == []

    documents = admin.wait_for_documents(pid, timeout=240, poll=0.3)
    assert [d["status"] for d in documents] == ["PRE_ANNOTATED"] * 3, documents
    assert all(d["ready"] and not d["busy"] and d["tokens"] > 5 for d in documents)

    # pre-annotations of the team's own model arrive as a BRAT file: suspicious spans a person still decides
    c = next(d for d in documents if d["name"] == "c.txt")
    acme = TEXT_C.index("Acme")
    imported = admin.import_spans("brat", "c.ann", f"T1\tPER {acme} {acme + 4}\tAcme\n".encode(), document_id=c["id"])
    assert imported["spans"] == 1 and imported["documents"] == {str(c["id"]): 1} and imported["decided"] == 0
    assert any((s["start"], s["end"]) == (acme, acme + 4) for s in admin.spans(c["id"]))
    with pytest.raises(ApiError) as bad:
        admin.import_spans("brat", "c.ann", b"T1\tPER 0 4\tNope\n", document_id=c["id"])  # text does not match
    assert bad.value.status == 400 and bad.value.code == "invalid_file"

    spans = admin.spans(documents[0]["id"])
    texts = {s["text"]: s for s in spans}
    assert texts["john.smith@example.org"]["decision"] == "PRIVATE"  # checksum/pattern spans are private at once
    person = next(s for s in spans if s["text"] == "John Smith")
    assert person["decision"] == "SUSPICIOUS" and "PERSON" in " ".join(person["ne_types"])
    assert all(TEXT_A[s["start"]:s["end"]] == s["text"] for s in spans)

    # the annotator decides through an annotate-scoped token of this project, inside the window the page would give
    annotator = Client(token=make_token(app, "annotator@example.org", "annotate", [pid]),
                       transport=WsgiTransport(app.test_client()))
    with pytest.raises(ApiError) as refused:
        annotator.spans(documents[0]["id"])  # reading whole documents is not the annotator's
    assert refused.value.code == "scope_insufficient"
    decided = 0
    answer = annotator.window()
    while answer["window"] is not None and decided < 20:
        window = answer["window"]
        pending = [a for a in answer["annotations"] if a["decision"] == "SUSPICIOUS"]
        if not pending:
            answer = annotator.next_window()
            continue
        a = pending[0]
        with pytest.raises(ApiError) as outside:  # a span outside the window is refused as on the page
            annotator.decide(window["document_id"], window["end_token"] + 5, window["end_token"] + 6, "PUBLIC")
        assert outside.value.status == 403
        answer = annotator.decide(window["document_id"], a["first_token"], a["end_token"], "PRIVATE")
        assert answer["action_id"] > 0
        decided += 1
    assert decided >= 1
    by_person = [s for d in documents for s in admin.spans(d["id"]) if s["decided_by"] == "person"]
    assert len(by_person) >= decided and {s["decision"] for s in by_person} == {"PRIVATE"}

    # release: start, poll, download; the report as JSON
    job = admin.start_release(pid, "pseudonymize")
    assert job["status"] in ("QUEUED", "RUNNING", "DONE") and job["kind"] == "pseudonymize"
    done = admin.wait_for_release(job["id"], timeout=240, poll=0.3)
    assert done["file"].endswith(f"/release-jobs/{job['id']}/file")
    archive = zipfile.ZipFile(io.BytesIO(admin.download_release(job["id"])))
    names = set(archive.namelist())
    assert {"RELEASE_REPORT.json", "RELEASE_REPORT.html"} <= names
    released = "".join(archive.read(n).decode() for n in names if n.endswith(".txt"))
    assert "john.smith@example.org" not in released and "John Smith" not in released
    report = admin.release_report(pid)
    zipped = json.loads(archive.read("RELEASE_REPORT.json"))
    assert report["totals"] == zipped["totals"] and report["totals"]["documents"] == 3
    assert report["totals"]["by_how"].get("person", 0) >= decided

    # the decided spans go out again in another tool's format (here psan's span JSONL, one line per span)
    exported = [json.loads(line) for line in admin.export_spans("jsonl", project_id=pid).decode().splitlines()]
    assert {s["file"] for s in exported} <= {"a.txt", "b.txt", "c.txt"}
    assert {"John Smith", "john.smith@example.org"} <= {s["text"] for s in exported}
