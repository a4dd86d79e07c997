"""Attachments that carry personal data (document texts, XML, outputs, keys): never cached.

Why one helper: every download of personal data must send ``Cache-Control: no-store`` (not
``no-cache``, which still lets a browser or proxy keep a copy on disk) and one clean Content-Type.
"""
from __future__ import annotations

import io

from flask import Response, send_file

#: Werkzeug adds ``charset=utf-8`` to these itself; the others get it here (text payloads only)
_TEXT_WITHOUT_AUTO_CHARSET = ("application/json",)


def private_download(data: str | bytes, mimetype: str, name: str) -> Response:
    """An attachment named ``name`` that no cache may store; ``str`` data is sent as UTF-8."""
    if isinstance(data, str):
        data = data.encode("utf-8")
        if mimetype in _TEXT_WITHOUT_AUTO_CHARSET:
            mimetype = f"{mimetype}; charset=utf-8"
    response = send_file(io.BytesIO(data), mimetype=mimetype, as_attachment=True, download_name=name, max_age=0)
    mark_private(response)
    return response


def mark_private(response: Response) -> Response:
    """Forbid every cache to store the response."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response
