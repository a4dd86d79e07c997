"""HTML, PDF and plain text: the name planted everywhere is gone; scripts and comments are removed."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import html

from psan.tool.formats import files as formats
from tests.tool.formats.helpers import assert_no_trace, libreoffice_text, round_trip
from tests.tool.formats.office_files import EMAIL, NAME, SURNAME

PAGE = f"""<!DOCTYPE html>
<html lang="cs"><head><meta charset="utf-8"><title>Věc {NAME}</title><meta name="author" content="{NAME}">
<script>var client = "{NAME}";</script></head>
<body onload="track('{NAME}')"><!-- připravil {NAME} -->
<h1>Rozsudek</h1><p>Ve věci <b>Jan</b> {SURNAME} a <a href="mailto:{EMAIL}" title="{NAME}">napište</a>.</p>
<table><tr><td>Žalobce</td><td>{NAME}</td></tr></table>
<img src="foto.png" alt="Fotografie {NAME}"><input value="{NAME}" placeholder="{NAME}">
</body></html>"""


def _counts(data: bytes) -> dict[str, int]:
    root = html.document_fromstring(data)
    return {tag: len(root.findall(f".//{tag}")) for tag in ("p", "table", "img", "td", "h1")}


def test_html_round_trip_leaves_no_trace_and_keeps_the_markup(tmp_path: Path) -> None:
    data = PAGE.encode()
    opened, out = round_trip(data, "page.html", rf"{NAME}|{SURNAME}|{EMAIL}")
    assert "script" in " ".join(opened.report.dropped) and "HTML comments" in opened.report.dropped
    assert_no_trace(out, [NAME, SURNAME, EMAIL])
    assert _counts(out) == _counts(data)
    assert b"<b>Petr</b> Svoboda" in out  # the bold word keeps its bold
    text = libreoffice_text(out, ".html", tmp_path)
    assert "Petr Svoboda" in text


def test_html_in_a_legacy_encoding_is_written_as_utf8() -> None:
    data = PAGE.replace("utf-8", "windows-1250").encode("cp1250")
    opened, out = round_trip(data, "page.htm", rf"{NAME}|{SURNAME}|{EMAIL}")
    assert "Žalobce" in opened.text
    assert b'charset="utf-8"' in out and "Žalobce".encode() in out


def _pdf(*pages: str) -> bytes:
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 makes the test PDF")
    pdf = fpdf.FPDF()
    pdf.set_author(NAME.replace("á", "a"))
    for page in pages:
        pdf.add_page()
        pdf.set_font("helvetica", size=12)
        if page:
            pdf.multi_cell(0, 10, page)
    return bytes(pdf.output())


def test_pdf_text_layer_in_text_out() -> None:
    name = "Jan Novak"  # the core PDF fonts have no "á"
    data = _pdf(f"Judgment in the case of {name}, Prague.", f"Signed: {name}")
    opened, out = round_trip(data, "judgment.pdf", name, replacement="[PERSON]")
    assert opened.report.parts == {"page": 2}
    assert any("Author" in r for r in opened.report.removed)
    assert out.decode() == "Judgment in the case of [PERSON], Prague.\n\nSigned: [PERSON]"
    assert formats.output_name("dir/judgment.pdf") == "dir/judgment.txt"


def test_pdf_without_text_layer_is_refused() -> None:
    with pytest.raises(formats.FormatError, match="no text layer"):
        formats.read(_pdf(""), "scan.pdf")


def test_plain_text_is_one_place() -> None:
    data = f"Dopis pro {NAME}.\r\n".encode()
    _, out = round_trip(data, "a.txt", NAME)
    assert out == b"Dopis pro Petr Svoboda.\r\n"
