"""User-interface languages (Flask-Babel).

The locale of a request is, in this order: the language the user picked with the navbar switcher
(stored in the session by :mod:`psan.web.i18n_views`), the best ``Accept-Language`` match among
``LANGUAGES`` (config), English.  Catalogues live in ``psan/translations`` (see ``babel.cfg``).
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, has_request_context, request, session
from flask_babel import Babel, get_locale

#: session key holding the explicitly chosen language code
SESSION_KEY = "lang"
DEFAULT_LANGUAGE = "en"
#: language names shown by the switcher, each in its own language (never translated)
LANGUAGE_NAMES = {"en": "English", "cs": "Čeština"}
TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"

babel = Babel()


def languages() -> list[str]:
    configured = current_app.config.get("LANGUAGES") or [DEFAULT_LANGUAGE]
    if isinstance(configured, str):  # PSAN_LANGUAGES=en,cs
        configured = [code.strip() for code in configured.split(",") if code.strip()]
    return list(configured)


def select_locale() -> str:
    supported = languages()
    fallback = DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in supported else supported[0]
    if not has_request_context():  # CLI commands and worker tasks speak English
        return fallback
    chosen = session.get(SESSION_KEY)
    if chosen in supported:
        return chosen
    return request.accept_languages.best_match(supported, default=fallback) or fallback


def current_language() -> str:
    """Language code of the current request (for ``<html lang>``)."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def init_app(app: Flask) -> None:
    app.config.setdefault("LANGUAGES", ["en", "cs"])
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS_DIR))
    babel.init_app(app, locale_selector=select_locale)
    # {% trans %} blocks are whitespace-normalized, as babel.cfg extracts them (trimmed = true)
    app.jinja_env.policies["ext.i18n.trimmed"] = True

    @app.context_processor
    def _language_context() -> dict:
        return {"current_language": current_language, "language_names": LANGUAGE_NAMES,
                "ui_languages": languages}
