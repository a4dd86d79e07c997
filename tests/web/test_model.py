"""The per-project model: decisions → retrain on the real worker → MODEL suggestions on new documents.

Real PostgreSQL, Redis and Celery worker.  The project uses a pipeline without NER, so the domain
term "Projekt Kestrel" is found by nothing but the model.
"""
from __future__ import annotations

import json
import logging
import os
import time

import pytest

from psan.celery import scheduling
from psan.celery.model_tasks import model_key
from psan.runtime import db
from psan.store.annotation.decisions import Scope, Span, decide
from psan.store.corpus import documents as store_documents
from psan.store.corpus import project_model as store_model
from tests.documents import add_document, token_index
from tests.helpers import Auth, account_id, csrf_token, default_project, logged_in_client, make_account, meta_csrf, sql
from tests.model_training import TERM, TRAINING, decide_term_private, model_project, train_in_process
from tests.services import REPO

pytestmark = pytest.mark.worker

UNSEEN = "The auditors asked about Projekt Kestrel again on Tuesday. Nothing else changed in the Paris office."


def _preprocess_new(app, pid: int, text: str, name: str) -> int:
    from psan.celery.tasks import pre_process
    with app.app_context(), db.transaction() as conn:
        document_id = store_documents.create_document(conn, pid, name, "en", text, None)
    with app.app_context():
        pre_process.delay(document_id).get(timeout=120)
    return document_id


def _model_entities(app, document_id: int) -> list[dict]:
    return sql(app, "SELECT first_token, end_token, type, score FROM named_entity WHERE document_id = %s "
                    "AND source = 'model' ORDER BY first_token", (document_id,))


def _model_rule_annotations(app, document_id: int) -> list[dict]:
    return sql(app, "SELECT a.first_token, a.end_token, a.rule_level FROM annotation a JOIN annotation_rule ar "
                    "ON ar.annotation_id = a.id JOIN rule r ON r.id = ar.rule_id WHERE a.document_id = %s "
                    "AND r.type = 'NE_TYPE' AND r.condition = 'MODEL'", (document_id,))


def _wait_for(predicate, timeout: float = 120.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def test_decisions_change_the_next_models_predictions(admin_client, clean_app, celery_worker):
    app = clean_app
    pid = model_project(app)
    documents = [add_document(app, text, (), project_id=pid, name=f"train-{n}.txt") for n, text in enumerate(TRAINING)]
    for document_id in documents:
        decide_term_private(app, pid, document_id, "admin@example.org")

    # before any retrain: no model, so pre-processing adds no MODEL entity (lookup rules may flag the words)
    before = _preprocess_new(app, pid, UNSEEN, "unseen-before.txt")
    assert sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (before,))[0]["s"] != "FAILED"
    assert _model_entities(app, before) == []
    assert _model_rule_annotations(app, before) == []

    # the admin retrains through the page; the real worker trains, stores and refreshes predictions
    response = admin_client.post(f"/projects/{pid}/model/retrain",
                                 data={"csrf_token": csrf_token(admin_client, f"/projects/{pid}/model")})
    assert response.status_code == 302
    rows = _wait_for(lambda: sql(app, "SELECT id, meta FROM project_model WHERE project_id = %s", (pid,)),
                     what="the trained model")
    meta = rows[0]["meta"]
    held_out = len(TRAINING) // 4  # every fourth document evaluates the model (psan.tool.detection.classifier.gate)
    assert meta["documents"] == len(TRAINING) - held_out and meta["decisions_count"] == len(TRAINING)
    assert meta["positive_tokens"] == 2 * (len(TRAINING) - held_out) and meta["tokens"] >= 500
    assert meta["serves"] is True and meta["model_f1"] > meta["baseline_f1"] == 0.0, meta
    # the predictions step gives the already decided documents MODEL entities and annotations too
    _wait_for(lambda: _model_rule_annotations(app, documents[0]), what="predictions on the training documents")
    assert sql(app, "SELECT confidence FROM rule WHERE project_id = %s AND type = 'NE_TYPE' AND condition = 'MODEL'",
               (pid,))[0]["confidence"] == 0

    # an unseen document now gets a MODEL span on the term, voted on by the MODEL rule (suspicious)
    after = _preprocess_new(app, pid, UNSEEN, "unseen-after.txt")
    first = token_index(app, after, TERM[0])
    entities = _model_entities(app, after)
    assert [(e["first_token"], e["end_token"], e["type"]) for e in entities] == [(first, first + 2, "MODEL")]
    assert 0.5 <= entities[0]["score"] <= 1
    assert [(a["first_token"], a["end_token"]) for a in _model_rule_annotations(app, after)] == [(first, first + 2)]
    assert sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (after,))[0]["s"] == "PRE_ANNOTATED"

    # the detail panel's score and the model page
    from psan.store.annotation.annotation_detail import model_span_score
    with app.app_context(), db.transaction() as conn:
        assert model_span_score(conn, after, first, first + 2) == pytest.approx(entities[0]["score"], abs=1e-3)
    page = admin_client.get(f"/projects/{pid}/model").get_data(as_text=True)
    assert "Retrain model" in page and "model-refused" not in page and str(meta["tokens"]) in page


def test_a_pretrained_classifiers_spans_outlive_the_project_models_refresh(clean_app, celery_worker, tmp_path):
    """Fail closed: a pre-trained classifier in the project's pipeline (as the default pipeline adds
    ``classifier-<lang>.bin``) finds a name at pre-processing; the project model's refresh (after a retrain, or
    with no model serving) replaces only the project model's spans, so the name stays masked in text nobody read."""
    from psan.tool.detection.classifier import TokenClassifier, examples_from_decisions
    docs = []
    for text in TRAINING:
        start = text.index(" ".join(TERM))
        docs.append(examples_from_decisions(text, [(start, start + len(" ".join(TERM)))], undecided="negative"))
    path = tmp_path / "classifier-en.bin"
    TokenClassifier.train(docs, "en").save(str(path))
    app = clean_app
    pid = model_project(app, "Pre-trained classifier")
    pipeline = {"tokenizer": "regex", "ner": [], "recognizers": [{"kind": "classifier", "model_path": str(path)}]}
    sql(app, "UPDATE project SET pipeline = %s WHERE id = %s RETURNING id", (json.dumps(pipeline), pid))
    document_id = _preprocess_new(app, pid, UNSEEN, "unseen.txt")
    first = token_index(app, document_id, TERM[0])
    found = sql(app, "SELECT first_token, end_token, type, source FROM named_entity WHERE document_id = %s "
                     "AND source <> 'test'", (document_id,))
    # a type the project learns as an NER model's (psan.tool.detection.classifier.span_types), not the model's MODEL
    assert [(r["first_token"], r["end_token"], r["type"], r["source"]) for r in found] == [
        (first, first + 2, "CLS_OTHER_CAP", "classifier")]
    assert _model_rule_annotations(app, document_id) == []
    with app.app_context(), db.transaction() as conn:  # the refresh a retrain (or the model switched off) runs
        assert store_model.refresh_document_predictions(conn, document_id, None) is False
    assert sql(app, "SELECT source FROM named_entity WHERE document_id = %s AND type = 'CLS_OTHER_CAP'",
               (document_id,)) == [{"source": "classifier"}]
    from psan.store.annotation.annotation_detail import model_span_score
    with app.app_context(), db.transaction() as conn:
        assert 0.5 <= model_span_score(conn, document_id, first, first + 2) <= 1


def test_only_admins_retrain(clean_app, admin_client):
    app = clean_app
    pid = model_project(app)
    annotator = logged_in_client(app, "annotator@example.org", "USER")
    token = meta_csrf(annotator)
    assert annotator.post(f"/projects/{pid}/model/retrain", data={"csrf_token": token}).status_code == 403
    assert annotator.get(f"/projects/{pid}/model").status_code == 403
    admin_token = csrf_token(admin_client, f"/projects/{pid}/model")
    assert admin_client.post("/projects/987654321/model/retrain", data={"csrf_token": admin_token}).status_code == 404
    assert admin_client.get("/projects/987654321/model").status_code == 404
    assert sql(app, "SELECT count(*) AS n FROM project_model")[0]["n"] == 0
    # no CSRF token: refused, nothing queued
    assert admin_client.post(f"/projects/{pid}/model/retrain").status_code == 400


def test_tampered_model_is_refused(admin_client, clean_app, celery_worker, caplog):
    app = clean_app
    pid = model_project(app, "Tampered")
    model_id = train_in_process(app, pid)
    with app.app_context(), db.transaction() as conn:
        assert store_model.load_model(conn, pid, model_key()) is not None  # the untouched row loads
    # flip one byte of the payload (its end: inside the compressed arrays)
    sql(app, "UPDATE project_model SET model = set_byte(model, length(model) - 20, "
             "(get_byte(model, length(model) - 20) + 1) %% 256) WHERE id = %s RETURNING id", (model_id,))
    with caplog.at_level(logging.ERROR, logger="psan.store.corpus.project_model"), app.app_context(), \
            db.transaction() as conn:
        assert store_model.load_model(conn, pid, model_key()) is None
    assert any("refused" in r.getMessage() and f"model {model_id}" in r.getMessage() for r in caplog.records)

    # the worker refuses it too, logs why, and processes the document without it
    document_id = _preprocess_new(app, pid, UNSEEN, "unseen.txt")
    assert sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (document_id,))[0]["s"] in (
        "PRE_ANNOTATED", "DONE")
    assert _model_entities(app, document_id) == []
    worker_log = (REPO / "test-artifacts" / f"celery-worker-{os.getpid()}.log").read_text()
    assert f"stored model {model_id} refused" in worker_log

    # the model page says so (no 500)
    response = admin_client.get(f"/projects/{pid}/model")
    assert response.status_code == 200 and 'id="model-refused"' in response.get_data(as_text=True)


def test_decision_api_hook_and_detail_score(clean_app, monkeypatch):
    """Through the real decision API: the detail shows "model, p" data and the retrain hook fires."""
    app = clean_app
    pid = default_project(app)
    sql(app, "DELETE FROM project_model WHERE project_id = %s RETURNING id", (pid,))
    document_id = add_document(app, UNSEEN, [(" ".join(TERM), "MODEL")], project_id=pid)
    sql(app, "UPDATE named_entity SET source = 'model', score = 0.93 WHERE document_id = %s RETURNING id",
        (document_id,))
    client = logged_in_client(app, "admin@example.org", "ADMIN")
    client.environ_base["HTTP_X_CSRFTOKEN"] = meta_csrf(client)
    assert client.get("/annotate/api/window").status_code == 200
    first = token_index(app, document_id, TERM[0])
    [ann] = sql(app, "SELECT first_token, end_token FROM annotation WHERE document_id = %s AND first_token = %s",
                (document_id, first))
    detail = client.get(f"/annotate/api/annotation/{ann['first_token']}-{ann['end_token']}").get_json()
    assert detail["model_score"] == pytest.approx(0.93)
    [rule] = [r for r in detail["rules"] if r["condition"] == "MODEL"]
    assert rule["model_score"] == pytest.approx(0.93) and rule["vote"] == "C"

    queued: list[int] = []
    monkeypatch.setattr(scheduling, "schedule_retrain", lambda project_id, force=False: queued.append(project_id)
                        or True)
    monkeypatch.setitem(app.config, "MODEL_RETRAIN_AFTER_DECISIONS", 1)
    response = client.post("/annotate/api/decide", json={"document_id": document_id, "first_token": first,
                                                         "end_token": first + 2, "decision": "PRIVATE",
                                                         "scope": "token"})
    assert response.status_code == 200, response.get_json()
    assert queued == [pid]


def _admin_window_client(app, document_id: int):
    _admin_id(app)
    client = app.test_client()
    assert Auth(client).login("admin@example.org").status_code == 302
    client.environ_base["HTTP_X_CSRFTOKEN"] = meta_csrf(client)
    response = client.post("/annotate/api/open", json={"document_id": document_id, "start": 0, "size": 5000})
    assert response.status_code == 200, response.get_json()
    return client


def _decisions_text(n: int) -> str:
    return " ".join(f"Projekt Kestrel met Officer{i} in the office." for i in range(n))


def test_first_model_after_twenty_decisions(clean_app, celery_worker, monkeypatch):
    """Through the decision API with the real worker: no model after 19 decisions, one after the 20th."""
    app = clean_app
    monkeypatch.setitem(app.config, "MODEL_FIRST_AFTER_DECISIONS", 20)
    monkeypatch.setitem(app.config, "MODEL_RETRAIN_AFTER_DECISIONS", 100)
    pid = model_project(app, "First model")
    document_id = add_document(app, _decisions_text(10), (), project_id=pid)
    sql(app, "UPDATE document SET status = 'PRE_ANNOTATED' WHERE id = %s RETURNING id", (document_id,))
    client = _admin_window_client(app, document_id)
    words = [r["idx"] for r in sql(app, "SELECT idx FROM token WHERE document_id = %s ORDER BY idx", (document_id,))]
    spans = [(i, i + 1, "PRIVATE" if n % 2 == 0 else "PUBLIC") for n, i in enumerate(words[2:22])]
    for n, (first, end, decision) in enumerate(spans, start=1):
        response = client.post("/annotate/api/decide", json={"document_id": document_id, "first_token": first,
                                                             "end_token": end, "decision": decision, "scope": "token"})
        assert response.status_code == 200, response.get_json()
        if n == 19:
            time.sleep(1.0)
            assert sql(app, "SELECT id FROM project_model WHERE project_id = %s", (pid,)) == []
    rows = _wait_for(lambda: sql(app, "SELECT meta FROM project_model WHERE project_id = %s", (pid,)),
                     what="the first model")
    assert rows[0]["meta"]["decisions_count"] == 20


def test_annotation_goes_on_while_a_retrain_runs(clean_app, monkeypatch):
    """A decision is saved and answered while the retrain task is in the middle of training."""
    import threading

    from psan.celery.model_tasks import retrain_model
    from psan.tool.detection.classifier import TokenClassifier
    app = clean_app
    pid = model_project(app, "Busy model")
    document_id = add_document(app, _decisions_text(6), (), project_id=pid)
    sql(app, "UPDATE document SET status = 'PRE_ANNOTATED' WHERE id = %s RETURNING id", (document_id,))
    previous = train_in_process(app, pid)  # the model serving meanwhile
    admin = _admin_id(app)
    for n in range(4):
        first = 9 * n
        with app.app_context(), db.transaction() as conn:
            decide(conn, Span(pid, document_id, first, first + 2), Scope.TOKEN, "PRIVATE", admin, list(TERM))
            decide(conn, Span(pid, document_id, first + 2, first + 3), Scope.TOKEN, "PUBLIC", admin, ["met"])
    training, decided = threading.Event(), threading.Event()
    real_train = TokenClassifier.train.__func__

    def slow_train(cls, *args, **kwargs):  # the real training, held open until the test has decided
        training.set()
        assert decided.wait(60)
        return real_train(cls, *args, **kwargs)

    monkeypatch.setattr(TokenClassifier, "train", classmethod(slow_train))
    result: dict = {}

    def run() -> None:
        with app.app_context():
            result.update(retrain_model.run(pid))

    worker = threading.Thread(target=run)
    worker.start()
    try:
        assert training.wait(60)
        client = _admin_window_client(app, document_id)
        officer = token_index(app, document_id, "Officer1")
        started = time.monotonic()
        response = client.post("/annotate/api/decide", json={"document_id": document_id, "first_token": officer,
                                                             "end_token": officer + 1, "decision": "PRIVATE",
                                                             "scope": "token"})
        assert response.status_code == 200, response.get_json()
        assert time.monotonic() - started < 30
        # the previous model still serves while the new one trains
        assert [r["id"] for r in sql(app, "SELECT id FROM project_model WHERE project_id = %s", (pid,))] == [previous]
    finally:
        decided.set()
        worker.join(120)
    assert result.get("trained") is True
    assert len(sql(app, "SELECT id FROM project_model WHERE project_id = %s", (pid,))) == 2


def _admin_id(app) -> int:
    if not sql(app, "SELECT id FROM account WHERE email = 'admin@example.org'"):
        make_account(app, "admin@example.org", "ADMIN")
    return account_id(app, "admin@example.org")
