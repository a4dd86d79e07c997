"""Pseudonymized downloads, the pseudonymization key export and de-pseudonymization.

Documents are inserted directly (tests/documents.py); their PERSON spans are made
private by setting the NE_TYPE rule's confidence to -1, and labelled by person decisions.
"""
from __future__ import annotations

import html
import io
import json
import subprocess
import sys
import zipfile

import pytest

from psan.tool.release.key import parse_key, restore_output
from tests.documents import add_document, label_span
from tests.helpers import csrf_token, new_project, sql
from tests.people import SMITH_TEXT_A, SMITH_TEXT_B, SMITH_WORDS
from tests.web.helpers import add_label


@pytest.fixture()
def project(clean_app):
    """Two annotated documents: John Smith (label 1, surrogate), Mary Brown (label 2, admin replacement
    "the client"), Peter Novak (no label, surrogate); plus one not yet recognized document."""
    app = clean_app
    pid = new_project(app, "Key project")
    people = [("John Smith", "PERSON"), ("Mary Brown", "PERSON"), ("Peter Novak", "PERSON")]
    a = add_document(app, SMITH_TEXT_A, people, project_id=pid, name="a.txt")
    b = add_document(app, SMITH_TEXT_B, people, project_id=pid, name="b.txt")
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE'", (pid,))
    client_label = add_label(app, pid, "john", "PERSON")
    mary_label = add_label(app, pid, "mary", "PERSON", replacement="the client")
    for doc, johns in ((a, 2), (b, 1)):
        for n in range(johns):
            label_span(app, doc, "John", client_label, n)
        label_span(app, doc, "Mary", mary_label)
    new = sql(app, "INSERT INTO document (project_id, name, language, status, text) VALUES (%s, 'new.txt', 'en', "
                   "'NEW', 'John Smith waits.') RETURNING id", (pid,))[0]["id"]
    return {"pid": pid, "a": a, "b": b, "new": new, "texts": {a: SMITH_TEXT_A, b: SMITH_TEXT_B}}


def _zip_members(client, pid: int, kind: str) -> dict[str, str]:
    response = client.get(f"/documents/project/{pid}/download/{kind}")
    assert response.status_code == 200
    zf = zipfile.ZipFile(io.BytesIO(response.get_data()))
    # the release report and MASKED.json (counts only) are tested in tests/web/test_release*.py
    return {name: zf.read(name).decode("utf-8") for name in zf.namelist()
            if name not in ("RELEASE_REPORT.json", "RELEASE_REPORT.html", "MASKED.json")}


def _key(client, path: str) -> dict:
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Content-Disposition"].startswith("attachment")
    return json.loads(response.get_data(as_text=True))


def _depseudonymize(client, output: bytes, key: bytes, key_name: str = "key.json", **form):
    token = csrf_token(client, "/documents/upload")
    form.setdefault("reason", "audit check")
    return client.post("/documents/depseudonymize", content_type="multipart/form-data",
                       data={"csrf_token": token, "output": (io.BytesIO(output), "a.pseudonymize.txt"),
                             "key": (io.BytesIO(key), key_name), **form})


def test_pseudonymized_downloads_are_consistent_and_leak_nothing(admin_client, project):
    a, b, pid = project["a"], project["b"], project["pid"]
    single = {d: admin_client.get(f"/documents/{d}/download/pseudonymize").get_data(as_text=True) for d in (a, b)}
    for text in single.values():
        for word in SMITH_WORDS:
            assert word not in text, (word, text)
    assert "the client" in single[a] and "the client" in single[b]  # the admin's label replacement wins
    assert "Žluťoučký kůň: call " in single[a] and "\r\n" in single[a] and "\there.\n" in single[b]
    # a single download is the same document of the project ZIP; the not recognized one is skipped
    members = _zip_members(admin_client, pid, "pseudonymize")
    assert members == {"a.pseudonymize.txt": single[a], "b.pseudonymize.txt": single[b]}
    assert admin_client.get(f"/documents/{project['new']}/download/pseudonymize").status_code == 409
    # same label → same surrogate in every document; the unlabelled Peter Novak too (same original)
    key = _key(admin_client, f"/documents/project/{pid}/key.json?reason=audit+check")
    by_entity: dict[str, set[str]] = {}
    for e in key["entries"]:
        by_entity.setdefault(e["entity"], set()).add(e["replacement"])
    john = {e["replacement"] for e in key["entries"] if e["original_text"] == "John Smith"}
    assert len(john) == 1 and john <= by_entity["label:1"] and john.pop() in single[b]
    assert {e["replacement"] for e in key["entries"] if e["original_text"] == "Mary Brown"} == {"the client"}
    assert {e["source"] for e in key["entries"] if e["original_text"] == "Mary Brown"} == {"label"}
    peter = {e["replacement"] for e in key["entries"] if e["original_text"] == "Peter Novak"}
    assert len(peter) == 1 and {e["source"] for e in key["entries"] if e["label"] is None} == {"surrogate"}
    assert {e["label_name"] for e in key["entries"] if e["label"] == 1} == {"john"}
    # tag and remove outputs are unchanged (label tags, no surrogates)
    tagged = admin_client.get(f"/documents/{a}/download/tag").get_data(as_text=True)
    assert "[PERSON-1]" in tagged and "[PERSON-2]" in tagged and "Smith" not in tagged


def test_project_key_round_trips_byte_for_byte(admin_client, project, tmp_path):
    a, b, pid = project["a"], project["b"], project["pid"]
    key_text = admin_client.get(f"/documents/project/{pid}/key.json?reason=audit+check").get_data(as_text=True)
    key = json.loads(key_text)
    assert {d["name"] for d in key["documents"]} == {"a.txt", "b.txt"}
    assert {"document_id", "document_name", "original_start", "original_end", "original_text", "category", "label",
            "replacement", "output_start", "output_end"} <= set(key["entries"][0])
    members = _zip_members(admin_client, pid, "pseudonymize")
    outputs = {a: members["a.pseudonymize.txt"], b: members["b.pseudonymize.txt"]}
    assert all("key" not in name for name in members)  # the key is never inside the output ZIP
    csv_response = admin_client.get(f"/documents/project/{pid}/key.csv?reason=audit+check")
    assert csv_response.headers["Cache-Control"] == "no-store"
    for parsed in (parse_key(key_text), parse_key(csv_response.get_data(as_text=True), "csv")):
        for doc, output in outputs.items():
            assert restore_output(parsed, output, str(doc)) == (str(doc), project["texts"][doc])
            assert restore_output(parsed, output) == (str(doc), project["texts"][doc])  # found by fitting
    for doc, output in outputs.items():
        # the web form, with the project key (document picked by fitting or by name) and the document key
        response = _depseudonymize(admin_client, output.encode(), key_text.encode())
        assert response.status_code == 200 and response.get_data() == project["texts"][doc].encode()
        assert response.headers["Cache-Control"] == "no-store"
        doc_key = admin_client.get(f"/documents/{doc}/key.json?reason=audit+check")
        assert doc_key.headers["Cache-Control"] == "no-store"
        response = _depseudonymize(admin_client, output.encode(), doc_key.get_data())
        assert response.get_data() == project["texts"][doc].encode()
        response = _depseudonymize(admin_client, output.encode(), csv_response.get_data(), "key.csv",
                                   document=f"{'a' if doc == a else 'b'}.txt")
        assert response.get_data() == project["texts"][doc].encode()
        # the command line writes the original bytes to stdout
        (tmp_path / "out.txt").write_bytes(output.encode())
        (tmp_path / "key.json").write_text(key_text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "psan.tool.cli.depseudonymize", str(tmp_path / "out.txt"),
                               "--key", str(tmp_path / "key.json"), "--document", str(doc),
                               "--reason", "audit check", "--access-log", str(tmp_path / "access.jsonl")],
                              capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout == project["texts"][doc].encode()
        logged = json.loads((tmp_path / "access.jsonl").read_text(encoding="utf-8").splitlines()[-1])
        assert logged["reason"] == "audit check" and logged["action"] == "depseudonymize" and logged["who"]
    # the cli refuses a foreign output with exit status 2 and a message
    (tmp_path / "out.txt").write_bytes(b"something else entirely")
    done = subprocess.run([sys.executable, "-m", "psan.tool.cli.depseudonymize", str(tmp_path / "out.txt"),
                           "--key", str(tmp_path / "key.json"), "--document", str(a),
                           "--reason", "audit check", "--access-log", str(tmp_path / "access.jsonl")],
                          capture_output=True, check=False)
    assert done.returncode == 2 and b"does not match the key" in done.stderr and not done.stdout


def test_malformed_keys_and_outputs_are_400(admin_client, project):
    a = project["a"]
    output = admin_client.get(f"/documents/{a}/download/pseudonymize").get_data()
    good = json.loads(admin_client.get(f"/documents/{a}/key.json?reason=audit+check").get_data(as_text=True))
    wrong_types = {"entries": [dict(good["entries"][0], output_start="x")]}
    other = admin_client.get(f"/documents/{project['b']}/key.json?reason=audit+check").get_data()
    cases = [
        (b"not json at all", "not a JSON key file"),
        (b"[1, 2]", "'entries' list"),
        (b'{"entries": [1]}', "not an object"),
        (json.dumps(wrong_types).encode(), "non-negative integer"),
        (json.dumps({"version": 7, "entries": []}).encode(), "version"),
        (b"\xff\xfe garbage", "not UTF-8"),
        (other, "does not match the key"),
        (b'{"entries": []}', "holds no document"),
    ]
    for key, message in cases:
        response = _depseudonymize(admin_client, output, key)
        assert response.status_code == 400, (key, response.status_code)
        page = html.unescape(response.get_data(as_text=True))
        assert message in page, (message, page[-600:])
    edited = output.replace(output[:4], b"Xx" + output[2:4], 1)
    assert _depseudonymize(admin_client, edited, json.dumps(good).encode()).status_code == 400
    assert _depseudonymize(admin_client, b"\xff\xfe", json.dumps(good).encode()).status_code == 400
    token = csrf_token(admin_client, "/documents/upload")
    response = admin_client.post("/documents/depseudonymize", data={"csrf_token": token, "reason": "audit check"},
                                 content_type="multipart/form-data")
    assert response.status_code == 400 and "Choose the output file" in response.get_data(as_text=True)
    # a project key where no document is named and several could fit is a 400 asking for the document
    response = _depseudonymize(admin_client, b"no surrogate here", admin_client.get(
        f"/documents/project/{project['pid']}/key.json?reason=audit+check").get_data())
    assert response.status_code == 400 and "choose the document" in response.get_data(as_text=True)


def test_key_routes_are_admin_only_and_check_ids(admin_client, user_client, project):
    pid, a = project["pid"], project["a"]
    paths = [f"/documents/project/{pid}/key.json?reason=audit+check",
             f"/documents/project/{pid}/key.csv?reason=audit+check", f"/documents/{a}/key.json?reason=audit+check"]
    for path in paths:
        assert user_client.get(path).status_code == 403, path
    token = csrf_token(user_client, "/auth/password")
    response = user_client.post("/documents/depseudonymize", content_type="multipart/form-data",
                                data={"csrf_token": token, "output": (io.BytesIO(b"x"), "o.txt"),
                                      "key": (io.BytesIO(b"{}"), "k.json")})
    assert response.status_code == 403
    for path in ("/documents/project/999999/key.json", "/documents/project/999999/key.csv",
                 "/documents/999999/key.json", "/documents/project/abc/key.json?reason=audit+check"):
        assert admin_client.get(path).status_code == 404, path
    assert admin_client.get(f"/documents/{project['new']}/key.json?reason=audit+check").status_code == 409
    assert admin_client.get("/documents/depseudonymize").status_code == 405
