"""Image metadata (EXIF, XMP, PNG text) is removed; the image data is kept byte for byte."""
from __future__ import annotations

import struct

from psan.tool.formats.files.images import strip_metadata
from tests.tool.formats.office_files import NAME, png_bytes


def _segment(marker: int, payload: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def test_jpeg_exif_xmp_and_comment_are_removed_and_the_scan_kept() -> None:
    jfif = _segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    exif = _segment(0xE1, b"Exif\x00\x00Artist " + NAME.encode("latin-1"))
    comment = _segment(0xFE, NAME.encode("utf-8"))
    scan = b"\xff\xda\x00\x08\x01\x01\x00\x00?\x00" + b"\x12\x34\xff\x00\x56" + b"\xff\xd9"
    data = b"\xff\xd8" + jfif + exif + comment + scan
    assert strip_metadata(data) == b"\xff\xd8" + jfif + scan


def test_png_text_chunk_is_removed() -> None:
    data = png_bytes()
    cleaned = strip_metadata(data)
    assert cleaned is not None and NAME.encode("latin-1") in data and NAME.encode("latin-1") not in cleaned
    assert cleaned.startswith(b"\x89PNG") and cleaned.endswith(b"IEND\xaeB`\x82")


def test_clean_or_unknown_images_are_left_alone() -> None:
    assert strip_metadata(strip_metadata(png_bytes())) is None
    assert strip_metadata(b"GIF89a...") is None
    assert strip_metadata(b"\xff\xd8\xff\xe1\xff\xff") is None  # damaged: unchanged (and listed as unread)
