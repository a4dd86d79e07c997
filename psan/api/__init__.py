"""The versioned JSON API (``/api/v1/``), its OpenAPI document, and the token and docs pages.

flask-smorest validates each request with the marshmallow schemas of :mod:`psan.api.schemas` and apispec
writes ``/api/v1/openapi.json`` from the same schemas.  Callers authenticate with a personal API token
(:mod:`psan.web.api_auth`); every view declares the token scopes it accepts (:func:`psan.api.common.scoped`).
A new group of endpoints (e.g. importing spans) is one more module with a blueprint, imported and listed in
:func:`register`.
"""
from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from psan.api.schemas import ErrorSchema


class PsanApi(Api):
    """flask-smorest's Api without its app-wide error handler (psan's pages keep their HTML error pages;
    the API blueprints answer JSON themselves, :mod:`psan.api.common`)."""

    ERROR_SCHEMA = ErrorSchema

    def _register_error_handlers(self) -> None:
        return None


def register(app: Flask) -> None:
    """Register the API blueprints (CSRF-exempt: only bearer tokens count there), rate limits and the pages."""
    from psan.api import annotate, annotation_files, documents, meta, offers, pages, projects, release
    from psan.web.extensions import csrf
    app.config.setdefault("API_TITLE", "psan")
    app.config.setdefault("API_VERSION", "v1")
    app.config.setdefault("OPENAPI_VERSION", "3.0.3")
    api = PsanApi(app, spec_kwargs={
        "info": {"description": "Pseudonymization workbench: projects, documents, spans, decisions, releases. "
                               "Send a personal API token: Authorization: Bearer psan_…"},
        "servers": [{"url": "/"}],
    })
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    # in the order of the OpenAPI document
    for bp in (meta.bp, projects.bp, documents.bp, annotation_files.bp, annotate.bp, release.bp, offers.bp):
        csrf.exempt(bp)
        api.register_blueprint(bp)
    app.extensions["psan_api"] = api
    app.register_blueprint(pages.bp)
