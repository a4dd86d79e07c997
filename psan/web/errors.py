"""Friendly error pages (HTML or JSON) that never leak internals."""
from __future__ import annotations

import logging

import kombu.exceptions
import psycopg2
import redis
from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import gettext, lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

#: translated titles of the usual statuses (others keep Werkzeug's English name)
TITLES = {
    400: lazy_gettext("Bad Request"),
    401: lazy_gettext("Unauthorized"),
    403: lazy_gettext("Forbidden"),
    404: lazy_gettext("Not Found"),
    405: lazy_gettext("Method Not Allowed"),
    409: lazy_gettext("Conflict"),
    413: lazy_gettext("Request Entity Too Large"),
    429: lazy_gettext("Too Many Requests"),
    500: lazy_gettext("Internal Server Error"),
    503: lazy_gettext("Service Unavailable"),
}
#: translated stand-ins for Werkzeug's default (English) descriptions of those statuses
DESCRIPTIONS = {
    400: lazy_gettext("The browser (or proxy) sent a request that this server could not understand."),
    401: lazy_gettext("The server could not verify that you are authorized to access the URL requested. You either "
                      "supplied the wrong credentials (e.g. a bad password), or your browser doesn't understand how "
                      "to supply the credentials required."),
    403: lazy_gettext("You don't have the permission to access the requested resource. It is either read-protected "
                      "or not readable by the server."),
    404: lazy_gettext("The requested URL was not found on the server. If you entered the URL manually please check "
                      "your spelling and try again."),
    405: lazy_gettext("The method is not allowed for the requested URL."),
    409: lazy_gettext("A conflict happened while processing the request. The resource might have been modified "
                      "while the request was being processed."),
    413: lazy_gettext("The data value transmitted exceeds the capacity limit."),
    429: lazy_gettext("This user has exceeded an allotted request count. Try again later."),
    500: lazy_gettext("The server encountered an internal error and was unable to complete your request. Either the "
                      "server is overloaded or there is an error in the application."),
    503: lazy_gettext("The server is temporarily unable to service your request due to maintenance downtime or "
                      "capacity problems. Please try again later."),
}


log = logging.getLogger(__name__)


def _wants_json() -> bool:
    return request.is_json or request.accept_mimetypes.best == "application/json" or "/api/" in request.path


#: stable error codes of the versioned JSON API by HTTP status (a script tests the code, people read the message)
API_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
             409: "conflict", 413: "too_large", 415: "unsupported_media_type", 422: "invalid_input",
             429: "rate_limited", 500: "internal_error", 503: "unavailable"}


def _render(status: int, title: str, message: str):
    if request.path.startswith("/api/v1/"):
        return jsonify(code=API_CODES.get(status, "error"), message=message), status
    if _wants_json():
        return jsonify(error=message), status
    try:
        return render_template("error.html", status=status, title=title, message=message), status
    except (psycopg2.OperationalError, psycopg2.InterfaceError):
        # the page header asks who is logged in; with PostgreSQL down, show it as to a visitor
        _without_database()
        return render_template("error.html", status=status, title=title, message=message), status


def handle_http_error(exc: HTTPException):
    code = exc.code or 500
    title = str(TITLES[code]) if code in TITLES else exc.name
    message = exc.description or exc.name
    if code in DESCRIPTIONS and exc.description == type(exc).description:  # Werkzeug's own English text
        message = str(DESCRIPTIONS[code])
    return _render(code, title, message)


def handle_csrf_error(exc: CSRFError):
    return _render(400, gettext("Form expired"), gettext("The form was missing its security token or it expired. "
                                                         "Reload the page and try again."))


def _without_database() -> None:
    """Let the error page render while PostgreSQL is down: no user lookup, drop the broken connection."""
    g._login_user = current_app.login_manager.anonymous_user()
    conn = g.pop("db_conn", None)
    if conn is not None:
        from psan.runtime.db import app_pool
        try:
            app_pool().putconn(conn, close=True)
        except Exception:  # noqa: BLE001 - the pool itself may be gone with the server
            log.debug("could not return a broken connection", exc_info=True)


def _may_have_saved() -> bool:
    from psan.runtime.db import request_may_have_saved
    return request_may_have_saved()


def handle_database_down(exc: psycopg2.OperationalError | psycopg2.InterfaceError):
    """PostgreSQL unreachable (restart, outage): a temporary 503, never a 500 or a hanging page."""
    code = getattr(exc, "pgcode", None)
    lost = code is None or code.startswith(("08", "57P"))  # connection failure, server shut down
    log.warning("database %s: %s", "unavailable" if lost else "busy",
                str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__)
    saved = _may_have_saved()
    _without_database()
    if saved:  # a commit ran (or was under way): part of the request may be saved
        return _render(503, str(TITLES[503]), gettext("The database became unavailable while this request was "
                                                      "being saved; it may have been saved in part. Reload the page "
                                                      "to see what was kept before trying again."))
    if not lost:  # a lock or statement timeout: the server is there, but busy
        return _render(503, str(TITLES[503]), gettext("The database is busy. Nothing was saved by this request; "
                                                      "please try again in a moment."))
    return _render(503, str(TITLES[503]), gettext("The database is temporarily unavailable. Nothing was saved by "
                                                  "this request; please try again in a minute."))


def handle_redis_down(exc: Exception):
    """Redis (broker, debounce markers) unreachable: a temporary 503 whose transaction is rolled back."""
    log.warning("Redis unavailable: %s", exc.__class__.__name__)
    if _may_have_saved():
        return _render(503, str(TITLES[503]), gettext("A background service (Redis) is temporarily unavailable. "
                                                      "This request may have been saved in part; reload the page to "
                                                      "see what was kept."))
    return _render(503, str(TITLES[503]), gettext("A background service (Redis) is temporarily unavailable. "
                                                  "Nothing was saved by this request; please try again in a minute."))


def init_app(app: Flask) -> None:
    app.register_error_handler(CSRFError, handle_csrf_error)
    app.register_error_handler(psycopg2.OperationalError, handle_database_down)
    app.register_error_handler(psycopg2.InterfaceError, handle_database_down)
    app.register_error_handler(redis.ConnectionError, handle_redis_down)
    app.register_error_handler(redis.TimeoutError, handle_redis_down)
    app.register_error_handler(kombu.exceptions.OperationalError, handle_redis_down)
    app.register_error_handler(HTTPException, handle_http_error)
