"""Benchmark: a scripted annotator works through a 5,000-token document in headless Chromium, keyboard only.

Run: ``.venv/bin/python bench/bench_browser_annotator.py [--tokens 5000] [--chromium /usr/bin/chromium]``

Why: the simulation (``python -m ner_eval simulate``) counts decisions and keystrokes with a model of
the UI; this bench drives the real UI (``psan/static/annotate.js``) so that UI changes are measured
too.  Two runs on two copies of one synthetic document (``bench_annotation_latency.synthetic_document``:
person names private, place names public, every name an entity, NE-type rules at confidence 0):

* ``one-by-one`` (the baseline, the 2021 workflow): every suspicious span is selected with ``n`` and
  decided with ``s``/``p`` (``Esc`` closes the label dialog a private decision opens);
* ``accept``: the annotator fixes only the spans whose suggestion is wrong and accepts the rest of
  the window with ``a``.

The person knows which names are private (the gold of the synthetic document) and reads everything
else from the page (selection text, suggestion classes).  Printed per run: decisions, keystrokes,
windows, server milliseconds per decision (measured in the WSGI server around each decision
request), wall time; then the ratios accept / one-by-one.

Set-up as ``bench_annotation_latency.py``: a throw-away database ``psan_bench_<pid>`` on
``PSAN_BENCH_DATABASE_URL`` (dropped at the end), Redis ``PSAN_BENCH_REDIS_URL`` (this run's keys
deleted at the end), werkzeug's threaded server in this process, Debian's Chromium through
Playwright (``executable_path``; Playwright's own browser download is never used).  No Celery
worker: only this document exists, and decisions update it within the request.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg2
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_annotation_latency import PASSWORD, SECRET, synthetic_document  # noqa: E402
from throwaway import with_database  # noqa: E402

from psan.runtime import db, migrate  # noqa: E402
from psan.tool.text.document import Category, Document  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
MODES = ("one-by-one", "accept")


class Timing:
    """WSGI middleware: server milliseconds of every decision request (decide, accept)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.ms: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "POST" or not path.endswith(("/api/decide", "/api/accept")):
            return self.app(environ, start_response)
        started = time.perf_counter()
        body = b"".join(self.app(environ, start_response))
        with self.lock:
            self.ms.append(1000 * (time.perf_counter() - started))
        return [body]


def populate(app: Any, doc: Document) -> tuple[dict[str, str], set[str]]:
    """One project per mode with a copy of ``doc``; returns mode -> annotator e-mail and the private names."""
    from psan.identity import accounts
    from psan.store.admin.rules import ensure_ne_type_rules
    from psan.store.corpus.documents import create_document, save_recognized
    from psan.store.corpus.reannotate import reannotate_document_now
    emails = {}
    with app.app_context():
        for mode in MODES:
            email = f"{mode}@bench.invalid"
            with db.transaction() as conn:
                project = db.query_one("INSERT INTO project (name, language) VALUES (%s, 'en') RETURNING id",
                                       (f"browser {mode}",), conn)["id"]
                document = create_document(conn, project, f"{mode}.txt", "en", doc.text, None)
                save_recognized(conn, document, doc, "<submission/>")
                ensure_ne_type_rules(conn, project, {e.type for e in doc.entities})
                account = accounts.create(email, mode, accounts.Role.USER, PASSWORD, 300, conn)
                db.execute("INSERT INTO project_member (project_id, account_id) VALUES (%s, %s)",
                           (project, account.id), conn)
            with db.transaction() as conn:
                reannotate_document_now(conn, document, doc=doc)
            emails[mode] = email
    private = {doc.text[doc.tokens[e.first_token].start:doc.tokens[e.end_token - 1].end]
               for e in doc.entities if e.category is Category.PERSON}
    return emails, private


# --- the scripted person -------------------------------------------------------------------------------------
SUSPICIOUS_JS = """() => {
  const seen = new Map();
  document.querySelectorAll('#ann-text .ann.dec-suspicious').forEach(a => {
    const id = a.getAttribute('data-ann');
    if (!seen.has(id)) {
      seen.set(id, {id: id, suggestion: a.classList.contains('sugg-private') ? 'PRIVATE'
                   : (a.classList.contains('sugg-public') ? 'PUBLIC' : null), text: ''});
    }
  });
  // the span's text: its tokens and the gaps inside it, in document order
  document.querySelectorAll('#ann-text .tok, #ann-text .gap').forEach(n => {
    const ids = new Set(Array.from(n.querySelectorAll('.ann.dec-suspicious')).map(a => a.getAttribute('data-ann')));
    ids.forEach(id => { if (seen.has(id)) { seen.get(id).text += n.textContent; } });
  });
  return Array.from(seen.values()).map(s => ({id: s.id, suggestion: s.suggestion, text: s.text.trim()}));
}"""


class Person:
    """Keyboard only; counts what it presses and decides."""

    def __init__(self, page: Any, private: set[str], mode: str) -> None:
        self.page, self.private, self.mode = page, private, mode
        self.keys = self.decisions = self.windows = 0

    def press(self, key: str, server: bool = False) -> None:
        self.keys += 1
        if server:
            with self.page.expect_response(lambda r: "/annotate/api/" in r.url and r.request.method == "POST"):
                self.page.keyboard.press(key)
            self.page.wait_for_timeout(30)  # the page renders the answer synchronously; let it run
        else:
            self.page.keyboard.press(key)

    def selected_text(self) -> str:
        text = self.page.text_content("#ann-selection") or ""
        return text.split("”")[0].lstrip("“")

    def close_label_dialog(self) -> None:
        try:
            self.page.wait_for_selector("#ann-label-dialog:not(.d-none)", timeout=1500)
        except Exception:  # noqa: BLE001 - no dialog (the span got a label from a rule)
            return
        self.press("Escape")

    def decide_selected(self) -> None:
        private = self.selected_text() in self.private
        self.press("s" if private else "p", server=True)
        self.decisions += 1
        if private:
            self.close_label_dialog()

    def select(self, text: str) -> bool:
        """``n`` until the selection is the first suspicious span with this text."""
        for _ in range(200):
            if self.selected_text() == text:
                return True
            self.press("n")
        return False

    def window(self) -> bool:
        """Work through the current window; ``False`` when nothing is left to annotate."""
        if self.page.query_selector("#ann-text .tok") is None:
            return False
        self.windows += 1
        for _ in range(1000):
            spans = self.page.evaluate(SUSPICIOUS_JS)
            if not spans:
                break
            if self.mode == "accept":
                wrong = [s for s in spans if s["suggestion"] != ("PRIVATE" if s["text"] in self.private else "PUBLIC")]
                if not wrong:
                    self.press("a", server=True)
                    self.decisions += 1
                    continue
                target = wrong[0]["text"]
            else:
                target = spans[0]["text"]
            if not self.select(target):
                raise RuntimeError(f"could not select {target!r} with the keyboard")
            self.decide_selected()
        self.press("w", server=True)
        return True


def masked_names(app: Any, email: str) -> tuple[int, int]:
    """Person-name entities of the annotator's project finally PRIVATE, and how many there are."""
    with app.app_context(), db.transaction() as conn:
        row = db.query_one(
            "SELECT count(*) AS total, count(*) FILTER (WHERE a.token_decision = 'PRIVATE' OR (a.token_decision "
            "IS NULL AND a.rule_level <= p.private_threshold)) AS masked FROM named_entity ne "
            "JOIN document d ON d.id = ne.document_id JOIN project p ON p.id = d.project_id "
            "JOIN project_member m ON m.project_id = p.id JOIN account acc ON acc.id = m.account_id "
            "LEFT JOIN annotation a ON a.document_id = ne.document_id AND a.first_token = ne.first_token "
            "AND a.end_token = ne.end_token WHERE acc.email = %s AND ne.category = 'PERSON'", (email,), conn)
    return int(row["masked"]), int(row["total"])


def run_mode(browser: Any, base: str, email: str, private: set[str], mode: str) -> dict[str, Any]:
    context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto("/auth/login")
    page.fill('input[name="email"]', email)
    page.fill('input[name="password"]', PASSWORD)
    page.click('main form input[type="submit"], main form button[type="submit"]')
    page.wait_for_url("**/")
    page.goto("/annotate/")
    page.wait_for_selector("#ann-text .tok, #ann-message:not(.d-none)")
    person = Person(page, private, mode)
    started = time.perf_counter()
    while person.window():
        page.wait_for_timeout(50)
    seconds = time.perf_counter() - started
    context.close()
    return {"decisions": person.decisions, "keystrokes": person.keys, "windows": person.windows,
            "seconds": seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--chromium", default=os.environ.get("PSAN_CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()
    if not (Path(args.chromium).is_file() or shutil.which(args.chromium)):
        print(f"error: no Chromium at {args.chromium} (apt-get install chromium)", file=sys.stderr)
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("error: Playwright for Python is not installed (pip install playwright)", file=sys.stderr)
        return 2
    server_url = os.environ.get("PSAN_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    redis_url = os.environ.get("PSAN_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
    name, queue = f"psan_bench_{os.getpid()}", f"psan-bench-{os.getpid()}"
    admin = psycopg2.connect(server_url)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    url = with_database(server_url, name)
    server = None
    try:
        migrate.upgrade(url)
        config = {"PSAN_CONFIG": "testing", "SECRET_KEY": SECRET, "DATABASE_URL": url, "REDIS_URL": redis_url,
                  "CELERY_QUEUE": queue, "REDIS_KEY_PREFIX": queue, "RATELIMIT_KEY_PREFIX": queue,
                  "RATELIMIT_ENABLED": False, "MODEL_FIRST_AFTER_DECISIONS": 0, "MODEL_RETRAIN_AFTER_DECISIONS": 0}
        from psan import create_app
        app = create_app(config)
        doc = synthetic_document(args.tokens, args.seed)
        emails, private = populate(app, doc)
        print(f"document: {len(doc.tokens):,} tokens, {len(doc.entities)} entities "
              f"({sum(1 for e in doc.entities if e.category is Category.PERSON)} private person names)")
        timing = Timing(app.wsgi_app)
        app.wsgi_app = timing
        import logging

        from werkzeug.serving import make_server
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no access log lines in the output
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        results = {}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            for mode in MODES:
                timing.ms.clear()
                results[mode] = run_mode(browser, base, emails[mode], private, mode)
                ms = list(timing.ms)
                results[mode]["server_ms_per_decision"] = statistics.mean(ms) if ms else 0.0
                results[mode]["server_ms_p95"] = sorted(ms)[int(0.95 * (len(ms) - 1))] if ms else 0.0
                r = results[mode]
                r["masked"], r["names"] = masked_names(app, emails[mode])
                print(f"{mode:10} names masked {r['masked']}/{r['names']}  decisions {r['decisions']:4d}  "
                      f"keystrokes {r['keystrokes']:5d}  windows "
                      f"{r['windows']:3d}  server ms/decision {r['server_ms_per_decision']:.1f} "
                      f"(p95 {r['server_ms_p95']:.1f})  wall {r['seconds']:.1f} s", flush=True)
            browser.close()
        base_r, acc = results["one-by-one"], results["accept"]
        print(f"ratio accept/one-by-one: decisions {acc['decisions'] / max(1, base_r['decisions']):.2f}x, "
              f"keystrokes {acc['keystrokes'] / max(1, base_r['keystrokes']):.2f}x, server ms/decision "
              f"{acc['server_ms_per_decision'] / max(1e-9, base_r['server_ms_per_decision']):.2f}x")
        return 0
    finally:
        if server is not None:
            server.shutdown()
        db.close_pools()
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
        client = redis.Redis.from_url(redis_url)
        for key in [queue, *client.scan_iter(f"*{queue}*")]:
            client.delete(key)


if __name__ == "__main__":
    sys.exit(main())
