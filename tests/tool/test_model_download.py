"""The model downloader against a local HTTP file server the test starts (no internet, no mocks of urllib).

Proves: a good checksum installs the model and records the licence acceptance; a bad checksum, a
truncated download and a missing archive member are refused and leave no file behind; an entry without
a pinned checksum needs ``--trust-unpinned``; the licence must be accepted.
"""
from __future__ import annotations

import hashlib
import io
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from psan.tool.models import cli
from psan.tool.models.fetch import ModelFetchError, install_hint, install_nametag, load_manifest, read_record

MODEL_BYTES = b"not a real NameTag model, only bytes to move around" * 100


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("czech-test/czech-test.ner", MODEL_BYTES)
        zf.writestr("czech-test/README", "readme")
    return buf.getvalue()


ARCHIVE = _zip()
ARCHIVE_SHA = hashlib.sha256(ARCHIVE).hexdigest()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path == "/model.zip":
            self.send_response(200)
            self.send_header("Content-Length", str(len(ARCHIVE)))
            self.end_headers()
            self.wfile.write(ARCHIVE)
        elif self.path == "/truncated.zip":  # promises the whole archive, sends half, hangs up
            self.send_response(200)
            self.send_header("Content-Length", str(len(ARCHIVE)))
            self.end_headers()
            self.wfile.write(ARCHIVE[: len(ARCHIVE) // 2])
            self.wfile.flush()
            self.close_connection = True
        else:
            self.send_error(404)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)


def _model(url: str, sha256: str | None = ARCHIVE_SHA) -> dict:
    return {"name": "czech-test", "kind": "nametag", "title": "test model", "url": url, "sha256": sha256,
            "member": "czech-test/czech-test.ner", "install_as": "czech-test.ner", "licence": "CC BY-NC-SA 3.0",
            "licence_url": None, "licence_note": "test"}


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "LICENCES.json")


def test_good_checksum_installs_the_model_and_records_the_licence(server: str, tmp_path: Path) -> None:
    path = install_nametag(_model(f"{server}/model.zip"), tmp_path, accepted_by="tester")
    assert path.read_bytes() == MODEL_BYTES
    assert _leftovers(tmp_path) == ["czech-test.ner"]
    record = read_record(tmp_path)["czech-test"]
    assert record["archive_sha256"] == ARCHIVE_SHA and record["pinned"] is True
    assert record["licence"] == "CC BY-NC-SA 3.0" and record["accepted_by"] == "tester" and record["accepted_at"]


def test_bad_checksum_is_refused_and_nothing_is_left(server: str, tmp_path: Path) -> None:
    with pytest.raises(ModelFetchError, match="SHA-256 mismatch"):
        install_nametag(_model(f"{server}/model.zip", sha256="0" * 64), tmp_path)
    assert _leftovers(tmp_path) == []
    assert read_record(tmp_path) == {}


def test_partial_download_is_cleaned_up(server: str, tmp_path: Path) -> None:
    with pytest.raises(ModelFetchError, match="nothing installed"):
        install_nametag(_model(f"{server}/truncated.zip"), tmp_path)
    assert _leftovers(tmp_path) == []


def test_missing_file_and_missing_member_are_clear_errors(server: str, tmp_path: Path) -> None:
    with pytest.raises(ModelFetchError, match="404"):
        install_nametag(_model(f"{server}/absent.zip"), tmp_path)
    wrong = {**_model(f"{server}/model.zip"), "member": "czech-test/other.ner"}
    with pytest.raises(ModelFetchError, match="not in the archive"):
        install_nametag(wrong, tmp_path)
    assert _leftovers(tmp_path) == []


def test_unpinned_checksum_needs_trust_and_then_pins_the_digest_seen(server: str, tmp_path: Path) -> None:
    model = _model(f"{server}/model.zip", sha256=None)
    with pytest.raises(ModelFetchError, match="trust-unpinned"):
        install_nametag(model, tmp_path)
    assert _leftovers(tmp_path) == []
    install_nametag(model, tmp_path, trust_unpinned=True)
    assert read_record(tmp_path)["czech-test"]["archive_sha256"] == ARCHIVE_SHA
    install_nametag(model, tmp_path)  # the recorded digest now verifies the next download


def test_cli_refuses_without_accepted_licence_and_installs_with_it(server: str, tmp_path: Path, monkeypatch,
                                                                   capsys) -> None:
    monkeypatch.setattr("psan.tool.models.cli.load_manifest", lambda: [_model(f"{server}/model.zip")])
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["download", "czech-test", "--models-dir", str(tmp_path)]) == 2
    assert "--accept-licence" in capsys.readouterr().err
    assert not (tmp_path / "czech-test.ner").exists()
    assert cli.main(["download", "czech-test", "--models-dir", str(tmp_path), "--accept-licence"]) == 0
    out = capsys.readouterr().out
    assert "CC BY-NC-SA 3.0" in out and "PSAN_NAMETAG_MODELS" in out
    assert (tmp_path / "czech-test.ner").read_bytes() == MODEL_BYTES


def test_manifest_names_official_sources_licences_and_the_opt_in() -> None:
    models = {m["name"]: m for m in load_manifest()}
    assert models["czech"]["default"] and models["czech"]["url"].startswith("https://lindat.mff.cuni.cz/")
    assert all("NC-SA" in m["licence"] for m in models.values())
    assert models["spacy-czech"].get("opt_in") and not models["spacy-czech"].get("default")
    assert install_hint("cs") == "make models" and install_hint("sk") == "make models"
