"""Load the layered configuration into a Flask app.

Order (later wins): ``config/default.py`` ← ``config/<mode>.py`` ← ``instance/config.py`` ←
environment variables ``PSAN_<NAME>``.  The mode comes from ``PSAN_CONFIG`` (``production`` when
unset, so a forgotten variable never yields a debug server).
"""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

MODES = ("production", "debug", "testing")
ENV_PREFIX = "PSAN_"


class ConfigurationError(RuntimeError):
    """The configuration is unsafe or incomplete; the app refuses to start."""


#: settings named so are durations: a whole number or a fraction (type ``number``)
_DURATIONS = ("_SECONDS", "_TIMEOUT", "_MAX_AGE", "_DURATION", "_LIFETIME", "_LIMIT")
#: words a boolean setting accepts (case-insensitive)
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def declared_type(name: str, declared: Mapping[str, Any]) -> str:
    """A setting's type: ``SETTING_TYPES`` in ``config/default.py``, else its default value's type, else a string.

    Types: ``str``, ``int``, ``float``, ``number`` (a whole number or a fraction: durations, named
    ``…_SECONDS``, ``…_TIMEOUT`` …), ``bool``, ``list`` (of strings), ``dict``; a ``?`` suffix allows an empty
    value, read as ``None`` (settings that are off while unset).
    """
    types = declared.get("SETTING_TYPES") or {}
    if name in types:
        return str(types[name])
    value = declared.get(name)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and name.endswith(_DURATIONS):
        return "number"  # a duration may be a fraction of a second (tests run heartbeats at 0.5 s)
    for python_type, type_name in ((bool, "bool"), (int, "int"), (float, "float"), (list, "list"), (dict, "dict")):
        if isinstance(value, python_type):
            return type_name
    return "str"


def parse_setting(name: str, raw: str, type_name: str) -> Any:
    """``PSAN_<name>``'s text read as its declared type; a value of the wrong type is a :class:`ConfigurationError`.

    Why typed: read as JSON literals, ``PSAN_SMTP_PASSWORD=123456`` became a number, ``PSAN_MAIL_FROM=no``
    ``False`` and ``PSAN_SMTP_USERNAME=null`` ``None``.  A string setting is now taken exactly as written.
    """
    optional = type_name.endswith("?")
    base = type_name.rstrip("?")
    text = raw.strip()
    if optional and not text:
        return None
    if base == "str":
        return raw
    try:
        if base == "bool":
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise ValueError
        if base == "int":
            return int(text)
        if base == "float":
            return float(text)
        if base == "number":
            return int(text) if text.lstrip("-").isdigit() else float(text)
        if base == "list":
            value = json.loads(text) if text.startswith("[") else [p.strip() for p in text.split(",") if p.strip()]
            if not isinstance(value, list):
                raise ValueError
            return value
        if base == "dict":
            value = json.loads(text)
            if not isinstance(value, dict):
                raise ValueError
            return value
    except ValueError:
        pass
    else:
        raise ConfigurationError(f"setting {name} has an unknown type {type_name!r} (config/default.py)")
    shown = repr(raw[:40] + ("…" if len(raw) > 40 else ""))
    expected = {"bool": "true or false", "int": "a whole number", "float": "a number", "number": "a number",
                "list": "a comma-separated list or a JSON list", "dict": "a JSON object"}[base]
    raise ConfigurationError(f"{ENV_PREFIX}{name} must be {expected}{' or empty' if optional else ''}, not {shown}.")


def env_overrides(environ: Mapping[str, str], declared: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """All ``PSAN_X`` variables as config keys ``X``, each parsed by its declared type (:func:`declared_type`).

    ``declared``: the configuration they override (default: ``config/default.py``).  ``PSAN_CONFIG`` selects
    the mode and is skipped, as are the test suite's ``PSAN_TEST_*``.
    """
    if declared is None:
        import config.default as defaults
        declared = {k: getattr(defaults, k) for k in dir(defaults) if k.isupper()}
    result = {}
    for key, raw in environ.items():
        if key.startswith(ENV_PREFIX) and key != "PSAN_CONFIG" and not key.startswith("PSAN_TEST_"):
            name = key[len(ENV_PREFIX):]
            result[name] = parse_setting(name, raw, declared_type(name, declared))
    return result


def load_config(app: Flask, overrides: Mapping[str, Any] | None = None,
                environ: Mapping[str, str] | None = None) -> str:
    """Fill ``app.config`` and return the selected mode."""
    environ = os.environ if environ is None else environ
    mode = (overrides or {}).get("PSAN_CONFIG") or environ.get("PSAN_CONFIG", "production")
    if mode not in MODES:
        raise ConfigurationError(f"PSAN_CONFIG must be one of {', '.join(MODES)}, not {mode!r}")
    app.config.from_object("config.default")
    app.config.from_object(f"config.{mode}")
    app.config.from_pyfile("config.py", silent=True)  # instance/config.py
    app.config.update(env_overrides(environ, app.config))
    if overrides:
        app.config.update({k: v for k, v in overrides.items() if k != "PSAN_CONFIG"})
    app.config["PSAN_MODE"] = mode
    # a pasted text is a form field: room for the longest document (4 UTF-8 bytes a character at worst);
    # Werkzeug's default (500 kB) refused pastes far below the documented MAX_DOCUMENT_CHARS
    app.config["MAX_FORM_MEMORY_SIZE"] = max(int(app.config.get("MAX_FORM_MEMORY_SIZE") or 0),
                                             4 * int(app.config["MAX_DOCUMENT_CHARS"]) + 1024 * 1024)
    check_config(app.config, mode)
    return mode


def check_config(config: Mapping[str, Any], mode: str) -> None:
    """Refuse unsafe production settings early, with a message that says what to do."""
    if mode == "production":
        secret = config.get("SECRET_KEY")
        if not secret or secret == config.get("INSECURE_DEFAULT_SECRET_KEY") or len(str(secret)) < 16:
            raise ConfigurationError(
                "SECRET_KEY is missing or still the default. Set PSAN_SECRET_KEY (at least 16 random characters, "
                "e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`) "
                "or SECRET_KEY in instance/config.py."
            )
        if config.get("QA_SAMPLE_SEED"):
            raise ConfigurationError(
                "QA_SAMPLE_SEED is set: it makes every QA sample predictable and is meant for evaluation runs only. "
                "Unset PSAN_QA_SAMPLE_SEED (or QA_SAMPLE_SEED in instance/config.py)."
            )
    if not config.get("DATABASE_URL"):
        raise ConfigurationError("DATABASE_URL is not set (PSAN_DATABASE_URL or instance/config.py).")
