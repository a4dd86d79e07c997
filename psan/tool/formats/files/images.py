"""Metadata inside images (EXIF, XMP, IPTC, PNG text chunks): removed, the pixels kept.

Why: a photo pasted into a decision carries its camera's EXIF (the owner's name, GPS position, dates)
and editing programs write authors into XMP or PNG text chunks.  psan cannot read what an image shows
(it is listed as kept unread), but it can remove what the file says about it.  JPEG and PNG are parsed by
their segment/chunk structure; anything else, or a file that does not parse, is returned unchanged (and
stays listed as unread).
"""
from __future__ import annotations

import struct

#: JPEG segments removed: APP1 (EXIF, XMP), APP12 (Ducky/Picture Info), APP13 (IPTC, Photoshop), COM (comments)
_JPEG_DROPPED = {0xE1, 0xEC, 0xED, 0xFE}
#: PNG chunks removed: text, compressed text, international text, EXIF, modification time
_PNG_DROPPED = {b"tEXt", b"zTXt", b"iTXt", b"eXIf", b"tIME"}
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _jpeg(data: bytes) -> bytes | None:
    if not data.startswith(b"\xff\xd8"):
        return None
    out, pos = [b"\xff\xd8"], 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xDA:  # start of scan: the compressed image follows, copied as it is
            out.append(data[pos:])
            return b"".join(out)
        if 0xD0 <= marker <= 0xD7 or marker in (0x01, 0xFF):
            out.append(data[pos:pos + 2])
            pos += 2
            continue
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        end = pos + 2 + length
        if length < 2 or end > len(data):
            return None
        if marker not in _JPEG_DROPPED:
            out.append(data[pos:end])
        pos = end
    return None


def _png(data: bytes) -> bytes | None:
    if not data.startswith(_PNG_SIGNATURE):
        return None
    out, pos = [_PNG_SIGNATURE], len(_PNG_SIGNATURE)
    while pos + 12 <= len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        end = pos + 12 + length
        if end > len(data):
            return None
        if kind not in _PNG_DROPPED:
            out.append(data[pos:end])
        pos = end
        if kind == b"IEND":
            return b"".join(out)
    return None


def strip_metadata(data: bytes) -> bytes | None:
    """The image without its metadata, or None when it had none or is no JPEG/PNG psan can parse."""
    cleaned = _jpeg(data) if data.startswith(b"\xff\xd8") else _png(data)
    return cleaned if cleaned is not None and cleaned != data else None
