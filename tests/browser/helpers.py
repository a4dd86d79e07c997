"""Helpers of the browser tests: where Chromium is, logging in through the page, waiting for the page's state."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.helpers import PASSWORD

CHROMIUM = os.environ.get("PSAN_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ANNOTATOR = "annotator@example.org"
ADMIN = "admin@example.org"


def skip_without_browser() -> None:
    """Skip the calling test module (call it at module level) without Playwright or the system Chromium."""
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                                      "(pip install playwright; no 'playwright install')")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


def csp_violations(pg) -> list[str]:
    """Violations seen by the console and by the in-page listener (of the current document)."""
    return [*pg.csp, *(pg.evaluate("() => window.__cspViolations || []") or [])]


def login(page, email: str = ANNOTATOR) -> None:
    page.goto("/auth/login")
    page.fill('input[name="email"]', email)
    page.fill('input[name="password"]', PASSWORD)
    page.click('main form input[type="submit"], main form button[type="submit"]')
    page.wait_for_url("**/")


def wait_js(page, expression: str, timeout: float = 15.0) -> None:
    """Poll a JavaScript expression with ``page.evaluate`` (CDP, not subject to the page's CSP, unlike
    ``wait_for_function`` which evals a string inside the page and is blocked by ``script-src 'self'``)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        time.sleep(0.05)
