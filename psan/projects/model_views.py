"""The project model page: status of the learned model and the admin's "Retrain model" button.

Retraining runs in the background (``psan.retrain_model``); the page shows the latest stored
model (trained at, documents, tokens, training seconds), whether it passed verification, its
held-out quality against the rule-based suggestions and whether (and why not) it serves, the
admin's on/off switch, and the state of the last training run.
"""
from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext

from psan.celery import markers, scheduling
from psan.celery.model_tasks import model_key
from psan.projects.blueprint import bp
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.corpus import project_model as store_model
from psan.web.access import admin


@bp.route("/<int:project_id>/model")
@admin
def model(project_id: int):
    """Model status and the retrain button."""
    project = store_projects.get_project(project_id) or abort(404)
    status = store_model.model_status(db.get_conn(), project_id, model_key())
    return render_template("projects/model.html", project=project, status=status,
                           enabled=store_model.model_enabled(db.get_conn(), project_id),
                           outcome=markers.training_outcome(project_id),
                           retrain_after=int(current_app.config.get("MODEL_RETRAIN_AFTER_DECISIONS", 200) or 0))


@bp.route("/<int:project_id>/model/retrain", methods=["POST"])
@admin
def retrain(project_id: int):
    """Queue ``psan.retrain_model`` for the project (CSRF-protected POST, admins only)."""
    store_projects.get_project(project_id) or abort(404)
    try:
        scheduling.schedule_retrain(project_id, force=True)
    except Exception:  # noqa: BLE001 - broker down: tell the admin, never a 500
        current_app.logger.exception("could not queue the model training of project %s", project_id)
        flash(gettext("The training could not be queued; try again later."), "danger")
    else:
        markers.set_training_outcome(project_id, "queued")
        flash(gettext("The model is being trained in the background; documents are re-annotated afterwards."),
              "success")
    return redirect(url_for("projects.model", project_id=project_id))


@bp.route("/<int:project_id>/model/switch", methods=["POST"])
@admin
def switch(project_id: int):
    """The admin's on/off switch of the project's model (CSRF-protected POST, admins only).

    Off removes the model's predictions from every document (re-annotated in the background); on
    lets a model that passed its evaluation serve again.
    """
    from flask import request

    from psan.celery.model_tasks import model_predictions_project
    store_projects.get_project(project_id) or abort(404)
    enabled = request.form.get("enabled") == "1"
    store_model.set_model_enabled(db.get_conn(), project_id, enabled)
    db.get_conn().commit()
    try:
        model_predictions_project.apply_async((project_id,))
    except Exception as exc:  # noqa: BLE001 - broker down: the switch is saved; the next retrain applies it
        from psan.celery.retry import log_unscheduled
        log_unscheduled(current_app.logger, "could not queue the model predictions of project %s", project_id,
                        exc=exc)
    flash(gettext("The model is on.") if enabled else gettext("The model is off; its suggestions are removed."),
          "success")
    return redirect(url_for("projects.model", project_id=project_id))
