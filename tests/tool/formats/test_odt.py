"""ODT in, ODT out: a name planted in every part is gone from every member, the layout is kept."""
from __future__ import annotations

import io
import subprocess
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from psan.tool.formats import files as formats
from tests.tool.formats.helpers import assert_no_trace, libreoffice_text, round_trip, soffice
from tests.tool.formats.office_files import EMAIL, NAME, SURNAME, rich_docx, rich_odt

NAME_OR_MAIL = rf"{NAME}|{SURNAME}|{EMAIL}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"


def _counts(data: bytes) -> dict[str, int]:
    root = etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read("content.xml"))
    # the paragraphs of the document, not the deleted ones LibreOffice keeps in its change list
    return {"p": sum(1 for p in root.iter(f"{TEXT}p", f"{TEXT}h")
                     if not any(a.tag == f"{TEXT}tracked-changes" for a in p.iterancestors())),
            "table": sum(1 for _ in root.iter("{urn:oasis:names:tc:opendocument:xmlns:table:1.0}table")),
            "image": sum(1 for _ in root.iter("{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}image"))}


@pytest.fixture(scope="module")
def odt_file() -> bytes:
    pytest.importorskip("odf", reason="odfpy makes the test file")
    return rich_odt()


def test_every_part_is_read(odt_file: bytes) -> None:
    opened = formats.read(odt_file, "case.odt")
    for kind in ("body", "table", "header", "footer", "footnote", "comment", "tracked change", "text box",
                 "image", "alt text", "hyperlink"):
        assert opened.report.parts.get(kind), f"{kind} not found: {opened.report.parts}"
    assert opened.text.count(NAME) >= 10
    assert "smazal" not in opened.text and "vložil" in opened.text
    removed = " ".join(opened.report.removed)
    for field in ("initial-creator", "creator", "title", "user-defined", "comment authors", "revision authors"):
        assert field in removed


def test_name_is_gone_from_every_member_and_layout_is_kept(odt_file: bytes, tmp_path: Path) -> None:
    opened, out = round_trip(odt_file, "case.odt", NAME_OR_MAIL)
    assert_no_trace(out, [NAME, SURNAME, EMAIL, "smazal"])
    assert _counts(out) == _counts(odt_file)
    members = zipfile.ZipFile(io.BytesIO(out))
    assert members.namelist()[0] == "mimetype" and members.getinfo("mimetype").compress_type == zipfile.ZIP_STORED
    text = libreoffice_text(out, ".odt", tmp_path)
    assert "Petr Svoboda" in text and SURNAME not in text


def test_reject_mode_is_refused_with_a_reason(odt_file: bytes) -> None:
    with pytest.raises(formats.FormatError, match="accept"):
        formats.read(odt_file, "case.odt", formats.Options(tracked_changes="reject"))


def test_odt_saved_by_libreoffice_is_processed(tmp_path: Path) -> None:
    """An ODT written by LibreOffice (from the planted DOCX) reads and writes back without a trace."""
    pytest.importorskip("docx", reason="python-docx makes the source file")
    exe = soffice()
    src = tmp_path / "src.docx"
    src.write_bytes(rich_docx())
    subprocess.run([exe, f"-env:UserInstallation=file://{tmp_path}/profile", "--headless", "--convert-to", "odt",
                    str(src), "--outdir", str(tmp_path)], capture_output=True, timeout=180, check=True)
    saved = (tmp_path / "src.odt").read_bytes()
    opened, out = round_trip(saved, "saved.odt", NAME_OR_MAIL)
    assert "comment" in opened.report.parts and "header" in opened.report.parts
    assert_no_trace(out, [NAME, SURNAME, EMAIL])
