"""Turning uploaded bytes into document texts: encodings, binary files, ZIP archives, office files.

Why separate from the views: the rules are security relevant (zip bombs, path traversal,
binary junk) and are tested without HTTP.  Nothing is written to disk: ZIP members are read
into memory with a hard cap on the bytes actually decompressed (declared sizes can lie).  DOCX, ODT,
HTML and PDF files (alone or in a ZIP) are read by :mod:`psan.tool.formats.files`, which keeps the file so the
outputs come back in its format; a file it refuses is refused here with its reason.
"""
from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import dataclass
from typing import Any

from charset_normalizer import from_bytes
from flask_babel import gettext, lazy_gettext

from psan.tool.formats import files as formats

#: leading bytes of common binary formats → name for the error message
_MAGIC = {
    b"%PDF": lazy_gettext("PDF"), b"\x89PNG": lazy_gettext("PNG image"), b"\xff\xd8\xff": lazy_gettext("JPEG image"),
    b"GIF8": lazy_gettext("GIF image"), b"PK\x03\x04": lazy_gettext("ZIP/Office file"),
    b"\xd0\xcf\x11\xe0": lazy_gettext("MS Office file"), b"\x1f\x8b": lazy_gettext("gzip file"),
    b"\x7fELF": lazy_gettext("executable"), b"MZ": lazy_gettext("executable"), b"Rar!": lazy_gettext("RAR archive"),
    b"7z\xbc\xaf": lazy_gettext("7-Zip archive"),
}
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
_ALLOWED_CONTROLS = {"\t", "\n", "\r", "\f", "\v"}


class UploadError(ValueError):
    """A file is refused; the message is shown to the admin."""


class ZipTooLarge(UploadError):
    """The whole ZIP is refused (it unpacks to more than the limit), not just one member."""


@dataclass(frozen=True, slots=True)
class TextFile:
    name: str
    text: str
    note: str = ""
    #: the uploaded file of a DOCX/ODT/HTML/PDF document, its format and what the format found and removed
    original: bytes | None = None
    format: str | None = None
    report: dict[str, Any] | None = None


@dataclass(slots=True)
class Limits:
    max_chars: int
    max_members: int
    max_uncompressed: int
    #: the admin confirmed converting files that are mostly UTF-8 but contain invalid bytes
    confirm_conversion: bool = False
    #: tracked changes of office files: accepted or rejected (the project's setting)
    tracked_changes: str = "accept"


#: at most this many invalid bytes in a file without other non-ASCII text still count as "mostly UTF-8"
FEW_BAD_BYTES = 3
#: characters shown on each side of the first invalid byte in the preview
PREVIEW_CHARS = 40


def _utf8_damage(data: bytes) -> tuple[int, int]:
    """(invalid bytes, valid non-ASCII characters) of ``data`` read as UTF-8."""
    text = data.decode("utf-8", "replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode())
    good = len(text) - len(text.encode("ascii", "ignore")) - text.count("\ufffd")
    return bad, good


def mostly_utf8(data: bytes) -> bool:
    """Invalid UTF-8 that is nevertheless mostly UTF-8 (a few bad bytes, or more valid UTF-8 than bad bytes).

    Why: the encoding detector then picks some single-byte code page and silently garbles the text
    ("Hello \\xed\\xa0\\x80 John" became "Hello эаА John" from cp1125); such files need a person's decision.
    """
    bad, good = _utf8_damage(data)
    return 0 < bad and (bad <= FEW_BAD_BYTES or good >= bad)


def _snippet(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in text).strip()


def conversion_preview(data: bytes, encoding: str) -> tuple[str, str]:
    """The text around the first invalid byte: (read as UTF-8 with \ufffd marks, converted from ``encoding``)."""
    try:
        data.decode("utf-8")
        start = 0
    except UnicodeDecodeError as exc:
        start = exc.start
    window = data[max(0, start - PREVIEW_CHARS):start + PREVIEW_CHARS]
    return _snippet(window.decode("utf-8", "replace")), _snippet(window.decode(encoding, "replace"))


def _looks_binary(text: str) -> bool:
    """Text with NULs or many control characters is binary (a few controls are kept as text)."""
    if "\x00" in text:
        return True
    sample = text[:65536]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in _ALLOWED_CONTROLS)
    return controls > max(8, len(sample) // 100)


def decode(data: bytes, name: str, max_chars: int, confirm_conversion: bool = False) -> TextFile:  # noqa: C901
    """Decode one uploaded file: UTF-8 (or a BOM'd Unicode) as is, others detected and converted.

    A file that is mostly UTF-8 with a few invalid bytes is refused with a preview of the
    conversion unless ``confirm_conversion`` (the admin saw the preview and agreed).
    """
    if not data.strip():
        raise UploadError(gettext("%(name)s: the file is empty", name=name))
    for magic, kind in _MAGIC.items():
        if data.startswith(magic):
            raise UploadError(gettext("%(name)s: looks like a %(kind)s, not a plain text file", name=name, kind=kind))
    note = ""
    text: str | None = None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise UploadError(gettext("%(name)s: invalid %(encoding)s text", name=name, encoding=encoding)) from exc
            if encoding != "utf-8-sig":
                note = gettext("converted from %(encoding)s", encoding=encoding.upper())
            break
    if text is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            if b"\x00" in data:
                raise UploadError(gettext("%(name)s: binary file (contains NUL bytes)", name=name)) from None
            best = from_bytes(data).best()
            if best is None or best.encoding is None:
                raise UploadError(gettext("%(name)s: not UTF-8 and the encoding could not be detected; "
                                          "save it as UTF-8 and upload again", name=name)) from None
            if not confirm_conversion and mostly_utf8(data):
                as_utf8, converted = conversion_preview(data, best.encoding)
                raise UploadError(gettext(
                    "%(name)s: almost UTF-8, but %(count)s bytes are invalid. Converting it from %(encoding)s would "
                    "give “%(converted)s” (as UTF-8: “%(utf8)s”). Fix the file, or upload it again with "
                    "“Convert files that are not valid UTF-8” ticked.", name=name, count=_utf8_damage(data)[0],
                    encoding=best.encoding, converted=converted, utf8=as_utf8)) from None
            text = str(best)
            note = gettext("converted from %(encoding)s", encoding=best.encoding)
    if _looks_binary(text):
        raise UploadError(gettext("%(name)s: binary file, not a plain text file", name=name))
    if not text.strip():
        raise UploadError(gettext("%(name)s: the file is empty", name=name))
    if len(text) > max_chars:
        raise UploadError(gettext("%(name)s: %(count)s characters, more than the limit of %(limit)s", name=name,
                                  count=f"{len(text):,}", limit=f"{max_chars:,}"))
    return TextFile(name, text, note)


def is_formatted(name: str) -> bool:
    """A file name psan reads through a format other than plain text (DOCX, ODT, HTML, PDF)."""
    fmt = formats.format_for(name)
    return fmt is not None and fmt.name != "text"


def read_formatted(data: bytes, name: str, limits: Limits) -> TextFile:
    """An office file, page or PDF as psan's text plus the file itself; UploadError with the format's reason."""
    try:
        opened = formats.read(data, name, formats.Options(tracked_changes=limits.tracked_changes))
    except formats.FormatError as exc:
        raise UploadError(gettext("%(name)s: %(reason)s", name=name, reason=str(exc))) from None
    if not opened.text.strip():
        raise UploadError(gettext("%(name)s: the file is empty", name=name))
    if "\x00" in opened.text:
        raise UploadError(gettext("%(name)s: binary file (contains NUL bytes)", name=name))
    if len(opened.text) > limits.max_chars:
        raise UploadError(gettext("%(name)s: %(count)s characters, more than the limit of %(limit)s", name=name,
                                  count=f"{len(opened.text):,}", limit=f"{limits.max_chars:,}"))
    report = {**opened.report.as_dict(), "tracked_changes": limits.tracked_changes}
    return TextFile(name, opened.text, "", data, opened.format, report)


def _member_name(info: zipfile.ZipInfo) -> str:
    """The member's file name, refusing absolute paths and ``..`` (never used as a path anyway)."""
    raw = info.filename.replace("\\", "/")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":") or ".." in raw.split("/"):
        raise UploadError(gettext("%(name)s: unsafe path in the ZIP (absolute or with '..')", name=info.filename))
    return posixpath.basename(raw)


def _too_large(zip_name: str, limits: Limits) -> ZipTooLarge:
    return ZipTooLarge(gettext("%(name)s: unpacks to more than %(limit)s bytes", name=zip_name,
                               limit=f"{limits.max_uncompressed:,}"))


def read_zip(data: bytes, zip_name: str, limits: Limits) -> tuple[list[TextFile], list[str]]:
    """The text files of a ZIP and the messages for refused members (or raise for the whole ZIP)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError) as exc:
        raise UploadError(gettext("%(name)s: not a valid ZIP file", name=zip_name)) from exc
    files: list[TextFile] = []
    errors: list[str] = []
    with archive:
        members = [i for i in archive.infolist() if not i.is_dir()]
        if len(members) > limits.max_members:
            raise UploadError(gettext("%(name)s: %(count)s files, more than the limit of %(limit)s", name=zip_name,
                                      count=len(members), limit=limits.max_members))
        if sum(i.file_size for i in members) > limits.max_uncompressed:
            raise _too_large(zip_name, limits)
        budget = limits.max_uncompressed
        for info in members:
            try:
                name = _member_name(info)
                if name.startswith(".") or info.filename.startswith("__MACOSX/"):
                    continue
                formatted = is_formatted(name)
                if not name.lower().endswith(".txt") and not formatted:
                    raise UploadError(gettext("%(name)s: only .txt, .docx, .odt, .html and .pdf files are taken "
                                              "from a ZIP", name=info.filename))
                if info.flag_bits & 0x1:
                    raise UploadError(gettext("%(name)s: encrypted", name=info.filename))
                with archive.open(info) as member:
                    content = member.read(budget + 1)  # the real size, whatever the header claims
                if len(content) > budget:
                    raise _too_large(zip_name, limits)
                budget -= len(content)
                files.append(read_formatted(content, name, limits) if formatted
                             else decode(content, name, limits.max_chars, limits.confirm_conversion))
            except ZipTooLarge:
                raise
            except UploadError as exc:
                errors.append(str(exc))
            except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
                errors.append(gettext("%(name)s: cannot be unpacked (%(error)s)", name=info.filename,
                                      error=exc.__class__.__name__))
    return files, errors


def is_zip(data: bytes, name: str) -> bool:
    return name.lower().endswith(".zip") or data.startswith(b"PK\x03\x04")


def read_upload(data: bytes, name: str, limits: Limits) -> tuple[list[TextFile], list[str]]:
    """One uploaded file: a DOCX/ODT/HTML/PDF file is read by its format, a ZIP gives its members, anything else is
    one text file."""
    try:
        if is_formatted(name):
            return [read_formatted(data, name, limits)], []
        if is_zip(data, name):
            return read_zip(data, name, limits)
        return [decode(data, name, limits.max_chars, limits.confirm_conversion)], []
    except UploadError as exc:
        return [], [str(exc)]
