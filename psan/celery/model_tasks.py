"""Background tasks of the per-project model: retraining and refreshing its predictions.

``psan.retrain_model`` trains a :class:`~psan.tool.detection.classifier.TokenClassifier` on the project's
decisions (:func:`psan.store.corpus.project_model.training_set`) without the held-out documents, evaluates
it on them against the project's rule-based suggestions (:mod:`psan.tool.detection.classifier.gate`: token F1
of "private" on the held-out decided tokens), stores it signed with the verdict and queues
``psan.model_predictions_project``, which replaces every document's model entities (none unless the
model serves and the admin's switch is on) and re-annotates the documents whose predictions changed.
"""
from __future__ import annotations

import logging

from celery import shared_task
from flask import current_app

from psan.celery import markers
from psan.runtime import db
from psan.store.admin.projects import get_project
from psan.store.admin.rules import load_ruleset
from psan.store.corpus import project_model as store_model
from psan.store.corpus import reannotate as store_reannotate
from psan.tool.detection.classifier import TokenClassifier, gate
from psan.tool.text.document import Document, Entity

log = logging.getLogger(__name__)

#: probability threshold of a model when MODEL_THRESHOLD is not configured
DEFAULT_THRESHOLD = 0.5


def model_key() -> bytes:
    """The app's model signing key (:func:`psan.store.corpus.project_model.hmac_key` of ``SECRET_KEY``)."""
    return store_model.hmac_key(current_app.config["SECRET_KEY"])


def model_threshold() -> float | None:
    """``MODEL_THRESHOLD`` of the config (``None``: the model's own, 0.5)."""
    value = current_app.config.get("MODEL_THRESHOLD")
    return None if value is None else float(value)


def predictions_for_new_document(project_id: int, doc: Document) -> list[Entity]:
    """Model entities for a freshly recognized document (pre-processing); ``[]`` on any problem.

    Never raises: a missing, refused or failing model must not fail the document.
    """
    try:
        with db.transaction() as conn:
            serving = store_model.serving_model(conn, project_id, model_key())
        return store_model.predicted_entities(serving[0], doc, model_threshold(), serving[1]) if serving else []
    except Exception:  # noqa: BLE001 - the document is processed without model predictions
        log.exception("project %s: model predictions failed; the document is processed without them", project_id)
        return []


@shared_task(name="psan.retrain_model")
def retrain_model(project_id: int) -> dict:
    """Train the project's model on its decisions, store it, then refresh all predictions.

    Training runs outside any transaction.  Too few decisions (no private or no public token) end
    with ``trained: False`` and a reason, recorded for the model page.
    """
    markers.set_training_outcome(project_id, "running")
    try:
        with db.transaction() as conn:
            project = get_project(project_id, conn)
            if project is None:
                return {"project_id": project_id, "trained": False, "reason": "missing project"}
            decisions, last_decision = store_model.decision_log_position(conn, project_id)
            training, held = gate.split_held_out(store_model.training_set(conn, project_id))
            held_out = [(doc, store_model.baseline_spans(conn, document_id, project_id)) for document_id, doc in held]
        threshold = model_threshold()
        try:
            model = TokenClassifier.train([doc for _, doc in training], project["language"],
                                          threshold=DEFAULT_THRESHOLD if threshold is None else threshold)
        except ValueError as exc:
            log.warning("project %s: model not trained: %s", project_id, exc)
            markers.set_training_outcome(project_id, "failed", str(exc))
            return {"project_id": project_id, "trained": False, "reason": str(exc)}
        gold, predicted, baseline = gate.held_out_labels(model, held_out)
        verdict = gate.verdict(int(model.meta.get("tokens", 0)), gold, predicted if held_out else None,
                               baseline if held_out else None)
        meta = {**model.meta, "decisions_count": decisions, "decision_log_id": last_decision,
                "threshold": model.threshold, **verdict.as_meta()}
        with db.transaction() as conn:
            model_id = store_model.save_model(conn, project_id, model, meta, model_key())
    except Exception as exc:
        markers.set_training_outcome(project_id, "failed", f"{exc.__class__.__name__}: {exc}")
        raise
    finally:
        markers.clear_retrain_pending(project_id)
    markers.set_training_outcome(project_id, "trained")
    log.info("project %s: model %s trained on %s documents / %s tokens in %.2f s", project_id, model_id,
             meta.get("documents"), meta.get("tokens"), model.train_seconds)
    model_predictions_project.apply_async((project_id, model_id))
    return {"project_id": project_id, "trained": True, "model_id": model_id, "documents": meta.get("documents"),
            "tokens": meta.get("tokens"), "train_seconds": model.train_seconds, "serves": verdict.serves,
            "serve_reason": verdict.reason}


@shared_task(name="psan.model_predictions_project")
def model_predictions_project(project_id: int, model_id: int | None = None) -> dict:
    """Recompute the model entities of every document of a project and re-annotate changed ones.

    Skipped when a newer model than ``model_id`` exists (its own run follows).  Without a valid
    model (none, refused, not serving or switched off) old predictions are removed.  One transaction
    per document.
    """
    with db.transaction() as conn:
        latest = store_model.latest_model_row(conn, project_id)
        if model_id is not None and latest is not None and int(latest["id"]) != int(model_id):
            return {"project_id": project_id, "skipped": "newer model"}
        serving = store_model.serving_model(conn, project_id, model_key())
        if serving is not None:
            store_model.ensure_model_rule(conn, project_id)
        ids = store_reannotate.annotatable_document_ids(conn, project_id)
    with db.transaction() as conn:
        snapshot = store_reannotate.rules_snapshot(conn)  # a decision during the run keeps its rules
        ruleset = load_ruleset(conn, project_id)
    model, limits = serving if serving is not None else (None, None)
    threshold = model_threshold()
    changed = 0
    for document_id in ids:
        with db.transaction() as conn:
            if store_model.refresh_document_predictions(conn, document_id, model, threshold, limits):
                store_reannotate.reannotate_document_now(conn, document_id, ruleset, ruleset_snapshot=snapshot)
                changed += 1
    return {"project_id": project_id, "documents": len(ids), "changed": changed}
