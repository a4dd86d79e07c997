"""Refuse request values PostgreSQL or psan cannot handle, as a 400 with a message, before any view runs.

Why one guard: NUL characters (PostgreSQL text cannot hold them), lone UTF-16 surrogates (JSON
escapes like ``\\ud800`` decode to strings that cannot be encoded to UTF-8) and JSON nested
thousands of levels deep (Python's parser raises ``RecursionError``) used to reach the database
or the parser from many forms and APIs and answer 500.  Checking every query value, form value,
uploaded file name and JSON body in one ``before_request`` hook covers present and future
endpoints alike.  File *contents* are not checked here: uploads decode them with their own errors.
"""
from __future__ import annotations

import re
from typing import Any

from flask import Flask, request
from flask_babel import gettext
from werkzeug.exceptions import BadRequest

#: deepest JSON accepted (psan's own payloads are 2–3 levels deep)
MAX_JSON_DEPTH = 32
_BAD_CHAR_RE = re.compile("[\x00\ud800-\udfff]")


class BadInput(BadRequest):
    """A 400 whose description says what was wrong (shown as the error message)."""


def bad_text(value: str) -> bool:
    """Does the text contain a NUL or a lone surrogate?"""
    return _BAD_CHAR_RE.search(value) is not None


def json_problem(value: Any, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why a parsed JSON value is refused (too deep, bad characters), or ``None``; iterative, so never recursing."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                return gettext("The JSON is nested too deeply (at most %(depth)s levels).", depth=max_depth)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, str) and bad_text(item):
            return _bad_char_message()
    return None


def _bad_char_message() -> str:
    return gettext("The request contains a NUL character or an invalid Unicode character (lone surrogate).")


def check_request() -> None:
    """``before_request`` hook: raise :class:`BadInput` for values no endpoint can store or parse."""
    for key, value in request.args.items(multi=True):
        if bad_text(key) or bad_text(value):
            raise BadInput(_bad_char_message())
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    if request.is_json:
        try:
            payload = request.get_json(silent=True)
        except RecursionError:
            raise BadInput(gettext("The JSON is nested too deeply (at most %(depth)s levels).",
                                   depth=MAX_JSON_DEPTH)) from None
        problem = json_problem(payload) if payload is not None else None
        if problem:
            raise BadInput(problem)
        return
    for key, value in request.form.items(multi=True):
        if bad_text(key) or bad_text(value):
            raise BadInput(_bad_char_message())
    for key, upload in request.files.items(multi=True):
        if bad_text(key) or bad_text(upload.filename or ""):
            raise BadInput(_bad_char_message())


def init_app(app: Flask) -> None:
    app.before_request(check_request)
