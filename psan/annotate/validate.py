"""Strict parsing of the JSON the annotation page sends: everything is re-checked on the server."""
from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext
from werkzeug.exceptions import BadRequest

from psan.web.ids import MAX_ID

#: token indexes and ids the API accepts (PostgreSQL integer / sane bigint range)
MAX_INT = 2**31 - 1
DECISIONS = ("PUBLIC", "PRIVATE")


class Invalid(BadRequest):
    """A 400 answer whose description is shown to the annotator (in the request's language)."""


def json_object(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise Invalid(gettext("send a JSON object"))
    return payload


def integer(payload: dict[str, Any], key: str, maximum: int = MAX_INT, required: bool = True) -> int | None:
    """A JSON integer (not a bool, float or string) in ``[0, maximum]``."""
    value = payload.get(key)
    if value is None and not required:
        return None
    if type(value) is not int or not 0 <= value <= maximum:
        raise Invalid(gettext("%(key)s must be an integer between 0 and %(maximum)s", key=key, maximum=maximum))
    return value


def span(payload: dict[str, Any]) -> tuple[int, int, int]:
    """(document_id, first_token, end_token) with a non-empty token range."""
    document_id = integer(payload, "document_id", MAX_ID)
    first = integer(payload, "first_token")
    end = integer(payload, "end_token")
    assert document_id is not None and first is not None and end is not None  # nosec B101
    if end <= first:
        raise Invalid(gettext("end_token must be greater than first_token"))
    return document_id, first, end


def decision(payload: dict[str, Any]) -> str:
    value = payload.get("decision")
    if value not in DECISIONS:
        raise Invalid(gettext("decision must be PUBLIC or PRIVATE"))
    return str(value)


def flag(payload: dict[str, Any], key: str) -> bool:
    value = payload.get(key, False)
    if not isinstance(value, bool):
        raise Invalid(gettext("%(key)s must be true or false", key=key))
    return value


def optional_text(payload: dict[str, Any], key: str, max_length: int = 100) -> str | None:
    value = payload.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > max_length:
        raise Invalid(gettext("%(key)s must be text of at most %(max_length)s characters", key=key,
                                max_length=max_length))
    return value


_REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def request_id(payload: dict[str, Any]) -> str | None:
    """The client's optional id of a decision request (8–64 letters, digits, ``-`` or ``_``)."""
    value = payload.get("request_id")
    if value is None:
        return None
    if not isinstance(value, str) or not _REQUEST_ID.fullmatch(value):
        raise Invalid(gettext("request_id must be 8 to 64 letters, digits, - or _"))
    return value
