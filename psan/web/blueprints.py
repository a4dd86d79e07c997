"""Every blueprint of the web app, registered by :func:`psan.create_app` in this order.

Add a new blueprint here (one line); its views must declare their access level (see psan.web.access).
"""
from __future__ import annotations

from importlib import import_module

BLUEPRINTS = [
    "psan.auth",
    "psan.users",
    "psan.main",
    "psan.web.i18n_views",
    "psan.projects", "psan.documents",
    "psan.rules",
    "psan.labels",
    "psan.annotate",
    "psan.workspace",
    "psan.api",
]


def register_all(app) -> None:
    from psan.web.ids import IdConverter
    app.url_map.converters["int"] = IdConverter  # before the routes: every <int:id> stays in bigint's range
    for module_name in BLUEPRINTS:
        module = import_module(module_name)
        register = getattr(module, "register", None)  # a package of several blueprints registers them itself
        if register is not None:
            register(app)
        else:
            app.register_blueprint(module.bp)
