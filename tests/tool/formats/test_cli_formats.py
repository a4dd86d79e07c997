"""``psan-tool anonymize`` on a folder of office files, pages and PDFs: each comes back in its own format."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from psan.tool.cli import main
from psan.tool.formats import files as formats
from psan.tool.release.output import restore
from tests.tool.formats.helpers import assert_no_trace
from tests.tool.formats.office_files import EMAIL, NAME, SURNAME, rich_docx, rich_odt


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    pytest.importorskip("docx", reason="python-docx makes the test file")
    pytest.importorskip("odf", reason="odfpy makes the test file")
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "case.docx").write_bytes(rich_docx())
    (root / "sub" / "case.odt").write_bytes(rich_odt())
    (root / "page.html").write_text(f"<html><body><p>Píše {NAME}, <a href='mailto:{EMAIL}'>mail</a></p>"
                                    "</body></html>", encoding="utf-8")
    (root / "note.txt").write_text(f"Dopis pro {NAME}.\n", encoding="utf-8")
    (root / "broken.docx").write_bytes(b"PK\x03\x04broken")
    return root


@pytest.mark.parametrize("mode", ["remove", "tag", "pseudonymize"])
def test_every_format_comes_back_in_its_own_format_without_the_name(folder: Path, tmp_path: Path, mode: str,
                                                                     capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out"
    code = main(["anonymize", str(folder), "--lang", "cs", "--mode", mode, "--out", str(out), "--quiet",
                 "--standoff", "--reason", "round-trip test", "--seed", "3"])
    err = capsys.readouterr().err
    assert code == 2 and "broken.docx: refused: the DOCX file is damaged" in err
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == ["case.docx", "note.txt", "page.html", "sub/case.odt"]
    for name in written:
        data = (out / name).read_bytes()
        assert_no_trace(data, [NAME, SURNAME, EMAIL])
        formats.read(data, name)  # each output opens in its own format
    # the standoff restores psan's text of the page (the text, not the file byte for byte)
    record = json.loads((tmp_path / "out.standoff" / "page.html.json").read_text(encoding="utf-8"))
    original = formats.read((folder / "page.html").read_bytes(), "page.html").text
    if mode != "remove":
        assert restore(formats.read((out / "page.html").read_bytes(), "x.html").text, record["standoff"]) == original


def test_depseudonymize_restores_the_text_of_an_html_output(folder: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "out"
    main(["anonymize", str(folder / "page.html"), "--lang", "cs", "--mode", "pseudonymize", "--out", str(out),
          "--quiet", "--standoff", "--reason", "round-trip test", "--seed", "5"])
    capsys.readouterr()
    key = tmp_path / "out.standoff" / "page.html.json"
    assert main(["depseudonymize", str(out / "page.html"), "--key", str(key), "--reason", "round-trip test"]) == 0
    restored = capsys.readouterr().out
    assert restored == formats.read((folder / "page.html").read_bytes(), "page.html").text
    assert NAME in restored
