"""Webhooks: a real HTTP server in the test receives the events that the real Celery worker POSTs, and
checks their signatures as a receiver would; the events come from real pre-processing, a real decision
through the annotation API and a real release."""
from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from psan.celery.webhooks import BadWebhookUrl, backoff, check_url, signature
from psan.runtime import db
from psan.store.review import webhooks as store_webhooks
from tests.documents import add_document
from tests.helpers import csrf_token, join_project, new_project, sql
from tests.web.helpers import annotator_client, decide_window_and_leave

SECRET = "a-webhook-secret-of-the-test"
PIPELINE = '{"tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}'
PRIVATE_TEXT = "Jana Novakova wrote to the court."
UPLOADED_TEXT = "Nothing in this note names anybody at all."


class Receiver:
    """A webhook receiver: answers each POST with the next planned status (then 200) and keeps what came."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        self.plan: list[int] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    status = receiver.plan.pop(0) if receiver.plan else 200
                    receiver.received.append({"headers": dict(self.headers), "body": body, "at": time.monotonic(),
                                              "path": self.path, "answered": status})
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"

    def wait(self, count: int, timeout: float = 60) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.05)
        raise AssertionError(f"{len(self.received)} of {count} webhook POSTs arrived: {self.received}")

    def events(self) -> list[str]:
        with self.lock:
            return [json.loads(r["body"])["event"] for r in self.received if r["answered"] == 200]


def verified(post: dict, secret: str = SECRET, tolerance: float = 300) -> dict:
    """What a receiver does: recompute the HMAC over timestamp and body, refuse old timestamps; the event."""
    timestamp = post["headers"]["X-Psan-Timestamp"]
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + post["body"], hashlib.sha256)
    expected = "sha256=" + mac.hexdigest()
    assert hmac.compare_digest(post["headers"]["X-Psan-Signature"], expected)
    assert abs(time.time() - int(timestamp)) < tolerance
    event = json.loads(post["body"])
    assert post["headers"]["X-Psan-Event"] == event["event"]
    assert post["headers"]["X-Psan-Delivery"] == str(event["delivery_id"])
    return event


@pytest.fixture()
def receiver() -> Iterator[Receiver]:
    receiver = Receiver()
    thread = threading.Thread(target=receiver.server.serve_forever, daemon=True)
    thread.start()
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()


def settled(app, project: int, timeout: float = 30) -> None:
    """Wait until the worker has logged the outcome of every event of the project (it does after the POST)."""
    deadline = time.monotonic() + timeout
    while sql(app, "SELECT count(*) AS n FROM webhook_delivery WHERE project_id = %s AND status = 'pending'",
              (project,))[0]["n"] and time.monotonic() < deadline:
        time.sleep(0.05)


def hooked_project(app, name: str, url: str) -> int:
    project = new_project(app, name)
    sql(app, "UPDATE project SET pipeline = %s::jsonb WHERE id = %s", (PIPELINE, project))
    with app.app_context(), db.transaction() as conn:
        store_webhooks.save_settings(conn, project, url, SECRET)
    return project


def test_ready_decided_and_released_events_reach_the_receiver_signed_and_without_text(
        admin_client, clean_app, celery_worker, receiver):
    app = clean_app
    project = hooked_project(app, "Hooked", receiver.url)
    annotated = add_document(app, PRIVATE_TEXT, [("Jana Novakova", "PERSON")], project_id=project, name="jana.txt")
    token = csrf_token(admin_client, "/documents/upload")
    upload = admin_client.post("/documents/upload", data={"csrf_token": token, "project": str(project), "language": "",
                                                         "text": UPLOADED_TEXT, "name": "note.txt"},
                               content_type="multipart/form-data")
    assert upload.status_code == 302
    # the worker's run of the upload queues both documents' events (the inserted one was recorded by the trigger)
    ready = [verified(p) for p in receiver.wait(2)]
    assert sorted(e["event"] for e in ready) == ["document.ready", "document.ready"]
    by_document = {e["document_id"]: e for e in ready}
    assert by_document[annotated]["status"] == "PRE_ANNOTATED" and by_document[annotated]["undecided_spans"] == 1
    uploaded = next(d for d in by_document if d != annotated)
    assert by_document[uploaded]["status"] == "DONE" and by_document[uploaded]["project_id"] == project

    annotator = annotator_client(app, "ann@example.org", member=False)
    join_project(app, project, "ann@example.org")
    assert len(decide_window_and_leave(annotator, "PRIVATE")) == 1
    decided = verified(receiver.wait(3)[2])
    assert decided == {**decided, "event": "project.decided", "project_id": project, "documents": 2}

    token = csrf_token(admin_client, f"/documents/project/{project}/releases")
    assert admin_client.post(f"/documents/project/{project}/releases",
                             data={"csrf_token": token, "note": "first"}).status_code == 302
    released = verified(receiver.wait(4)[3])
    assert released == {**released, "event": "release.ready", "release": 1, "documents": 2, "withdrawn": 0}

    for post in receiver.received:  # ids, names of events and counts only
        body = post["body"].decode()
        assert not any(word in body for word in ("Jana", "Novakova", "court", "note", "jana.txt", "Hooked"))
        assert post["path"] == "/hook" and post["headers"]["Content-Type"] == "application/json"
    settled(app, project)
    page = admin_client.get(f"/projects/{project}/webhook").get_data(as_text=True)
    assert page.count("delivered") >= 4 and "HTTP 200" in page and SECRET not in page


def test_a_failing_receiver_is_retried_with_growing_delays_and_every_attempt_is_logged(
        admin_client, clean_app, celery_worker, receiver):
    project = hooked_project(clean_app, "Flaky", receiver.url)
    receiver.plan = [500, 503]
    token = csrf_token(admin_client, f"/projects/{project}/webhook")
    assert admin_client.post(f"/projects/{project}/webhook/test", data={"csrf_token": token}).status_code == 302
    posts = receiver.wait(3)
    assert [p["answered"] for p in posts] == [500, 503, 200], posts
    assert {verified(p)["delivery_id"] for p in posts} == {verified(posts[0])["delivery_id"]}  # one event, 3 tries
    first_gap, second_gap = posts[1]["at"] - posts[0]["at"], posts[2]["at"] - posts[1]["at"]
    # base 0.2 s in the test worker, then doubled (lower bounds: a busy machine only makes the gaps longer)
    assert first_gap >= 0.15 and second_gap >= 0.35, (first_gap, second_gap)
    settled(clean_app, project)
    rows = sql(clean_app, "SELECT w.status, w.attempts, array_agg(a.status_code ORDER BY a.attempt) AS codes "
                          "FROM webhook_delivery w JOIN webhook_attempt a ON a.delivery_id = w.id "
                          "WHERE w.project_id = %s GROUP BY w.id", (project,))
    assert rows == [{"status": "delivered", "attempts": 3, "codes": [500, 503, 200]}]
    page = admin_client.get(f"/projects/{project}/webhook").get_data(as_text=True)
    assert "HTTP 500" in page and "HTTP 503" in page and "HTTP 200" in page


def test_a_receiver_that_keeps_failing_is_given_up_after_the_last_attempt(
        admin_client, clean_app, celery_worker, receiver):
    project = hooked_project(clean_app, "Down", receiver.url)
    receiver.plan = [500] * 10
    token = csrf_token(admin_client, f"/projects/{project}/webhook")
    admin_client.post(f"/projects/{project}/webhook/test", data={"csrf_token": token})
    receiver.wait(3)
    settled(clean_app, project)
    row = sql(clean_app, "SELECT status, attempts FROM webhook_delivery WHERE project_id = %s", (project,))[0]
    assert row == {"status": "failed", "attempts": 3}
    time.sleep(0.5)
    assert len(receiver.received) == 3
    assert "given up" in admin_client.get(f"/projects/{project}/webhook").get_data(as_text=True)


def test_the_settings_page_refuses_urls_that_are_not_http_or_point_inside_the_network(admin_client, clean_app):
    project = new_project(clean_app, "Guarded")
    path = f"/projects/{project}/webhook"
    for url in ("ftp://example.org/hook", "javascript:alert(1)", "http://user:pw@example.org/hook",
                "http://127.0.0.1:9/hook", "http://localhost/hook", "http://[::1]/hook", "http://10.1.2.3/hook",
                "http://169.254.169.254/latest/meta-data"):
        response = admin_client.post(path, data={"csrf_token": csrf_token(admin_client, path), "url": url,
                                                 "secret": SECRET})
        assert response.status_code == 200, url
        assert sql(clean_app, "SELECT webhook_url FROM project WHERE id = %s", (project,))[0]["webhook_url"] is None
    assert "starts with http:// or https://" in admin_client.post(path, data={
        "csrf_token": csrf_token(admin_client, path), "url": "ftp://example.org/x"}).get_data(as_text=True)


def test_saving_a_webhook_without_a_secret_makes_one_shown_once(admin_client, clean_app, database_url, redis_url):
    from psan import create_app
    from tests.helpers import logged_in_client
    from tests.services import app_config
    app = create_app(app_config(database_url, redis_url, WEBHOOK_ALLOW_PRIVATE_ADDRESSES=True))
    client = logged_in_client(app, "hooks@example.org", "ADMIN")
    project = new_project(clean_app, "Own secret")
    path = f"/projects/{project}/webhook"
    saved = client.post(path, data={"csrf_token": csrf_token(client, path), "url": "http://127.0.0.1:9/hook"},
                        follow_redirects=True).get_data(as_text=True)
    secret = sql(clean_app, "SELECT webhook_secret FROM project WHERE id = %s", (project,))[0]["webhook_secret"]
    assert len(secret) >= 40 and secret in saved
    assert secret not in client.get(path).get_data(as_text=True)
    client.post(path, data={"csrf_token": csrf_token(client, path), "url": "http://127.0.0.1:9/other"})
    assert sql(clean_app, "SELECT webhook_secret FROM project WHERE id = %s", (project,))[0]["webhook_secret"] == secret
    client.post(path, data={"csrf_token": csrf_token(client, path), "url": "", "remove": "y"})
    assert sql(clean_app, "SELECT webhook_url, webhook_secret FROM project WHERE id = %s", (project,))[0] == {
        "webhook_url": None, "webhook_secret": None}


def test_projects_without_a_webhook_record_no_events(clean_app):
    project = new_project(clean_app, "Quiet")
    add_document(clean_app, PRIVATE_TEXT, [("Jana Novakova", "PERSON")], project_id=project)
    assert sql(clean_app, "SELECT count(*) AS n FROM webhook_delivery")[0]["n"] == 0


def test_signature_and_backoff(clean_app):
    body = b'{"event":"ping"}'
    assert signature("k", "1700000000", body) == "sha256=" + hmac.new(b"k", b"1700000000." + body,
                                                                     hashlib.sha256).hexdigest()
    assert signature("k", "1700000001", body) != signature("k", "1700000000", body)  # the timestamp is signed
    config = {"WEBHOOK_RETRY_BASE_SECONDS": 30, "WEBHOOK_RETRY_MAX_SECONDS": 3600}
    assert [backoff(n, config) for n in range(1, 9)] == [30, 60, 120, 240, 480, 960, 1920, 3600]
    assert check_url(" https://example.org/hook ", allow_private=True) == "https://example.org/hook"
    with clean_app.test_request_context(), pytest.raises(BadWebhookUrl):
        check_url("file:///etc/passwd", allow_private=True)


def test_one_statement_deciding_the_last_documents_records_the_project_decided_once(clean_app, receiver):
    from psan.store.corpus.reannotate import refresh_project_statuses
    project = hooked_project(clean_app, "Thresholds", receiver.url)
    for i in range(3):
        add_document(clean_app, PRIVATE_TEXT, [("Jana Novakova", "PERSON")], project_id=project, name=f"{i}.txt")
    sql(clean_app, "UPDATE project SET private_threshold = 0.5 WHERE id = %s", (project,))  # every span private now
    with clean_app.app_context(), db.transaction() as conn:
        refresh_project_statuses(conn, project)
    events = [r["event"] for r in sql(clean_app, "SELECT event FROM webhook_delivery WHERE project_id = %s ORDER BY id",
                                      (project,))]
    assert events == ["document.ready"] * 3 + ["project.decided"]
