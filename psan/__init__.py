"""psan: a workbench that turns text collections with personal data into pseudonymized ones.

``create_app`` is the Flask application factory (Flask tutorial style); the automatic library
lives in :mod:`psan.tool` and works without the web app.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app.  ``config`` overrides everything else (tests); ``PSAN_CONFIG`` may be among it."""
    from psan.paths import instance_dir
    app = Flask(__name__, instance_path=str(instance_dir()), instance_relative_config=True)
    from psan.settings import load_config
    load_config(app, config)

    from werkzeug.middleware.proxy_fix import ProxyFix
    if app.config["PROXY_FIX_X_FOR"]:
        n = int(app.config["PROXY_FIX_X_FOR"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)

    from psan import access, db, errors, i18n, security
    from psan.accounts import login_manager
    from psan.extensions import bootstrap, csrf, limiter, show_limiter_log
    db.init_app(app)
    csrf.init_app(app)
    bootstrap.init_app(app)
    i18n.init_app(app)
    login_manager.init_app(app)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    limiter.init_app(app)
    show_limiter_log()
    access.init_app(app)
    security.init_app(app)
    errors.init_app(app)

    from psan.celery import celery_init_app
    celery_init_app(app)

    from psan.blueprints import register_all
    register_all(app)

    from psan.cli import register_commands
    register_commands(app)
    return app
