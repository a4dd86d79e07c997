"""Recognition pipelines cached per process.

Why: building a pipeline loads NER models (hundreds of MB, seconds); a worker must build each
distinct configuration once and reuse it for every document.  The cache key is the canonical
JSON of the effective config.
"""
from __future__ import annotations

import json
import threading
from typing import Any

from psan.tool.detection.defaults import default_config, fallback_notice
from psan.tool.detection.pipeline import Pipeline

_cache: dict[str, Pipeline] = {}
_lock = threading.Lock()


def effective_config(stored: dict[str, Any] | None, language: str) -> dict[str, Any]:
    """The project's stored config, or the language default when it is empty; language forced."""
    config = dict(stored) if stored else default_config(language)
    config["language"] = language
    return config


def lacks_ner(stored: dict[str, Any] | None, language: str) -> bool:
    """Does the project's effective pipeline run without any NER model (patterns + gazetteers only)?

    Why: a site without the NameTag models folder still works but misses most names; the project
    page must say so (``psan.tool.detection.defaults.fallback_notice`` is the CLI's twin).
    """
    return fallback_notice(effective_config(stored, language)) is not None


def config_key(config: dict[str, Any]) -> str:
    return json.dumps(config, sort_keys=True, ensure_ascii=False)


def get_pipeline(config: dict[str, Any]) -> Pipeline:
    """A built pipeline for ``config`` (raises what ``Pipeline`` raises for bad configs)."""
    key = config_key(config)
    pipeline = _cache.get(key)
    if pipeline is None:
        with _lock:
            pipeline = _cache.get(key)
            if pipeline is None:
                pipeline = Pipeline(json.loads(key))
                _cache[key] = pipeline
    return pipeline


def validate_config(config: Any, language: str) -> str | None:
    """``None`` if ``config`` builds a pipeline for ``language``, otherwise a message for the form."""
    if not isinstance(config, dict):
        return "The pipeline must be a JSON object, e.g. {\"tokenizer\": \"regex\", \"ner\": []}."
    if config.get("language", language) != language:
        return f"The pipeline's language {config.get('language')!r} differs from the project language {language!r}."
    try:
        get_pipeline(effective_config(config, language))
    except Exception as exc:  # noqa: BLE001 - any component error is shown to the admin, never a 500
        return f"The pipeline cannot be built: {exc.__class__.__name__}: {str(exc)[:300]}"
    return None
