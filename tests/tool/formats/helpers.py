"""Checks shared by the format tests: no trace of a name in any member of a package, LibreOffice opens it."""
from __future__ import annotations

import html
import io
import re
import shutil
import subprocess
import unicodedata
import zipfile
from collections.abc import Iterable
from pathlib import Path

import pytest
from lxml import etree

from psan.tool.formats import files as formats


def _forms(secret: str) -> set[bytes]:
    """The ways a string can sit in a file's bytes: UTF-8 (composed and decomposed), XML character references."""
    forms = set()
    for norm in ("NFC", "NFD"):
        s = unicodedata.normalize(norm, secret)
        forms.add(s.encode("utf-8"))
        forms.add(s.encode("utf-16-le"))
        try:
            forms.add(s.encode("latin-1"))  # EXIF and PNG text chunks
        except UnicodeEncodeError:
            pass
        forms.add(html.escape(s).encode("ascii", "xmlcharrefreplace"))
        forms.add("".join(f"&#{ord(c)};" if ord(c) > 127 else c for c in s).encode())
    return forms


def member_texts(data: bytes) -> dict[str, bytes]:
    """Every member of a ZIP package (or the file itself under ``""`` when it is no ZIP)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return {"": data}
    return {name: z.read(name) for name in z.namelist()}


def assert_no_trace(data: bytes, secrets: Iterable[str]) -> None:
    """No secret in any member: raw bytes, nor the text with tags stripped (a name split by markup)."""
    for name, content in member_texts(data).items():
        stripped = content
        if content.lstrip()[:1] == b"<":
            try:
                root = etree.fromstring(content, etree.XMLParser(recover=True))
            except (etree.XMLSyntaxError, ValueError):
                root = None
            if root is not None:
                stripped = "".join(root.itertext()).encode()
            else:
                stripped = re.sub(rb"<[^>]*>", b"", content)
        for secret in secrets:
            for form in _forms(secret):
                assert form not in content, f"{secret!r} found in {name or 'the file'}"
                assert form not in stripped, f"{secret!r} found in {name or 'the file'} with tags stripped"


def soffice() -> str:
    path = shutil.which("soffice") or shutil.which("libreoffice")
    if path is None:
        pytest.skip("LibreOffice (soffice) is not installed: Debian package libreoffice-writer-nogui")
    return path


def libreoffice_text(data: bytes, suffix: str, tmp_path: Path) -> str:
    """The file converted to text by LibreOffice (proves it opens); fails when LibreOffice cannot."""
    exe = soffice()
    src = tmp_path / f"check{suffix}"
    src.write_bytes(data)
    profile = tmp_path / "lo-profile"
    done = subprocess.run([exe, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to",
                           "txt:Text", str(src), "--outdir", str(tmp_path)],
                          capture_output=True, timeout=180, check=False)
    out = tmp_path / "check.txt"
    assert done.returncode == 0 and out.exists(), f"LibreOffice could not open the output: {done.stderr[-500:]!r}"
    return out.read_bytes().decode("utf-8-sig", "replace")


def standoff_for(text: str, pattern: str, replacement: str) -> list[dict]:
    """Standoff entries replacing every match of ``pattern`` (what an output mode gives for those spans)."""
    return [{"original_start": m.start(), "original_end": m.end(), "replacement": replacement,
             "removed_before": "", "removed_after": ""} for m in re.finditer(pattern, text)]


def round_trip(data: bytes, name: str, pattern: str, replacement: str = "Petr Svoboda",
               options: formats.Options | None = None) -> tuple[formats.Opened, bytes]:
    opened = formats.read(data, name, options)
    out = formats.write(data, name, standoff_for(opened.text, pattern, replacement), options,
                        expected_text=opened.text)
    return opened, out
