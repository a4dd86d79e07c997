"""20 annotator sessions post decisions at the same moment on one document.

Real app, real PostgreSQL: every session is its own test client (own login, own window) in its own
thread, all released by one barrier.  Every 2xx decision must be in ``decision_log`` exactly once,
a rejected one must be a 409/423 with a message (and leave no log row), never a 500.
"""
from __future__ import annotations

import threading
from collections import Counter

from tests.documents import add_document
from tests.helpers import sql
from tests.web.helpers import annotator_client

SESSIONS = 20
NAMES = ["Novák", "Svoboda", "Dvořák", "Černý", "Procházka", "Kučera", "Veselý", "Horák", "Němec", "Marek"]


def _session(app, i: int):
    address = f"10.0.{i // 200}.{i % 200 + 1}"  # one client address each: the login rate limit is per address
    return annotator_client(app, f"busy{i}@example.org", window_size=20,
                            environ={"REMOTE_ADDR": address, "HTTP_X_FORWARDED_FOR": address})


def _suspicious(window: dict) -> list[dict]:
    return [a for a in window["annotations"] if a["decision"] == "SUSPICIOUS"]


def test_twenty_sessions_decide_at_the_same_moment(busy_app):
    app = busy_app
    sentences = [f"Yesterday {NAMES[n % len(NAMES)]} came home at {n} o'clock." for n in range(300)]
    doc = add_document(app, " ".join(sentences), [(name, "P") for name in NAMES])
    clients = [_session(app, i) for i in range(SESSIONS)]
    targets = []
    for client in clients:
        response = client.get("/annotate/api/window")
        assert response.status_code == 200, response.get_data(as_text=True)
        spans = _suspicious(response.get_json())
        assert spans, "every session gets a window with a suspicious span"
        targets.append(spans[0])
    assert len({(t["first_token"], t["end_token"]) for t in targets}) == SESSIONS  # leases never overlap
    # every kind of write at once: token decisions and rule-making ones (lookup, word type, NE type)
    kinds = [("token", "PUBLIC"), ("token", "PRIVATE"), ("word_type", "PUBLIC"), ("word_type", "PRIVATE"),
             ("ne_type", "PRIVATE")]
    barrier = threading.Barrier(SESSIONS)
    results: list[tuple[int, int, dict, dict]] = [None] * SESSIONS  # type: ignore[list-item]
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            scope, decision = kinds[i % len(kinds)]
            payload = {"document_id": doc, "first_token": targets[i]["first_token"],
                       "end_token": targets[i]["end_token"], "decision": decision, "scope": scope}
            barrier.wait(timeout=60)
            response = clients[i].post("/annotate/api/decide", json=payload)
            results[i] = (i, response.status_code, response.get_json() or {}, payload)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(SESSIONS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    statuses = Counter(status for _, status, _, _ in results)
    assert set(statuses) <= {200, 409, 423}, statuses
    for _, status, body, _ in results:
        if status != 200:
            assert body.get("error"), body  # a rejection says why
    accepted = [(i, payload) for i, status, _, payload in results if status == 200]
    assert len(accepted) >= SESSIONS // 2, statuses
    log = sql(app, "SELECT account_id, first_token, end_token, action, decision::text AS decision "
                   "FROM decision_log WHERE document_id = %s", (doc,))
    ids = {r["id"]: r["email"] for r in sql(app, "SELECT id, email FROM account")}
    logged = Counter((ids[r["account_id"]], r["first_token"], r["end_token"], r["action"], r["decision"]) for r in log)
    expected = Counter((f"busy{i}@example.org", p["first_token"], p["end_token"], p["scope"], p["decision"])
                       for i, p in accepted)
    assert logged == expected  # every accepted decision exactly once, no rejected one
    # and the decisions are really there: each accepted span carries its token decision
    for _, p in accepted:
        row = sql(app, "SELECT token_decision::text AS d FROM annotation WHERE document_id = %s "
                       "AND first_token = %s AND end_token = %s", (doc, p["first_token"], p["end_token"]))
        assert row and row[0]["d"] == p["decision"]
    # a second round at once on the same spans (decisions revised): still consistent
    barrier.reset()
    flipped = {"PUBLIC": "PRIVATE", "PRIVATE": "PUBLIC"}
    first_round = list(results)

    def again(i: int) -> None:
        try:
            payload = dict(first_round[i][3], decision=flipped[first_round[i][3]["decision"]], scope="token")
            barrier.wait(timeout=60)
            response = clients[i].post("/annotate/api/decide", json=payload)
            results[i] = (i, response.status_code, response.get_json() or {}, payload)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=again, args=(i,)) for i in range(SESSIONS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    assert {status for _, status, _, _ in results} <= {200, 409, 423}
    accepted += [(i, payload) for i, status, _, payload in results if status == 200]
    log = sql(app, "SELECT account_id, first_token, end_token, action, decision::text AS decision "
                   "FROM decision_log WHERE document_id = %s", (doc,))
    logged = Counter((ids[r["account_id"]], r["first_token"], r["end_token"], r["action"], r["decision"]) for r in log)
    assert logged == Counter((f"busy{i}@example.org", p["first_token"], p["end_token"], p["scope"], p["decision"])
                             for i, p in accepted)
