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


def _parse_env_value(raw: str) -> Any:
    """Environment values are strings; accept JSON literals so ints and booleans keep their type."""
    lowered = raw.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null"):
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if isinstance(value, (int, float, list, dict)) else raw


def env_overrides(environ: Mapping[str, str]) -> dict[str, Any]:
    """All ``PSAN_X`` variables as config keys ``X`` (``PSAN_CONFIG`` selects the mode and is skipped)."""
    result = {}
    for key, raw in environ.items():
        if key.startswith(ENV_PREFIX) and key != "PSAN_CONFIG" and not key.startswith("PSAN_TEST_"):
            result[key[len(ENV_PREFIX):]] = _parse_env_value(raw)
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
    app.config.update(env_overrides(environ))
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
    if not config.get("DATABASE_URL"):
        raise ConfigurationError("DATABASE_URL is not set (PSAN_DATABASE_URL or instance/config.py).")
