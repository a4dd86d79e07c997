"""Uploading documents: text area, files, ZIPs; encodings, binary, empty, traversal, bombs; access."""
from __future__ import annotations

import io
import zipfile

import pytest

from psan.documents.upload import Limits, UploadError, decode, read_upload, read_zip
from tests.helpers import csrf_token, sql

LIMITS = Limits(max_chars=10_000, max_members=8, max_uncompressed=100_000)


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_decode_rules():
    assert decode("Žluťoučký kůň".encode(), "a.txt", 100).note == ""
    converted = decode("Příliš žluťoučký kůň úpěl ďábelské ódy, řekl pan Dvořák.".encode("cp1250"), "b.txt", 1000)
    assert "Dvořák" in converted.text and converted.note.startswith("converted from")
    assert decode("\ufeffhi".encode("utf-16"), "c.txt", 100).text.endswith("hi")
    assert "\x1b" in decode(b"escape \x1b[0m kept", "d.txt", 100).text  # a control character stays text
    for data, message in ((b"", "empty"), (b"  \n ", "empty"), (b"%PDF-1.4 ...", "PDF"),
                          (bytes(range(256)) * 4, "binary"), (b"x" * 101, "limit")):
        with pytest.raises(UploadError, match=message):
            decode(data, "f.txt", 100)


def test_zip_members_traversal_and_limits():
    data = _zip({"a.txt": b"first", "dir/b.txt": b"second", "../evil.txt": b"x", "/abs.txt": b"y",
                 "img.png": b"\x89PNG", "__MACOSX/._a.txt": b"junk"})
    files, errors = read_zip(data, "z.zip", LIMITS)
    assert [(f.name, f.text) for f in files] == [("a.txt", "first"), ("b.txt", "second")]
    assert any("unsafe path" in e and "evil" in e for e in errors)
    assert any("abs.txt" in e for e in errors)
    assert any("only .txt" in e for e in errors)
    with pytest.raises(UploadError, match="limit"):
        read_zip(_zip({f"{i}.txt": b"x" for i in range(9)}), "many.zip", LIMITS)
    bomb = _zip({"bomb.txt": b"a" * 5_000_000})
    assert len(bomb) < 20_000
    with pytest.raises(UploadError, match="unpacks to more"):
        read_zip(bomb, "bomb.zip", LIMITS)
    files, errors = read_upload(b"not a zip", "x.zip", LIMITS)
    assert not files and "not a valid ZIP" in errors[0]


def _upload(client, project_id, **data):
    token = csrf_token(client, "/documents/upload")
    return client.post("/documents/upload", data={"csrf_token": token, "project": str(project_id), "language": "",
                                                  **data}, content_type="multipart/form-data")


def test_upload_refusals_are_messages(admin_client, clean_app):
    pid = sql(clean_app, "SELECT id FROM project WHERE is_default")[0]["id"]
    response = _upload(admin_client, pid, files=[(io.BytesIO(b""), "empty.txt"),
                                                 (io.BytesIO(b"\x00\x01\x02binary"), "bin.txt"),
                                                 (io.BytesIO(_zip({"../../etc/passwd.txt": b"x"})), "t.zip")])
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "empty.txt: the file is empty" in page and "bin.txt" in page and "unsafe path" in page
    assert not sql(clean_app, "SELECT 1 FROM document")


def test_upload_forged_project_and_annotator(admin_client, user_client, clean_app):
    response = _upload(admin_client, 999999, text="hello")
    assert response.status_code == 200 and "Not a valid choice" in response.get_data(as_text=True)
    assert admin_client.get("/documents/?project=999999").status_code == 404
    assert admin_client.get("/documents/?project=abc").status_code == 404
    assert admin_client.get("/documents/status?project=999999").status_code == 404
    assert admin_client.get("/documents/999999/download/input").status_code == 404
    assert admin_client.get("/documents/1/download/nonsense").status_code == 404
    for path in ("/documents/", "/documents/upload", "/documents/status?project=1", "/documents/1/download/input"):
        assert user_client.get(path).status_code == 403
    token = csrf_token(user_client, "/auth/password")
    assert user_client.post("/documents/1/delete", data={"csrf_token": token}).status_code == 403
