"""Benchmark: a word marked private by hand in a small and in a large document (wall time, the real HTTP API).

Run: ``.venv/bin/python bench/bench_hand_mark.py [--tokens 25000] [--factor 8] [--repeats 5]``

Why: a hand-marked span (a word nothing recognized, ``s`` on it) is linked to the entity whose mention has the
same words (:func:`psan.store.annotation.entities.link_marked_span`), which reads the document's mentions.  Their
words were cut out of the document text in SQL, one ``substr`` per token, and each decompressed the text up to
that token: a decision in a document of 240,000 tokens took 400 s.  The cost should grow with the document, not
with its square: printed is the ratio of the median time in a document ``--factor`` times larger to the one in
the smaller document (the baseline, same run), against ``--factor`` × 1.5.

Set-up (not timed): a throw-away database with ``bench_annotation_latency``'s synthetic documents (every name an
entity) and one annotator per document, logged in through Flask's test client.  Timed: ``POST
/annotate/api/decide`` PRIVATE by token on a plain word of the window that nothing recognized; each repeat a
new window (``next``) and another word.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def _times(app, email: str, password: str, repeats: int) -> list[float]:
    client = app.test_client()
    client.post("/auth/login", data={"email": email, "password": password})
    data = client.get("/annotate/api/window").get_json()
    out: list[float] = []
    while len(out) < repeats:
        first = data["window"]["first_token"]
        covered = {i for a in data["annotations"] for i in range(a["first_token"], a["end_token"])}
        plain = [first + i for i, t in enumerate(data["tokens"])
                 if first + i not in covered and t["text"].isalpha() and t["text"].islower()]
        if plain:
            payload = {"document_id": data["window"]["document_id"], "first_token": plain[len(plain) // 2],
                       "end_token": plain[len(plain) // 2] + 1, "decision": "PRIVATE", "scope": "token"}
            started = time.perf_counter()
            response = client.post("/annotate/api/decide", json=payload)
            out.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise SystemExit(f"decision failed: {response.status_code} {response.get_data(as_text=True)[:300]}")
        data = client.post("/annotate/api/next", json={}).get_json()
        if not data.get("window"):
            raise SystemExit("no window left")
    return out


def _group_entities(app, projects: list[int]) -> None:
    """Group the documents' mentions into entities, as the worker does after recognition (not timed)."""
    from psan.runtime import db
    from psan.store.annotation.entities import update_document_entities
    from psan.store.corpus.documents import load_document
    with app.app_context():
        for project in projects:
            with db.transaction() as conn:
                for row in db.query("SELECT id FROM document WHERE project_id = %s", (project,), conn):
                    update_document_entities(conn, row["id"], load_document(conn, row["id"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=25_000, help="the small document's tokens")
    parser.add_argument("--factor", type=int, default=8, help="how many times larger the large document is")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    from bench_annotation_latency import PASSWORD, SECRET, populate
    from bench_cold_window import _app
    from throwaway import throwaway_database
    with throwaway_database("psan_hand") as database:
        app = _app(database.url, SECRET)
        setup = populate(app, {"small": args.tokens, "large": args.tokens * args.factor}, 1, args.seed)
        _group_entities(app, list(setup.projects.values()))
        medians = {label: statistics.median(_times(app, setup.accounts[label][0], PASSWORD, args.repeats))
                   for label in ("small", "large")}
    ratio = medians["large"] / medians["small"]
    target = args.factor * 1.5
    for label in ("small", "large"):
        print(f"  {label:<6} {setup.tokens[label]:>9,} tokens: hand mark median {medians[label] * 1000:8.1f} ms")
    print(f"large / small: {ratio:.2f}x for {setup.tokens['large'] / setup.tokens['small']:.1f}x the tokens "
          f"(target <= {target:.1f}x: linear, not quadratic): {'PASS' if ratio <= target else 'FAIL'}")
    return 0 if ratio <= target else 1


if __name__ == "__main__":
    sys.exit(main())
