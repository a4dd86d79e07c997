"""JSON responses serialized by orjson; everything else as Flask's default provider.

Why: an annotation window's answer (its tokens and annotations, ~16 KB) is sent for every window and
every decision; the standard library's encoder was the largest single item of the web server's
Python CPU under 20 annotators (py-spy ``--gil`` during ``bench/bench_annotation_latency.py``).
orjson encodes a 300-token window in 0.04 ms instead of 0.24 ms.

The values are the same JSON as before (keys sorted, compact separators, integer dict keys as
strings); text is UTF-8 instead of ``\\uXXXX`` escapes.  Whatever orjson leaves to a ``default``
(dates, decimals, dataclasses, objects with ``__html__``) goes through Flask's own, so such values
keep their form; whatever orjson refuses (a lone surrogate in a string, an integer over 64 bits) is
encoded by the standard library as before, never a 500.  Indented output (debug mode,
``compact = False``), ``loads`` and Jinja's ``tojson`` stay with the standard library.
"""
from __future__ import annotations

from typing import Any

import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider

__all__ = ["FastJSONProvider", "init_app"]

_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY
            | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_APPEND_NEWLINE)


class FastJSONProvider(DefaultJSONProvider):
    """Flask's default JSON provider with compact responses encoded by orjson (see module docstring)."""

    def response(self, *args: Any, **kwargs: Any) -> Response:  # noqa: ANN401 - Flask's own signature
        if (self.compact is None and self._app.debug) or self.compact is False or not self.sort_keys:
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_OPTIONS)
        except orjson.JSONEncodeError:
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)


def init_app(app: Flask) -> None:
    app.json = FastJSONProvider(app)
