"""Benchmark: the admin's dashboard and concordance search on a project of 10^6 tokens (issue 24).

Run: ``.venv/bin/python bench/bench_workspace.py [--tokens 1000000] [--documents 10] [--repeat 15]``

Target: the dashboard and the search answer in < 300 ms on a project of 1,000,000 tokens.  The
baseline measured in the same run is the project's documents page (``GET /documents/?project=``), an
existing admin page over the same project; the ratios to it are printed.

Set-up (not timed): a throw-away database ``psan_bench_workspace_<pid>`` on ``PSAN_BENCH_DATABASE_URL``
(dropped at the end); one project of ``--documents`` synthetic documents (the annotation latency
bench's generator: sentences with invented person and place names, every name an entity, NE-type
rules at confidence 0, so every name is a suspicious span), pre-annotated by
``reannotate_document_now``.  Work already done is simulated so the dashboard has something to
aggregate: 20 annotators, each with windows in ``window_log`` (written by the real trigger: each
lease is stored with :func:`psan.store.annotation.windows.store_window` and replaced by the next) and decisions
made through :func:`psan.store.annotation.decisions.decide` on 2 % of the spans.

Timed: each page through the app's real WSGI stack (Flask's test client in this process, a logged-in
admin, the real PostgreSQL), ``--repeat`` times after one warm-up; median and p95 per page.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_annotation_latency import PASSWORD, SECRET, synthetic_document  # noqa: E402
from throwaway import throwaway_database  # noqa: E402

from psan.runtime import db  # noqa: E402

TARGET_MS = 300.0
ANNOTATORS = 20


def populate(app, tokens: int, documents: int, seed: int) -> tuple[int, list[str]]:
    """The project (documents, pre-annotation, simulated work); returns its id and a few surnames in it."""
    from psan.identity import accounts
    from psan.store.admin.rules import ensure_ne_type_rules
    from psan.store.annotation import decisions, windows
    from psan.store.annotation.window_content import span_text
    from psan.store.corpus.documents import create_document, save_recognized
    from psan.store.corpus.reannotate import reannotate_document_now
    rng = random.Random(seed)
    with app.app_context():
        with db.transaction() as conn:
            project = db.query_one("INSERT INTO project (name, language) VALUES ('bench', 'cs') RETURNING id",
                                   None, conn)["id"]
            admin = accounts.create("admin@bench.invalid", "admin", accounts.Role.ADMIN, PASSWORD, 300, conn)
            people = [accounts.create(f"a{i}@bench.invalid", f"a{i}", accounts.Role.USER, PASSWORD, 300, conn).id
                      for i in range(ANNOTATORS)]
            for person in people:
                db.execute("INSERT INTO project_member VALUES (%s, %s)", (project, person), conn)
        surnames: list[str] = []
        doc_ids = []
        for n in range(documents):
            doc = synthetic_document(tokens // documents, seed + n)
            with db.transaction() as conn:
                document = create_document(conn, project, f"doc-{n}.txt", "cs", doc.text, None)
                save_recognized(conn, document, doc, "<submission/>")
                ensure_ne_type_rules(conn, project, {e.type for e in doc.entities})
            with db.transaction() as conn:
                reannotate_document_now(conn, document, doc=doc)
            doc_ids.append(document)
            persons = [e for e in doc.entities if e.type == "PERSON"]
            last_tokens = [doc.tokens[e.end_token - 1] for e in persons[:3]]
            surnames += [doc.text[t.start:t.end] for t in last_tokens]
            print(f"  document {n + 1}/{documents}: {len(doc.tokens):,} tokens, {len(doc.entities):,} entities",
                  flush=True)
        with db.transaction() as conn:
            spans = db.query("SELECT a.document_id, a.first_token, a.end_token FROM annotation a "
                             "JOIN document d ON d.id = a.document_id WHERE d.project_id = %s "
                             "AND a.token_decision IS NULL", (project,), conn)
        chosen = rng.sample(spans, max(1, len(spans) // 50))
        started = time.perf_counter()
        for i, s in enumerate(chosen):
            who = people[i % ANNOTATORS]
            with db.transaction() as conn:
                windows.store_window(conn, who, s["document_id"], max(0, s["first_token"] - 100),
                                     s["end_token"] + 100, 900)
                span = decisions.Span(project, s["document_id"], s["first_token"], s["end_token"])
                decisions.decide(conn, span, decisions.Scope.TOKEN, rng.choice(("PUBLIC", "PRIVATE")), who,
                                 span_text(conn, s["document_id"], s["first_token"], s["end_token"]))
                db.execute("UPDATE annotation_window SET decisions = 1, created_at = created_at - interval '40 s' "
                           "WHERE account_id = %s", (who,), conn)
        print(f"  {len(chosen):,} decisions in as many windows by {ANNOTATORS} annotators "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
        with db.transaction() as conn:
            conn.autocommit = True
            db.execute("VACUUM ANALYZE", None, conn)
    return project, sorted(set(surnames))[:3] + [admin.email]


def timed(client, url: str, repeat: int) -> list[float]:
    response = client.get(url)  # warm-up (per-process caches, plans)
    assert response.status_code == 200, (url, response.status_code)  # nosec B101 - a benchmark's own check
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200  # nosec B101
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--documents", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the database (its URL is printed)")
    args = parser.parse_args()
    with throwaway_database("psan_bench_workspace", keep=args.keep) as database:
        from psan import create_app
        app = create_app({"PSAN_CONFIG": "testing", "SECRET_KEY": SECRET, "DATABASE_URL": database.url,
                          "REDIS_URL": "redis://127.0.0.1:6379/13", "RATELIMIT_ENABLED": False,
                          "WTF_CSRF_ENABLED": False})
        print(f"set-up in database {database.name} (not timed):", flush=True)
        project, words = populate(app, args.tokens, args.documents, args.seed)
        surname, admin_email = words[0], words[-1]
        client = app.test_client()
        response = client.post("/auth/login", data={"email": admin_email, "password": PASSWORD})
        assert response.status_code == 302, response.status_code  # nosec B101
        pages = {
            "documents page (baseline)": f"/documents/?project={project}",
            "dashboard": f"/workspace/projects/{project}/dashboard",
            f"search word '{surname}'": f"/workspace/projects/{project}/search?q={surname}",
            f"search lemma '{surname}'": f"/workspace/projects/{project}/search?q={surname}&mode=lemma",
            "search regex '[A-Z][a-z]+burg'": f"/workspace/projects/{project}/search?q=%5BA-Z%5D%5Ba-z%5D%2Bburg"
                                             "&mode=regex&case=1",
        }
        results = {}
        for label, url in pages.items():
            times = timed(client, url, args.repeat)
            results[label] = (statistics.median(times), sorted(times)[max(0, int(len(times) * 0.95) - 1)])
        base = results["documents page (baseline)"][0]
        print(f"\n{args.tokens:,} tokens in {args.documents} documents; {args.repeat} requests per page")
        ok = True
        for label, (median, p95) in results.items():
            verdict = ""
            if label != "documents page (baseline)":
                passed = p95 < TARGET_MS
                ok = ok and passed
                verdict = f"  target p95 < {TARGET_MS:.0f} ms: {'PASS' if passed else 'FAIL'}"
            print(f"{label:34s} median {median:7.1f} ms  p95 {p95:7.1f} ms  ratio {median / base:5.2f}x{verdict}")
        return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
