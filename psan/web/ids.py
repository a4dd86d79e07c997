"""Database ids taken from URLs and forms."""
from __future__ import annotations

from typing import Any

from werkzeug.exceptions import NotFound
from werkzeug.routing import IntegerConverter

MAX_ID = 2**63 - 1  # bigint: larger ids would make PostgreSQL raise instead of returning nothing


def ascii_digits(text: str) -> bool:
    """Is ``text`` a run of ASCII digits 0-9 (at least one)?

    Why not ``str.isdigit``: it also holds for superscripts and other digit signs ("²") that ``int`` refuses, so a
    check by ``isdigit`` before ``int`` let a forged parameter raise (a 500) instead of being refused.
    """
    return text.isascii() and text.isdigit()


def valid_id(value: Any) -> int | None:
    """``value`` as a database id, or None when it is not a positive bigint."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 0 < number <= MAX_ID else None


class IdConverter(IntegerConverter):
    """``<int:…>`` of every route: an id column's range (bigint), so a larger number is a 404, not a 500.

    Registered as the app's ``int`` converter (:func:`psan.create_app`).  A number beyond
    the range is a 404 at once (raised here: a converter's usual refusal lets werkzeug answer 405 when
    a route of the same pattern has other methods).
    """

    def to_python(self, value: str) -> int:
        number = super().to_python(value)
        if not 0 <= number <= MAX_ID:
            raise NotFound()
        return number
