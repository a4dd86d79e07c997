"""Switching a project's model off removes the model's spans; switching it back on brings them back.
"""
from __future__ import annotations

import time

from psan.runtime import db
from tests.documents import add_document
from tests.helpers import csrf_token, sql


# --- the model switch ---------------------------------------------------------------------------------------
def test_model_switch_off_removes_the_models_spans_and_makes_none_on_brings_them_back(admin_client, clean_app,
                                                                                      celery_worker):
    """A serving model found "Projekt Kestrel" in a document; the admin's switch off removes those spans (the
    background refresh on the real worker) and a new document gets none; on, they come back."""
    from psan.celery.tasks import pre_process
    from psan.store.corpus import documents as store_documents
    from tests.model_training import TRAINING, decide_term_private, model_project
    app = clean_app
    pid = model_project(app, "Switch")
    documents = [add_document(app, text, (), project_id=pid, name=f"train-{n}.txt") for n, text in enumerate(TRAINING)]
    for document_id in documents:
        decide_term_private(app, pid, document_id, "admin@example.org")
    unseen = "The auditors asked about Projekt Kestrel again on Tuesday. Nothing else changed in the Paris office."

    def preprocess(name: str) -> int:
        with app.app_context(), db.transaction() as conn:
            document_id = store_documents.create_document(conn, pid, name, "en", unseen, None)
        with app.app_context():
            pre_process.delay(document_id).get(timeout=120)
        return document_id

    def model_spans(document_id: int) -> int:
        return sql(app, "SELECT count(*) AS n FROM named_entity WHERE document_id = %s AND source = 'model'",
                   (document_id,))[0]["n"]

    def wait(predicate) -> None:
        deadline = time.monotonic() + 120
        while not predicate():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.3)

    token = csrf_token(admin_client, f"/projects/{pid}/model")
    assert admin_client.post(f"/projects/{pid}/model/retrain", data={"csrf_token": token}).status_code == 302
    wait(lambda: model_spans(documents[0]) > 0)  # trained on the worker, its predictions made
    before = preprocess("before.txt")
    assert model_spans(before) > 0
    assert admin_client.post(f"/projects/{pid}/model/switch", data={"csrf_token": token, "enabled": "0"}
                             ).status_code == 302
    wait(lambda: model_spans(before) == 0)
    assert model_spans(preprocess("while-off.txt")) == 0
    assert admin_client.post(f"/projects/{pid}/model/switch", data={"csrf_token": token, "enabled": "1"}
                             ).status_code == 302
    wait(lambda: model_spans(before) > 0)
