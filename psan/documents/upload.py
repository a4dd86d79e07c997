"""Turning uploaded bytes into document texts: encodings, binary files, ZIP archives.

Why separate from the views: the rules are security relevant (zip bombs, path traversal,
binary junk) and are tested without HTTP.  Nothing is written to disk: ZIP members are read
into memory with a hard cap on the bytes actually decompressed (declared sizes can lie).
"""
from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import dataclass

from charset_normalizer import from_bytes

#: leading bytes of common binary formats → name for the error message
_MAGIC = {
    b"%PDF": "PDF", b"\x89PNG": "PNG image", b"\xff\xd8\xff": "JPEG image", b"GIF8": "GIF image",
    b"PK\x03\x04": "ZIP/Office file", b"\xd0\xcf\x11\xe0": "MS Office file", b"\x1f\x8b": "gzip file",
    b"\x7fELF": "executable", b"MZ": "executable", b"Rar!": "RAR archive", b"7z\xbc\xaf": "7-Zip archive",
}
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
_ALLOWED_CONTROLS = {"\t", "\n", "\r", "\f", "\v"}


class UploadError(ValueError):
    """A file is refused; the message is shown to the admin."""


@dataclass(frozen=True, slots=True)
class TextFile:
    name: str
    text: str
    note: str = ""


@dataclass(slots=True)
class Limits:
    max_chars: int
    max_members: int
    max_uncompressed: int


def _looks_binary(text: str) -> bool:
    """Text with NULs or many control characters is binary (a few controls are kept as text)."""
    if "\x00" in text:
        return True
    sample = text[:65536]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in _ALLOWED_CONTROLS)
    return controls > max(8, len(sample) // 100)


def decode(data: bytes, name: str, max_chars: int) -> TextFile:
    """Decode one uploaded file: UTF-8 (or a BOM'd Unicode) as is, others detected and converted."""
    if not data.strip():
        raise UploadError(f"{name}: the file is empty")
    for magic, kind in _MAGIC.items():
        if data.startswith(magic):
            raise UploadError(f"{name}: looks like a {kind}, not a plain text file")
    note = ""
    text: str | None = None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise UploadError(f"{name}: invalid {encoding} text") from exc
            if encoding != "utf-8-sig":
                note = f"converted from {encoding.upper()}"
            break
    if text is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            if b"\x00" in data:
                raise UploadError(f"{name}: binary file (contains NUL bytes)") from None
            best = from_bytes(data).best()
            if best is None or best.encoding is None:
                raise UploadError(f"{name}: not UTF-8 and the encoding could not be detected; "
                                  f"save it as UTF-8 and upload again") from None
            text = str(best)
            note = f"converted from {best.encoding}"
    if _looks_binary(text):
        raise UploadError(f"{name}: binary file, not a plain text file")
    if not text.strip():
        raise UploadError(f"{name}: the file is empty")
    if len(text) > max_chars:
        raise UploadError(f"{name}: {len(text):,} characters, more than the limit of {max_chars:,}")
    return TextFile(name, text, note)


def _member_name(info: zipfile.ZipInfo) -> str:
    """The member's file name, refusing absolute paths and ``..`` (never used as a path anyway)."""
    raw = info.filename.replace("\\", "/")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":") or ".." in raw.split("/"):
        raise UploadError(f"{info.filename}: unsafe path in the ZIP (absolute or with '..')")
    return posixpath.basename(raw)


def read_zip(data: bytes, zip_name: str, limits: Limits) -> tuple[list[TextFile], list[str]]:
    """The text files of a ZIP and the messages for refused members (or raise for the whole ZIP)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError) as exc:
        raise UploadError(f"{zip_name}: not a valid ZIP file") from exc
    files: list[TextFile] = []
    errors: list[str] = []
    with archive:
        members = [i for i in archive.infolist() if not i.is_dir()]
        if len(members) > limits.max_members:
            raise UploadError(f"{zip_name}: {len(members)} files, more than the limit of {limits.max_members}")
        if sum(i.file_size for i in members) > limits.max_uncompressed:
            raise UploadError(f"{zip_name}: unpacks to more than {limits.max_uncompressed:,} bytes")
        budget = limits.max_uncompressed
        for info in members:
            try:
                name = _member_name(info)
                if name.startswith(".") or info.filename.startswith("__MACOSX/"):
                    continue
                if not name.lower().endswith(".txt"):
                    raise UploadError(f"{info.filename}: only .txt files are taken from a ZIP")
                if info.flag_bits & 0x1:
                    raise UploadError(f"{info.filename}: encrypted")
                with archive.open(info) as member:
                    content = member.read(budget + 1)  # the real size, whatever the header claims
                if len(content) > budget:
                    raise UploadError(f"{zip_name}: unpacks to more than {limits.max_uncompressed:,} bytes")
                budget -= len(content)
                files.append(decode(content, name, limits.max_chars))
            except UploadError as exc:
                if "unpacks to more" in str(exc):
                    raise
                errors.append(str(exc))
            except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
                errors.append(f"{info.filename}: cannot be unpacked ({exc.__class__.__name__})")
    return files, errors


def is_zip(data: bytes, name: str) -> bool:
    return name.lower().endswith(".zip") or data.startswith(b"PK\x03\x04")


def read_upload(data: bytes, name: str, limits: Limits) -> tuple[list[TextFile], list[str]]:
    """One uploaded file: a ZIP gives its text members, anything else is one text file."""
    try:
        if is_zip(data, name):
            return read_zip(data, name, limits)
        return [decode(data, name, limits.max_chars)], []
    except UploadError as exc:
        return [], [str(exc)]
