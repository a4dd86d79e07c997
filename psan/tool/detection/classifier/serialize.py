"""Byte format of a trained model – safe to load, versioned, checksummed, HMAC-ready.

Trust boundary: the app stores one model per project in PostgreSQL (``bytea``) and loads only models
it wrote itself.  Even so the format contains **no pickle**: it is ::

    MAGIC (8 bytes) | FORMAT_VERSION (2 bytes, big endian) | digest (32 bytes) | payload

where ``payload`` is a NumPy ``.npz`` archive of plain numeric arrays plus a UTF-8 JSON header,
read with ``allow_pickle=False``.  Loading bytes therefore cannot execute code, whoever wrote them;
the worst a forged model can do is give bad suggestions or use memory (payload size and array
shapes are checked).  ``digest`` is SHA-256 of the payload (detects truncation/corruption in the
database), or HMAC-SHA256 with a key when the caller passes one (e.g. derived from the app's
``SECRET_KEY``): then a model written by anyone without the key is rejected.
"""
from __future__ import annotations

import hashlib
import hmac
import io
import json
from typing import Any

import numpy as np

MAGIC = b"PSAN-TC\n"
FORMAT_VERSION = 1
#: refuse payloads larger than this (a model of a large corpus is a few MB)
MAX_PAYLOAD = 256 * 1024 * 1024


class ModelFormatError(ValueError):
    """The bytes are not a model this version of psan wrote (wrong magic/version, bad digest, bad arrays)."""


def _digest(payload: bytes, key: bytes | None) -> bytes:
    if key is None:
        return hashlib.sha256(payload).digest()
    return hmac.new(key, payload, hashlib.sha256).digest()


def pack(meta: dict[str, Any], arrays: dict[str, np.ndarray], key: bytes | None = None) -> bytes:
    """Serialize a JSON-able header and numeric arrays."""
    buf = io.BytesIO()
    header = np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=np.uint8)
    np.savez_compressed(buf, __meta__=header, **arrays)
    payload = buf.getvalue()
    return MAGIC + FORMAT_VERSION.to_bytes(2, "big") + _digest(payload, key) + payload


def unpack(data: bytes, key: bytes | None = None) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Verify and read bytes written by :func:`pack`; raise :class:`ModelFormatError` otherwise."""
    head = len(MAGIC) + 2 + 32
    if len(data) < head or data[:len(MAGIC)] != MAGIC:
        raise ModelFormatError("not a psan token-classifier model")
    version = int.from_bytes(data[len(MAGIC):len(MAGIC) + 2], "big")
    if version != FORMAT_VERSION:
        raise ModelFormatError(f"model format version {version} is not supported (expected {FORMAT_VERSION})")
    digest, payload = data[len(MAGIC) + 2:head], data[head:]
    if len(payload) > MAX_PAYLOAD:
        raise ModelFormatError("model payload too large")
    if not hmac.compare_digest(digest, _digest(payload, key)):
        raise ModelFormatError("model checksum/HMAC mismatch (corrupted, or not written with this key)")
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
        meta = json.loads(bytes(arrays.pop("__meta__")).decode("utf-8"))
    except (ValueError, OSError, KeyError, UnicodeDecodeError) as err:
        raise ModelFormatError(f"unreadable model payload: {err}") from err
    if not isinstance(meta, dict):
        raise ModelFormatError("model header is not an object")
    return meta, arrays
