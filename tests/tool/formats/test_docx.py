"""DOCX in, DOCX out: a name planted in every part is gone from every member, the layout is kept."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from psan.tool.formats import files as formats
from tests.tool.formats.helpers import assert_no_trace, libreoffice_text, round_trip
from tests.tool.formats.office_files import EMAIL, NAME, SURNAME, rich_docx

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
NAME_OR_MAIL = rf"{NAME}|{SURNAME}|{EMAIL}"


def _counts(data: bytes) -> dict[str, int]:
    z = zipfile.ZipFile(io.BytesIO(data))
    counts = {"p": 0, "tbl": 0, "image": 0}
    for name in z.namelist():
        if name.startswith("word/") and name.endswith(".xml"):
            root = etree.fromstring(z.read(name))
            counts["p"] += sum(1 for _ in root.iter(f"{W}p"))
            counts["tbl"] += sum(1 for _ in root.iter(f"{W}tbl"))
            counts["image"] += sum(1 for _ in root.iter("{http://schemas.openxmlformats.org/drawingml/2006/main}blip"))
    return counts


@pytest.fixture(scope="module")
def docx_file() -> bytes:
    pytest.importorskip("docx", reason="python-docx makes the test file")
    return rich_docx()


def test_every_part_is_read(docx_file: bytes) -> None:
    opened = formats.read(docx_file, "case.docx")
    parts = opened.report.parts
    for kind in ("body", "table", "header", "footer", "footnote", "comment", "tracked change", "text box",
                 "content control", "field", "image", "alt text", "hyperlink"):
        assert parts.get(kind), f"{kind} not found: {parts}"
    # the name is in psan's text once per place it was planted in (run, cell, header … alt text, tag)
    assert opened.text.count(NAME) >= 14
    assert EMAIL in opened.text
    assert "smazal" not in opened.text  # the tracked deletion is accepted: gone
    assert "vložil" in opened.text
    removed = " ".join(opened.report.removed)
    for field in ("creator", "lastModifiedBy", "title", "Company", "Manager", "comment and revision authors"):
        assert field in removed
    assert "custom document properties" in opened.report.dropped


def test_name_is_gone_from_every_member_and_layout_is_kept(docx_file: bytes, tmp_path: Path) -> None:
    opened, out = round_trip(docx_file, "case.docx", NAME_OR_MAIL)
    assert_no_trace(out, [NAME, SURNAME, EMAIL, "smazal"])
    assert _counts(out) == _counts(docx_file)
    again = formats.read(out, "case.docx")
    assert again.text.count("Petr Svoboda") == opened.text.count(NAME) + opened.text.count(EMAIL)
    text = libreoffice_text(out, ".docx", tmp_path)
    assert "Petr Svoboda" in text and SURNAME not in text


def test_split_name_keeps_each_runs_formatting(docx_file: bytes) -> None:
    _, out = round_trip(docx_file, "case.docx", NAME_OR_MAIL)
    body = etree.fromstring(zipfile.ZipFile(io.BytesIO(out)).read("word/document.xml"))
    first = body.find(f".//{W}p")
    runs = [(r.findtext(f"{W}t"), r.find(f"{W}rPr/{W}b") is not None) for r in first.iter(f"{W}r")]
    assert ("Petr", True) in runs  # "Jan" was bold: its surrogate word is bold
    assert any(t and t.startswith(" Svoboda") and not bold for t, bold in runs)


def test_reject_keeps_deletions_and_drops_insertions(docx_file: bytes) -> None:
    opened = formats.read(docx_file, "case.docx", formats.Options(tracked_changes="reject"))
    assert "smazal" in opened.text and "vložil" not in opened.text
    _, out = round_trip(docx_file, "case.docx", NAME_OR_MAIL, options=formats.Options(tracked_changes="reject"))
    assert_no_trace(out, [NAME, SURNAME, "vložil"])
    assert b"w:del " not in zipfile.ZipFile(io.BytesIO(out)).read("word/document.xml")


def test_tag_mode_spread_over_runs_writes_the_tag_once(docx_file: bytes) -> None:
    _, out = round_trip(docx_file, "case.docx", NAME_OR_MAIL, replacement="[PERSON]")
    text = formats.read(out, "case.docx").text
    assert text.startswith("Rozsudek ve věci [PERSON], bytem v Praze.")


def test_docx_saved_by_libreoffice_is_processed(docx_file: bytes, tmp_path: Path) -> None:
    """A DOCX written by another program (LibreOffice) reads and writes back without a trace."""
    import subprocess

    from tests.tool.formats.helpers import soffice
    exe = soffice()
    src = tmp_path / "src.docx"
    src.write_bytes(docx_file)
    (tmp_path / "lo").mkdir()
    subprocess.run([exe, f"-env:UserInstallation=file://{tmp_path}/profile", "--headless", "--convert-to",
                    "docx:MS Word 2007 XML", str(src), "--outdir", str(tmp_path / "lo")],
                   capture_output=True, timeout=180, check=True)
    saved = (tmp_path / "lo" / "src.docx").read_bytes()
    _, out = round_trip(saved, "saved.docx", NAME_OR_MAIL)
    assert_no_trace(out, [NAME, SURNAME, EMAIL])
