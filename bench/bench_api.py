"""Benchmark: an API call against the page that does the same thing (ratio API time / page time).

Run: ``.venv/bin/python bench/bench_api.py [--tokens 100000] [--documents 4] [--repeat 30]``

Target: an API call answers in the same time as its page (ratio ≈ 1; the token lookup and its use log are the
only extra work).  Pairs, each measured in the same run on the same data:

* documents with status: ``GET /api/v1/projects/<id>/documents`` vs ``GET /documents/status?project=<id>``
* the annotation window: ``GET /api/v1/annotate/window`` vs ``GET /annotate/api/window`` (an annotator)
* a decision: ``POST /api/v1/annotate/decide`` vs ``POST /annotate/api/decide`` (alternately PUBLIC/PRIVATE on the
  same span: the same work each time)
* the release report: ``GET /api/v1/projects/<id>/release-report`` vs ``GET /documents/project/<id>/release.json``

Set-up (not timed): a throw-away database ``psan_bench_api_<pid>`` on ``PSAN_BENCH_DATABASE_URL`` (dropped at
the end), Redis ``PSAN_BENCH_REDIS_URL`` (db 13); one project of ``--documents`` synthetic documents (the
annotation latency bench's generator), pre-annotated by ``reannotate_document_now``; an admin and an annotator
with a session each (page) and a token each (API).  Timed through the app's real WSGI stack (Flask's test
client in this process, the real PostgreSQL), interleaved page/API, ``--repeat`` times after a warm-up; median
and p95 per call.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_annotation_latency import PASSWORD, synthetic_document  # noqa: E402
from throwaway import bench_app, throwaway_database  # noqa: E402

from psan.runtime import db  # noqa: E402


def populate(app, tokens: int, documents: int, seed: int) -> tuple[int, str, str]:
    """The project, the admin's token and the annotator's token."""
    from psan.identity import accounts, api_tokens
    from psan.store.admin import accounts as store_accounts
    from psan.store.admin.rules import ensure_ne_type_rules
    from psan.store.corpus.documents import create_document, save_recognized
    from psan.store.corpus.reannotate import reannotate_document_now
    with app.app_context():
        with db.transaction() as conn:
            project = db.query_one("INSERT INTO project (name, language) VALUES ('bench', 'cs') RETURNING id",
                                   None, conn)["id"]
            accounts.create("admin@bench.invalid", "admin", accounts.Role.ADMIN, PASSWORD, 300, conn)
            person = accounts.create("a@bench.invalid", "a", accounts.Role.USER, PASSWORD, 300, conn)
            db.execute("INSERT INTO project_member VALUES (%s, %s)", (project, person.id), conn)
            admin_token = api_tokens.create(store_accounts.get_by_email(conn, "admin@bench.invalid"), "bench",
                                            api_tokens.Scope.ADMIN, True, (), None, conn)[1]
            annotator_token = api_tokens.create(store_accounts.get_by_email(conn, "a@bench.invalid"), "bench",
                                                api_tokens.Scope.ANNOTATE, False, [project], None, conn)[1]
        for n in range(documents):
            doc = synthetic_document(tokens // documents, seed + n)
            with db.transaction() as conn:
                document = create_document(conn, project, f"doc-{n}.txt", "cs", doc.text, None)
                save_recognized(conn, document, doc, "<submission/>")
                ensure_ne_type_rules(conn, project, {e.type for e in doc.entities})
            with db.transaction() as conn:
                reannotate_document_now(conn, document, doc=doc)
    return project, admin_token, annotator_token


def login(app, email: str):
    client = app.test_client()
    response = client.post("/auth/login", data={"email": email, "password": PASSWORD})
    assert response.status_code == 302, response.status_code  # nosec B101 - a benchmark's own check
    return client


def timed(call: Callable[[], object], repeat: int) -> list[float]:
    call()  # warm-up (per-process caches, plans)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return times


def check(response, url: str):
    assert response.status_code == 200, (url, response.status_code, response.get_data()[:200])  # nosec B101
    return response


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=100_000)
    parser.add_argument("--documents", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with throwaway_database("psan_bench_api") as database:
        app = bench_app(database.url, WTF_CSRF_ENABLED=False)
        print(f"set-up in database {database.name} (not timed):", flush=True)
        project, admin_token, annotator_token = populate(app, args.tokens, args.documents, args.seed)
        admin_page, annotator_page = login(app, "admin@bench.invalid"), login(app, "a@bench.invalid")
        api = app.test_client()
        as_admin = {"Authorization": f"Bearer {admin_token}"}
        as_annotator = {"Authorization": f"Bearer {annotator_token}"}
        window = check(annotator_page.get("/annotate/api/window"), "window").get_json()
        span = next(a for a in window["annotations"] if a["decision"] == "SUSPICIOUS")
        flips = {"page": 0, "api": 0}

        def decide(client, url: str, headers: dict, key: str) -> Callable[[], object]:
            def call() -> object:
                flips[key] += 1
                payload = {"document_id": window["window"]["document_id"], "first_token": span["first_token"],
                           "end_token": span["end_token"], "decision": ("PUBLIC", "PRIVATE")[flips[key] % 2]}
                return check(client.post(url, json=payload, headers=headers), url)
            return call

        pairs = {
            "documents with status": (
                lambda: check(admin_page.get(f"/documents/status?project={project}"), "status"),
                lambda: check(api.get(f"/api/v1/projects/{project}/documents", headers=as_admin), "documents")),
            "annotation window": (
                lambda: check(annotator_page.get("/annotate/api/window"), "window"),
                lambda: check(api.get("/api/v1/annotate/window", headers=as_annotator), "api window")),
            "decision": (decide(annotator_page, "/annotate/api/decide", {}, "page"),
                         decide(api, "/api/v1/annotate/decide", as_annotator, "api")),
            "release report": (
                lambda: check(admin_page.get(f"/documents/project/{project}/release.json"), "report"),
                lambda: check(api.get(f"/api/v1/projects/{project}/release-report", headers=as_admin), "api report")),
        }
        print(f"{'call':<24} {'page ms (p50/p95)':>18} {'API ms (p50/p95)':>18} {'ratio API/page':>15}")
        ratios = []
        for name, (page_call, api_call) in pairs.items():
            page_times, api_times = [], []
            for _ in range(2):  # interleaved halves: drift hits both sides alike
                page_times += timed(page_call, args.repeat // 2)
                api_times += timed(api_call, args.repeat // 2)
            page_p50, api_p50 = statistics.median(page_times), statistics.median(api_times)
            ratio = api_p50 / page_p50
            ratios.append(ratio)
            p95 = statistics.quantiles
            print(f"{name:<24} {page_p50:>8.1f}/{p95(page_times, n=20)[-1]:>8.1f} "
                  f"{api_p50:>8.1f}/{p95(api_times, n=20)[-1]:>8.1f} {ratio:>15.2f}", flush=True)
        print(f"geometric mean of the ratios: {statistics.geometric_mean(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
