"""A project model earns its place: evaluated on held-out decisions before it serves.

Real PostgreSQL and the real training and prediction tasks (run in process: their code is the
worker's); the projects page and the model page say why a model makes no suggestions.
"""
from __future__ import annotations

from psan.runtime import db
from tests.helpers import csrf_token, sql
from tests.model_training import model_project, small_model_project


def test_a_model_trained_on_130_tokens_serves_nothing_and_the_page_says_why(admin_client, clean_app):
    app = clean_app
    pid, _, meta = small_model_project(app, "admin@example.org")
    assert 100 <= meta["tokens"] <= 160 and meta["serves"] is False
    assert sql(app, "SELECT count(*) AS n FROM named_entity WHERE source = 'model'") == [{"n": 0}]
    why = f"trained on {meta['tokens']} decided tokens; a model serves only after 500"
    assert meta["serve_reason"] == why
    listing = admin_client.get("/projects/").get_data(as_text=True)
    assert why in listing and "no suggestions" in listing
    page = admin_client.get(f"/projects/{pid}/model").get_data(as_text=True)
    assert 'data-serves="no"' in page and why in page


def test_the_admins_switch(admin_client, clean_app):
    app = clean_app
    pid = model_project(app, "Switch")
    token = csrf_token(admin_client, f"/projects/{pid}/model")
    response = admin_client.post(f"/projects/{pid}/model/switch", data={"csrf_token": token, "enabled": "0"})
    assert response.status_code == 302
    assert sql(app, "SELECT model_enabled FROM project WHERE id = %s", (pid,)) == [{"model_enabled": False}]
    assert "Switch the model on" in admin_client.get(f"/projects/{pid}/model").get_data(as_text=True)
    admin_client.post(f"/projects/{pid}/model/switch", data={"csrf_token": token, "enabled": "1"})
    assert sql(app, "SELECT model_enabled FROM project WHERE id = %s", (pid,)) == [{"model_enabled": True}]
    with app.app_context(), db.transaction() as conn:
        from psan.celery.model_tasks import model_key
        from psan.store.corpus import project_model as store_model
        assert store_model.serving_model(conn, pid, model_key()) is None  # no model yet
