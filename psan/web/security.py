"""Security headers on every response: a strict Content-Security-Policy and friends.

Every script and stylesheet is served from the app itself (no inline scripts, no CDN), so the
policy can forbid everything else; nothing a document contains can run as code in a browser.
"""
from __future__ import annotations

from flask import Flask, Response, current_app, has_request_context, request

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def add_security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    hsts = current_app.config.get("HSTS_SECONDS")
    if hsts:
        headers.setdefault("Strict-Transport-Security", f"max-age={int(hsts)}; includeSubDomains")
    if not _is_static():
        # pages, API answers and downloads carry personal data: no cache may keep them (a view's
        # weaker "no-cache", e.g. from send_file, is replaced too)
        headers["Cache-Control"] = "no-store"
    return response


def _is_static() -> bool:
    endpoint = request.endpoint if has_request_context() else None
    return bool(endpoint) and (endpoint == "static" or endpoint.endswith(".static"))


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)
