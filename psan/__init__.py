"""psan: a workbench that turns text collections with personal data into pseudonymized ones.

``create_app`` is the Flask application factory (Flask tutorial style); the automatic library
lives in :mod:`psan.tool` and works without the web app.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(config: Mapping[str, Any] | None = None, *, environ: Mapping[str, str] | None = None) -> Flask:
    """Build the app.  ``config`` overrides everything else (tests); ``PSAN_CONFIG`` may be among it.

    ``config["INSTANCE_PATH"]`` and ``environ`` (default ``os.environ``) let a caller decide which
    instance folder and which ``PSAN_*`` variables count, so tests never pick up the user's.
    """
    from psan.runtime.paths import instance_dir
    instance = (config or {}).get("INSTANCE_PATH") or instance_dir()
    app = Flask(__name__, instance_path=str(instance), instance_relative_config=True)
    from psan.runtime.settings import load_config
    load_config(app, config, environ)

    from werkzeug.middleware.proxy_fix import ProxyFix
    if app.config["PROXY_FIX_X_FOR"]:
        n = int(app.config["PROXY_FIX_X_FOR"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)

    from psan.identity.accounts import login_manager
    from psan.runtime import db
    from psan.store.shared import names
    from psan.web import access, code_names, errors, i18n, input_guard, json_provider, security
    from psan.web.extensions import bootstrap, csrf, limiter, show_limiter_log
    json_provider.init_app(app)
    db.init_app(app)
    csrf.init_app(app)
    bootstrap.init_app(app)
    i18n.init_app(app)
    names.init_app(app)
    code_names.init_app(app)
    login_manager.init_app(app)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    # rate-limit counters are per instance: two instances sharing a Redis database never share them
    app.config.setdefault("RATELIMIT_KEY_PREFIX", app.config.get("REDIS_KEY_PREFIX") or "psan")
    if str(app.config["RATELIMIT_STORAGE_URI"]).startswith(("redis", "rediss")):
        prefix = app.config["RATELIMIT_KEY_PREFIX"]
        # the configured options (socket timeouts for the in-memory fallback) keep theirs; the prefix is added
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {"key_prefix": f"{prefix}:LIMITS",
                                                   **(app.config.get("RATELIMIT_STORAGE_OPTIONS") or {})}
    limiter.init_app(app)
    show_limiter_log()
    access.init_app(app)
    input_guard.init_app(app)
    security.init_app(app)
    errors.init_app(app)

    from psan.celery import celery_init_app
    celery_init_app(app)

    from psan.web.ids import IdConverter
    app.url_map.converters["int"] = IdConverter  # before the routes: every <int:id> stays in bigint's range
    register_blueprints(app)

    from psan.commands.cli import register_commands
    register_commands(app)
    return app


def register_blueprints(app: Flask) -> None:
    """Every page blueprint, imported and registered here (as in Flask's tutorial), so the import is visible.

    A new blueprint is one more line; its views must declare their access level (see :mod:`psan.web.access`).
    """
    from psan import annotate, api, auth, documents, labels, main, projects, rules, users, workspace
    from psan.web import i18n_views
    app.register_blueprint(auth.bp)
    app.register_blueprint(users.bp)
    app.register_blueprint(main.bp)
    app.register_blueprint(i18n_views.bp)
    app.register_blueprint(projects.bp)
    app.register_blueprint(documents.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(labels.bp)
    app.register_blueprint(annotate.bp)
    app.register_blueprint(workspace.bp)
    api.register(app)  # the JSON API registers its own blueprints (CSRF-exempt, in the order of its document)
