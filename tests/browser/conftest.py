"""Fixtures of the browser tests: the app in a real WSGI server and a headless Chromium page.

Playwright's own browser download is never used (``executable_path`` points at the system Chromium).
The test modules skip themselves without Playwright or Chromium (tests/browser/helpers.py).
"""
from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from tests.browser.helpers import ARGS, ARTIFACTS, CHROMIUM

#: records Content-Security-Policy violations in the page; init scripts are injected by the DevTools
#: protocol, so the page's own CSP does not block this listener
CSP_LISTENER = ("document.addEventListener('securitypolicyviolation', function (e) {"
                " (window.__cspViolations = window.__cspViolations || []).push("
                "e.violatedDirective + ' ' + e.blockedURI); });")


@pytest.fixture()
def live_server(clean_app) -> Iterator[str]:
    from werkzeug.serving import make_server
    server = make_server("127.0.0.1", 0, clean_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def _new_page(browser, base_url: str, dialogs: list[str]):
    """A page in a fresh context (own cookies) that records page errors and CSP violations."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  accept_downloads=True)
    context.add_init_script(CSP_LISTENER)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    csp: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    pg.dialogs = dialogs
    pg.errors = errors
    pg.csp = csp
    return pg


@pytest.fixture()
def page(live_server):
    from playwright import sync_api
    ARTIFACTS.mkdir(exist_ok=True)
    dialogs: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            pg = _new_page(browser, live_server, dialogs)
            pg.new_session = lambda: _new_page(browser, live_server, dialogs)
            yield pg
            assert pg.csp == [], f"Content-Security-Policy violations: {pg.csp}"
        finally:
            browser.close()
    assert dialogs == [], f"a JavaScript dialog was opened: {dialogs}"
