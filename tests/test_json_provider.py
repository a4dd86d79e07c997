"""JSON responses through orjson (psan.web.json_provider): the same values as Flask's default provider."""
from __future__ import annotations

import dataclasses
import datetime
import decimal
import json
import uuid

import numpy as np
import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from markupsafe import Markup

from psan.web.json_provider import FastJSONProvider


@dataclasses.dataclass
class _Point:
    x: int
    when: datetime.date


def _apps() -> tuple[Flask, Flask]:
    fast, standard = Flask("fast"), Flask("standard")
    fast.json = FastJSONProvider(fast)
    standard.json = DefaultJSONProvider(standard)
    return fast, standard


VALUES = [
    {"b": 1, "a": [1.5, 0.0, -2, None, True], "ž": "Žluťoučký kůň <script>&\"'"},
    {3: "int key", 1: {"z": {}, "y": []}},
    {"when": datetime.datetime(2026, 11, 25, 6, 1, 2, tzinfo=datetime.UTC),
     "day": datetime.date(2026, 11, 25), "money": decimal.Decimal("1.10"), "id": uuid.UUID(int=7)},
    {"point": _Point(1, datetime.date(2020, 1, 2)), "html": Markup("<b>x</b>")},
    ["tokens", [{"i": i, "text": f"w{i}", "after": " "} for i in range(300)]],
    "a NUL \x00 and a control \x1f character",
]


@pytest.mark.parametrize("value", VALUES)
def test_same_values_as_the_standard_provider(value):
    fast, standard = _apps()
    with fast.app_context():
        got = fast.json.response(value)
    with standard.app_context():
        expected = standard.json.response(value)
    assert got.mimetype == expected.mimetype == "application/json"
    assert json.loads(got.get_data()) == json.loads(expected.get_data())
    assert got.get_data().endswith(b"\n")


def test_numpy_numbers_as_numbers():
    """Scores computed with NumPy (the standard library refused numpy integers)."""
    fast, _ = _apps()
    with fast.app_context():
        body = fast.json.response([np.float64(0.25), np.int64(7), np.float32(0.5)]).get_data()
    assert json.loads(body) == [0.25, 7, 0.5]


def test_keys_sorted_and_text_in_utf8():
    fast, _ = _apps()
    with fast.app_context():
        body = fast.json.response(b=1, a="Žluť").get_data()
    assert body == '{"a":"Žluť","b":1}\n'.encode()


@pytest.mark.parametrize("value", [{"lone surrogate": "\ud800"}, {"huge": 2**70}])
def test_what_orjson_refuses_is_encoded_by_the_standard_library(value):
    fast, standard = _apps()
    with fast.app_context():
        got = fast.json.response(value).get_data()
    with standard.app_context():
        assert got == standard.json.response(value).get_data()


def test_debug_output_stays_indented():
    fast, _ = _apps()
    fast.debug = True
    with fast.app_context():
        assert b'\n  "a": 1' in fast.json.response(a=1).get_data()
