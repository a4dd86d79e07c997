"""The model downloader against a local HTTP file server the test starts (no internet, no mocks of urllib).

Proves: a good checksum installs the model and records the licence acceptance; a bad checksum, a
truncated download and a missing archive member are refused and leave no file behind; an entry without
a pinned checksum needs ``--trust-unpinned``; the licence must be accepted.
"""
from __future__ import annotations

import hashlib
import io
import re
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


#: archives served under /served/<name> by tests that add them
SERVED: dict[str, bytes] = {}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path.startswith("/served/") and self.path[len("/served/"):] in SERVED:
            body = SERVED[self.path[len("/served/"):]]
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/model.zip":
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
    # the hint is a command that works: while no checksum is pinned the download needs --trust-unpinned
    hint = "make models" if models["czech"]["sha256"] else "make models MODELS_ARGS=--trust-unpinned"
    assert install_hint("cs") == hint and install_hint("sk") == hint


def test_the_install_hint_drops_trust_unpinned_once_the_checksum_is_pinned(monkeypatch) -> None:
    from psan.tool.models import fetch
    pinned = [{**m, "sha256": "0" * 64} for m in load_manifest()]
    monkeypatch.setattr(fetch, "load_manifest", lambda: pinned)
    assert install_hint("cs") == "make models"
    assert install_hint("en") == "psan-tool models download english"
    monkeypatch.setattr(fetch, "load_manifest", lambda: [{**m, "sha256": None} for m in pinned])
    assert install_hint("en") == "psan-tool models download english --trust-unpinned"


def test_an_installed_czech_model_is_the_one_psan_runs(server: str, tmp_path: Path, shared_dir: Path) -> None:
    """The manifest's Czech entry, served from a local mirror (the shared NameTag model packed like the official
    archive), installs where psan looks, loads, finds names, and makes the Czech default pipeline use NER."""
    from ufal.nametag import Forms, NamedEntities, TokenRanges

    from psan.tool.detection.defaults import default_config, fallback_notice, find_nametag_model
    from psan.tool.detection.ner.nametag import load_model
    from psan.tool.models.fetch import entry
    model = shared_dir / "models" / "nametag" / "czech-cnec2-trivial.ner"
    if not model.is_file():
        pytest.skip(f"no shared Czech NameTag model at {model}")
    czech = entry("czech")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(czech["member"], model.read_bytes())
    SERVED["czech.zip"] = buf.getvalue()
    mirror = {**czech, "sha256": hashlib.sha256(SERVED["czech.zip"]).hexdigest()}
    assert fallback_notice(default_config("sk", str(tmp_path))) is not None  # before: no NER
    path = install_nametag(mirror, tmp_path, url=f"{server}/served/czech.zip", accepted_by="tester")
    assert find_nametag_model("cs", str(tmp_path)) == str(path)
    assert fallback_notice(default_config("cs", str(tmp_path))) is None
    assert fallback_notice(default_config("sk", str(tmp_path))) is None  # Slovak names through the Czech model
    ner = load_model(str(path))  # psan's loader; then NameTag's own tokenizer and recognizer
    forms, tokens, entities = Forms(), TokenRanges(), NamedEntities()
    tokenizer = ner.newTokenizer()
    text = "Obžalovaná Metka Nováková z Brna potkala Jana Nováka v Praze."
    tokenizer.setText(text)
    found = []
    while tokenizer.nextSentence(forms, tokens):
        ner.recognize(forms, entities)
        found += [text[tokens[e.start].start:tokens[e.start + e.length - 1].start
                       + tokens[e.start + e.length - 1].length] for e in entities]
    assert "Jana Nováka" in found, found


def test_psan_tool_lists_the_models_and_what_is_installed(tmp_path: Path, capsys) -> None:
    from psan.tool.cli import main
    assert main(["models", "list", "--models-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^czech\s+default\s+CC BY-NC-SA", out, re.M) and re.search(r"^spacy-czech\s+opt-in", out, re.M)
