"""A saved decision is never reported as not saved, and a retried or duplicated request decides once.

Why: an annotator who is told a decision was lost makes it again; a request sent twice must not log two.
"""
from __future__ import annotations

import threading

from tests.documents import add_document, plain_sentences
from tests.helpers import sql
from tests.web.helpers import annotator_client


# --- a saved decision is never reported as not saved; a retry does not decide twice -------------------------
def _suspicious_span(client) -> tuple[int, dict]:
    data = client.get("/annotate/api/window").get_json()
    span = next(a for a in data["annotations"] if a["decision"] == "SUSPICIOUS")
    return data["window"]["document_id"], span


def _log_rows(app, doc: int) -> int:
    return sql(app, "SELECT count(*) AS n FROM decision_log WHERE document_id = %s", (doc,))[0]["n"]


def test_database_lost_after_the_commit_is_not_reported_as_nothing_saved(clean_app, monkeypatch,
                                                                                   database_url):
    """PostgreSQL ends the request's connection after the decision's commit (as when it stops):
    the answer must not say that nothing was saved; the retry with the same request id decides nothing."""
    import psycopg2

    from psan.annotate import workflow
    app = clean_app
    doc = add_document(app, plain_sentences(0, 3) + " Yesterday Novak came home.", [("Novak", "P")])
    client = annotator_client(app, "a3-03@example.org", window_size=100)
    doc_id, span = _suspicious_span(client)
    assert doc_id == doc
    original = workflow.after_decision

    def server_goes_away(conn, *args, **kwargs):
        with psycopg2.connect(database_url) as other, other.cursor() as cur:
            cur.execute("SELECT pg_terminate_backend(%s)", (conn.get_backend_pid(),))
        return original(conn, *args, **kwargs)

    monkeypatch.setattr(workflow, "after_decision", server_goes_away)
    payload = {"document_id": doc, "first_token": span["first_token"], "end_token": span["end_token"],
               "decision": "PRIVATE", "scope": "token", "request_id": "retry-me-0001"}
    response = client.post("/annotate/api/decide", json=payload)
    assert response.status_code == 503, response.get_data(as_text=True)
    message = response.get_json()["error"]
    assert "Nothing was saved" not in message and "may have been saved" in message, message
    assert _log_rows(app, doc) == 1  # it was saved
    monkeypatch.setattr(workflow, "after_decision", original)
    again = client.post("/annotate/api/decide", json=payload)  # the page's retry: same request id
    assert again.status_code == 200 and again.get_json()["already_saved"] is True, again.get_json()
    assert _log_rows(app, doc) == 1
    # a new request (new id) is a new decision
    fresh = client.post("/annotate/api/decide", json={**payload, "decision": "PUBLIC", "request_id": "another-0002"})
    assert fresh.status_code == 200 and "already_saved" not in fresh.get_json()
    assert _log_rows(app, doc) == 2
    # and a request that failed before anything was committed still says so
    bad = client.post("/annotate/api/decide", json={**payload, "request_id": "x"})
    assert bad.status_code == 400


def test_a_retried_accept_is_answered_as_saved(clean_app):
    app = clean_app
    doc = add_document(app, plain_sentences(0, 3) + " Yesterday Novak met Svoboda.", [("Novak", "P"), ("Svoboda", "P")])
    client = annotator_client(app, "a3-03c@example.org", window_size=100)
    client.get("/annotate/api/window")
    first = client.post("/annotate/api/accept", json={"document_id": doc, "request_id": "accept-once-1"})
    assert first.status_code == 200 and first.get_json()["accepted"] >= 2, first.get_json()
    logged = _log_rows(app, doc)
    again = client.post("/annotate/api/accept", json={"document_id": doc, "request_id": "accept-once-1"})
    assert again.status_code == 200 and again.get_json()["already_saved"] is True
    assert _log_rows(app, doc) == logged
    other = client.post("/annotate/api/accept", json={"document_id": doc, "request_id": "accept-once-2"})
    assert other.status_code == 409  # a new request: nothing is left to accept


def test_concurrent_copies_of_one_request_decide_once(busy_app):
    app = busy_app
    doc = add_document(app, plain_sentences(0, 3) + " Yesterday Novak came home.", [("Novak", "P")])
    client = annotator_client(app, "a3-03b@example.org", window_size=100)
    _, span = _suspicious_span(client)
    payload = {"document_id": doc, "first_token": span["first_token"], "end_token": span["end_token"],
               "decision": "PRIVATE", "scope": "word_type", "request_id": "same-request-42"}
    barrier = threading.Barrier(6)
    answers: list[dict] = []

    def post() -> None:
        barrier.wait(timeout=30)
        response = client.post("/annotate/api/decide", json=payload)
        answers.append({"status": response.status_code, **(response.get_json() or {})})

    threads = [threading.Thread(target=post) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert [a["status"] for a in answers] == [200] * 6, answers
    assert sum(1 for a in answers if not a.get("already_saved")) == 1, answers
    assert _log_rows(app, doc) == 1
    assert sql(app, "SELECT count(*) AS n FROM rule WHERE type = 'WORD_TYPE' AND condition = 'Novak' "
                    "AND annotation_id IS NULL")[0]["n"] == 1
