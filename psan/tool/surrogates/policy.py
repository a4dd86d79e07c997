"""Surrogate policy: which generator each category uses (a JSON-serializable dict per project).

Why: the two guidelines we follow disagree on purpose.  The Polish corpus
rules keep the *form* (random letters/digits of the same length, the same
inflection), SweLL prefers *fixed* masks (``0`` per digit, ``email@dot.com``,
``url.com``).  A project picks a preset and overrides single keys.

Keys and values (default first):

* ``person``: ``list`` (names from the language's lists, same gender, same word
  count, inflected) | ``tag``; initials become the initials of the entity's surrogate first
  names; ``initial``: the letter used when no first name can be drawn (``A``);
* ``city``/``street``/``organization``: ``list`` | ``tag`` (``organization`` also
  ``numbered`` → ``Organization-N``); ``country``: ``replace`` | ``keep`` | ``tag``;
* ``postal_code``: ``random`` (Polish: random digits, same count) | ``zeros``
  (SweLL: digits → 0, letters → A, B, C …, delimiters kept);
* ``email``/``url``/``username``: ``shape`` (Polish rules) | ``fixed``
  (``email_fixed``/``url_fixed``) | ``tag``;
* ``phone``/``number`` (account, document, other codes): ``random`` | ``zeros``;
* ``national_id``: ``checksum`` (random, valid check digits) | ``random`` | ``zeros``;
* ``date``: ``shift`` (day 1–28, random month, year ±``year_delta``) | ``tag``;
  ``age``: ``shift`` (±``age_delta``) | ``tag``;
* ``other``: ``tag`` (anything not covered gets its category tag).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

DEFAULT_POLICY: dict[str, Any] = {
    "person": "list", "initial": "A",
    "city": "list", "street": "list", "country": "replace", "organization": "list",
    "organization_prefix": "Organization",
    "postal_code": "random",
    "email": "shape", "email_fixed": "email@dot.com",
    "url": "shape", "url_fixed": "url.com",
    "username": "shape",
    "phone": "random", "number": "random", "national_id": "checksum",
    "date": "shift", "year_delta": 3, "age": "shift", "age_delta": 3,
    "other": "tag",
}

#: SweLL guidelines (Swedish learner essays)
SWELL_POLICY: dict[str, Any] = {
    **DEFAULT_POLICY,
    "country": "keep", "postal_code": "zeros", "email": "fixed", "url": "fixed", "phone": "zeros",
    "number": "zeros", "national_id": "zeros",
}

PRESETS: dict[str, dict[str, Any]] = {"default": DEFAULT_POLICY, "polish": DEFAULT_POLICY, "swell": SWELL_POLICY}

ALLOWED: dict[str, tuple[str, ...]] = {
    "person": ("list", "tag"), "city": ("list", "tag"), "street": ("list", "tag"),
    "country": ("replace", "keep", "tag"), "organization": ("list", "numbered", "tag"),
    "postal_code": ("random", "zeros", "tag"), "email": ("shape", "fixed", "tag"), "url": ("shape", "fixed", "tag"),
    "username": ("shape", "fixed", "tag"), "phone": ("random", "zeros", "tag"), "number": ("random", "zeros", "tag"),
    "national_id": ("checksum", "random", "zeros", "tag"), "date": ("shift", "tag"), "age": ("shift", "tag"),
    "other": ("tag",),
}


def make_policy(overrides: Mapping[str, Any] | None = None, preset: str = "default") -> dict[str, Any]:
    """A validated policy dict: ``preset`` plus ``overrides`` (unknown keys/values raise ``ValueError``)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; use one of {sorted(PRESETS)}")
    policy = copy.deepcopy(PRESETS[preset])
    for key, value in (overrides or {}).items():
        if key not in DEFAULT_POLICY:
            raise ValueError(f"unknown surrogate policy key {key!r}")
        if key in ALLOWED and value not in ALLOWED[key]:
            raise ValueError(f"policy {key!r} must be one of {ALLOWED[key]}, not {value!r}")
        policy[key] = value
    if not isinstance(policy["initial"], str) or len(policy["initial"]) != 1 or not policy["initial"].isalpha():
        raise ValueError("policy 'initial' must be one letter")
    for key in ("year_delta", "age_delta"):
        if not isinstance(policy[key], int) or policy[key] < 1:
            raise ValueError(f"policy {key!r} must be a positive integer")
    return policy


def surrogate_policy(pipeline: Mapping[str, Any] | None) -> dict[str, Any]:
    """The validated surrogate policy of a project's ``pipeline`` JSON (``ValueError`` if invalid).

    ``pipeline["surrogates"]`` is a JSON object of :func:`make_policy` overrides, optionally with
    ``"preset": "default" | "polish" | "swell"``; absent → defaults.  Public so the project
    settings form and the output (:mod:`psan.store.publish.output`) validate it the same way.
    """
    raw = (pipeline or {}).get("surrogates")
    if raw is None:
        return make_policy(None)
    if not isinstance(raw, Mapping):
        raise ValueError("the surrogate policy (pipeline key 'surrogates') must be a JSON object")
    overrides = dict(raw)
    preset = overrides.pop("preset", "default")
    if not isinstance(preset, str):
        raise ValueError("the surrogate policy preset must be a string")
    return make_policy(overrides, preset)
