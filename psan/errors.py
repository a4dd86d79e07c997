"""Friendly error pages (HTML or JSON) that never leak internals."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException


def _wants_json() -> bool:
    return request.is_json or request.accept_mimetypes.best == "application/json" or request.path.startswith("/api/")


def _render(status: int, title: str, message: str):
    if _wants_json():
        return jsonify(error=message), status
    return render_template("error.html", status=status, title=title, message=message), status


def handle_http_error(exc: HTTPException):
    return _render(exc.code or 500, exc.name, exc.description or exc.name)


def handle_csrf_error(exc: CSRFError):
    return _render(400, "Form expired", "The form was missing its security token or it expired. "
                                        "Reload the page and try again.")


def init_app(app: Flask) -> None:
    app.register_error_handler(CSRFError, handle_csrf_error)
    app.register_error_handler(HTTPException, handle_http_error)
