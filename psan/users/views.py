"""Account administration.  The last active admin can be neither deleted, disabled nor demoted."""
from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext
from flask_login import current_user
from flask_wtf import FlaskForm

from psan.auth.reset_links import reset_link, send_reset_link
from psan.identity import accounts, external
from psan.runtime import db
from psan.users.blueprint import bp
from psan.users.forms import AccountForm, NewAccountForm
from psan.web.access import admin
from psan.web.forms import DeleteForm


@bp.route("/")
@admin
def index():
    return render_template("users/index.html", accounts=accounts.list_all(), delete_form=DeleteForm(),
                           external=external.external_account_ids())


@bp.route("/new", methods=["GET", "POST"])
@admin
def create():
    form = NewAccountForm()
    if not form.is_submitted():
        form.window_size.data = current_app.config["DEFAULT_WINDOW_SIZE"]
    if form.validate_on_submit():
        try:
            account = accounts.create(form.email.data, form.name.data, accounts.Role(form.role.data),
                                      form.password.data or None, form.window_size.data)
        except accounts.AccountError as exc:
            form.email.errors.append(str(exc))
            db.mark_rollback()
        else:
            if not form.active.data:
                accounts.update(account.id, name=account.name, role=account.role,
                                window_size=account.window_size, active=False)
            if form.password.data:
                flash(gettext("Account %(email)s created.", email=account.email), "success")
            elif send_reset_link(account, subject="psan: you have been invited"):
                flash(gettext("Account %(email)s created; an invitation was e-mailed.", email=account.email), "success")
            else:
                flash(gettext("Account %(email)s created. E-mail is not configured: give the user this link "
                              "(valid %(minutes)s min): %(link)s", email=account.email,
                              minutes=current_app.config["PASSWORD_RESET_MAX_AGE"] // 60, link=reset_link(account)),
                      "warning")
            if account.role == accounts.Role.USER:
                _flash_add_to_project(account.email)
            return redirect(url_for("users.index"))
    return render_template("users/edit.html", form=form, account=None)


def _flash_add_to_project(email: str) -> None:
    """A new annotator sees nothing until they belong to a project: say so, with the way there.

    The flash is a mapping (text, link) rendered by base.html with autoescaping, never as markup.
    """
    flash({"text": gettext("%(email)s can annotate only after you add them to a project (in its settings, "
                           "under Annotators).", email=email),
           "link": url_for("projects.index"), "link_text": gettext("Open the projects")}, "info")


@bp.route("/<int:account_id>", methods=["GET", "POST"])
@admin
def edit(account_id: int):
    account = accounts.get(account_id) or abort(404)
    form = AccountForm(obj=account if not _submitted() else None)
    if not _submitted():
        form.role.data = account.role.value
    if form.validate_on_submit():
        try:
            accounts.update(account_id, name=form.name.data, role=accounts.Role(form.role.data),
                            window_size=form.window_size.data, active=form.active.data)
        except accounts.AccountError as exc:
            flash(str(exc), "danger")
            db.mark_rollback()
        else:
            flash(gettext("Account saved."), "success")
            return redirect(url_for("users.index"))
    return render_template("users/edit.html", form=form, account=account)


@bp.route("/<int:account_id>/password-link", methods=["POST"])
@admin
def password_link(account_id: int):
    """A one-time link to set a new password, shown to the admin (or e-mailed): the way back for a person who
    forgot theirs on an instance that sends no e-mail (the forgot-password page sends them here)."""
    account = accounts.get(account_id) or abort(404)
    if not FlaskForm().validate_on_submit():  # the CSRF token only
        abort(400)
    if send_reset_link(account):
        flash(gettext("A link to set a new password was e-mailed to %(email)s.", email=account.email), "success")
    else:
        flash(gettext("Give %(email)s this link to set a new password (valid %(minutes)s min, usable once): "
                      "%(link)s", email=account.email, minutes=current_app.config["PASSWORD_RESET_MAX_AGE"] // 60,
                      link=reset_link(account)), "warning")
    return redirect(url_for("users.edit", account_id=account_id))


@bp.route("/<int:account_id>/delete", methods=["POST"])
@admin
def delete(account_id: int):
    form = DeleteForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        accounts.delete(account_id)
    except accounts.AccountError as exc:
        flash(str(exc), "danger")
        db.mark_rollback()
    else:
        flash(gettext("Account deleted."), "success")
        if account_id == current_user.id:
            return redirect(url_for("auth.login"))
    return redirect(url_for("users.index"))


def _submitted() -> bool:
    from flask import request
    return request.method == "POST"
