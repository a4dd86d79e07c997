"""A project's webhook: its URL and secret, a test event and the log of deliveries (admin only).

Why a page of its own beside the settings form: the log of delivery attempts is what an admin reads when a
receiving system says it heard nothing, and the secret is never shown again once saved.
"""
from __future__ import annotations

import secrets

from flask import abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField, SubmitField
from wtforms.validators import Length, Optional

from psan.celery.webhooks import BadWebhookUrl, check_url, dispatch_quietly
from psan.projects.blueprint import bp
from psan.runtime import db
from psan.store.admin import projects as store_projects
from psan.store.review import webhooks as store_webhooks
from psan.web.access import admin

#: shortest secret an admin may choose (a generated one has 43 characters)
MIN_SECRET = 16


class WebhookForm(FlaskForm):
    url = StringField(lazy_gettext("Webhook URL (http or https)"), validators=[Optional(), Length(max=2000)])
    secret = PasswordField(lazy_gettext("Secret for the signature (empty: keep the current one, or make one)"),
                           validators=[Optional(), Length(min=MIN_SECRET, max=200)])
    remove = BooleanField(lazy_gettext("Remove the webhook"))
    submit = SubmitField(lazy_gettext("Save webhook"))


class PingForm(FlaskForm):
    submit = SubmitField(lazy_gettext("Send a test event"))


def _project(project_id: int) -> dict:
    return store_projects.get_project(project_id) or abort(404)


@bp.route("/<int:project_id>/webhook", methods=["GET", "POST"])
@admin
def webhook(project_id: int):
    project = _project(project_id)
    form = WebhookForm()
    conn = db.get_conn()
    if form.validate_on_submit():
        if form.remove.data or not (form.url.data or "").strip():
            store_webhooks.save_settings(conn, project_id, None, None)
            flash(gettext("The project sends no webhook events."), "success")
            return redirect(url_for("projects.webhook", project_id=project_id))
        try:
            url = check_url(form.url.data, bool(current_app.config.get("WEBHOOK_ALLOW_PRIVATE_ADDRESSES")))
        except BadWebhookUrl as exc:
            form.url.errors.append(str(exc))
        else:
            secret = form.secret.data or None
            made = secret is None and not project["webhook_secret"]
            if made:
                secret = secrets.token_urlsafe(32)
            store_webhooks.save_settings(conn, project_id, url, secret)
            if made:
                flash(gettext("Webhook saved. Its secret, shown only now, is: %(secret)s", secret=secret), "warning")
            else:
                flash(gettext("Webhook saved."), "success")
            return redirect(url_for("projects.webhook", project_id=project_id))
    elif not form.is_submitted():
        form.url.data = project["webhook_url"] or ""
    return render_template("projects/webhook.html", project=project, form=form, test_form=PingForm(),
                           deliveries=store_webhooks.deliveries(conn, project_id))


@bp.route("/<int:project_id>/webhook/test", methods=["POST"])
@admin
def webhook_test(project_id: int):
    """Send a ``ping`` event, so the admin sees in the log whether the receiver answers and checks signatures."""
    _project(project_id)
    if not PingForm().validate_on_submit():
        abort(400)
    conn = db.get_conn()
    if store_webhooks.record(conn, project_id, "ping", {}) is None:
        flash(gettext("Save a webhook URL first."), "warning")
    else:
        dispatch_quietly(conn, project_id)
        flash(gettext("A test event is on its way; its delivery appears below."), "info")
    return redirect(url_for("projects.webhook", project_id=project_id))
