"""Bad files get a clear FormatError, never a crash, a hang or a half-processed output."""
from __future__ import annotations

import io
import zipfile

import pytest

from psan.tool.formats import files as formats
from tests.tool.formats.office_files import rich_docx, rich_odt


@pytest.fixture(scope="module")
def docx_file() -> bytes:
    pytest.importorskip("docx", reason="python-docx makes the test file")
    return rich_docx()


def _with(data: bytes, changes: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as out:
        for name in src.namelist():
            if name not in changes:
                out.writestr(name, src.read(name))
        for name, content in changes.items():
            out.writestr(name, content)
    return buf.getvalue()


def _refused(data: bytes, name: str, match: str, options: formats.Options | None = None) -> None:
    with pytest.raises(formats.FormatError, match=match):
        formats.read(data, name, options)


def test_corrupt_zip() -> None:
    _refused(b"PK\x03\x04" + b"\x00" * 200, "broken.docx", "damaged")
    _refused(b"not a zip at all", "broken.odt", "damaged")


def test_truncated_docx(docx_file: bytes) -> None:
    _refused(docx_file[: len(docx_file) // 2], "cut.docx", "damaged")


def test_password_protected_office_file() -> None:
    # Word saves a password-protected DOCX as an OLE compound file
    _refused(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 1024, "secret.docx", "password")


def test_password_protected_odt() -> None:
    pytest.importorskip("odf", reason="odfpy makes the test file")
    data = rich_odt()
    from lxml import etree
    ns = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"
    root = etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read("META-INF/manifest.xml"))
    entry = next(e for e in root if e.get(f"{{{ns}}}full-path") == "content.xml")
    etree.SubElement(entry, f"{{{ns}}}encryption-data", {f"{{{ns}}}checksum": "x"})
    manifest = etree.tostring(root).decode()
    _refused(_with(data, {"META-INF/manifest.xml": manifest.encode()}), "secret.odt", "password")


def test_zip_bomb_inside_docx(docx_file: bytes) -> None:
    bomb = _with(docx_file, {"word/media/image9.png": b"\x00" * (40 << 20)})
    _refused(bomb, "bomb.docx", "ZIP bomb")


def test_package_larger_than_the_unpack_limit(docx_file: bytes) -> None:
    _refused(docx_file, "big.docx", "unpacks to more than", formats.Options(max_uncompressed=10_000))


def test_file_over_the_size_limit() -> None:
    _refused(b"x" * (50 << 20), "huge.docx", "more than the limit of 32 MB")


def test_macro_enabled_file(docx_file: bytes) -> None:
    types = zipfile.ZipFile(io.BytesIO(docx_file)).read("[Content_Types].xml").decode().replace(
        "</Types>", '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/></Types>')
    docm = _with(docx_file, {"[Content_Types].xml": types.encode(), "word/vbaProject.bin": b"\x00macro"})
    _refused(docm, "macro.docm", "macros")


def test_embedded_object(docx_file: bytes) -> None:
    types = zipfile.ZipFile(io.BytesIO(docx_file)).read("[Content_Types].xml").decode().replace(
        "</Types>", '<Default Extension="bin" ContentType="application/vnd.openxmlformats-officedocument.'
                    'oleObject"/></Types>')
    _refused(_with(docx_file, {"[Content_Types].xml": types.encode(), "word/embeddings/oleObject1.bin": b"ole"}),
             "object.docx", "embedded object")


def test_unknown_part_is_refused_not_passed_on(docx_file: bytes) -> None:
    types = zipfile.ZipFile(io.BytesIO(docx_file)).read("[Content_Types].xml").decode().replace(
        "</Types>", '<Override PartName="/word/secret.xml" ContentType="application/x-unknown+xml"/></Types>')
    _refused(_with(docx_file, {"[Content_Types].xml": types.encode(), "word/secret.xml": b"<a>Jan</a>"}),
             "unknown.docx", "does not know")


def test_text_in_an_unknown_element_is_refused(docx_file: bytes) -> None:
    document = zipfile.ZipFile(io.BytesIO(docx_file)).read("word/document.xml").decode().replace(
        "<w:body>", '<w:body><w:p><w:r><x:note xmlns:x="urn:x">Jan Novák</x:note></w:r></w:p>', 1)
    _refused(_with(docx_file, {"word/document.xml": document.encode()}), "odd.docx", "does not know")


def test_xml_external_entity_is_refused(docx_file: bytes) -> None:
    document = zipfile.ZipFile(io.BytesIO(docx_file)).read("word/document.xml").decode()
    body_start = document.index("<w:document")
    xxe = (document[:body_start] + '<!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           + document[body_start:].replace("Rozsudek", "&x;Rozsudek", 1))
    _refused(_with(docx_file, {"word/document.xml": xxe.encode()}), "xxe.docx", "DTD")


def test_billion_laughs_is_refused(docx_file: bytes) -> None:
    lol = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
           '<Properties>&lol2;</Properties>')
    _refused(_with(docx_file, {"docProps/app.xml": lol.encode()}), "lol.docx", "DTD")


def test_malformed_xml(docx_file: bytes) -> None:
    _refused(_with(docx_file, {"word/document.xml": b"<w:document><unclosed>"}), "bad.docx", "not well-formed")


def test_encrypted_pdf() -> None:
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 makes the test PDF")
    from pypdf import PdfReader, PdfWriter
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(0, 10, "Jan Novak")
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(bytes(pdf.output()))))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    buf = io.BytesIO()
    writer.write(buf)
    _refused(buf.getvalue(), "secret.pdf", "password")


def test_garbage_pdf() -> None:
    _refused(b"%PDF-1.7\n" + b"\x00garbage" * 100, "bad.pdf", "damaged|no text layer")
    _refused(b"hello", "fake.pdf", "not a PDF")


def test_binary_html_and_unsupported_suffix() -> None:
    _refused(b"\x00\x01\x02<html>", "page.html", "binary")
    _refused(b"data", "sheet.xlsx", "not a supported format")
