"""Account views.  Error messages never reveal whether an e-mail address has an account."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext, lazy_gettext
from flask_login import current_user, login_user, logout_user

from psan.auth.blueprint import bp
from psan.auth.forms import ChangePasswordForm, ForgotPasswordForm, LoginForm, NewPasswordForm, RegisterAdminForm
from psan.auth.reset_links import send_reset_link
from psan.identity import accounts, external, mail, signing
from psan.identity.passwords import needs_rehash, verify_password
from psan.web.access import public, user
from psan.web.extensions import limiter

LOGIN_FAILED = lazy_gettext("Invalid e-mail or password.")


def _safe_next(target: str | None) -> str:
    """Only follow same-site relative redirects (no open redirect through ``?next=``)."""
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc \
            and "\\" not in target and target.isprintable():  # no CR/LF (header injection) nor controls
        return target
    return url_for("main.index")


def _login_limit() -> str:
    return current_app.config["LOGIN_RATE_LIMIT"]


def _reset_limit() -> str:
    return current_app.config["RESET_RATE_LIMIT"]


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(_login_limit, methods=["POST"])
@public
def login():
    if current_user.is_authenticated:
        return redirect(url_for("main.index"))
    form = LoginForm()
    if form.validate_on_submit():
        account = accounts.get_by_email(form.email.data)
        ok = verify_password(account.password_hash if account else None, form.password.data)
        if account and ok and account.active:
            if needs_rehash(account.password_hash):
                accounts.set_password(account.id, form.password.data)
                account = accounts.get(account.id)
            _start_session(account, remember=form.remember.data)
            accounts.record_login(account.id)
            return redirect(_safe_next(request.args.get("next")))
        flash(str(LOGIN_FAILED), "danger")
    elif request.method == "POST":
        flash(str(LOGIN_FAILED), "danger")
    return render_template("auth/login.html", form=form, reset_available=mail.is_configured())


def _start_session(account: accounts.Account, remember: bool = False) -> None:
    """Log in with a fresh CSRF token: a token seen before the login (e.g. planted) is worthless after it."""
    session.pop("csrf_token", None)
    login_user(account, remember=remember)


@bp.route("/logout", methods=["POST"])
@public
def logout():
    if current_user.is_authenticated:
        accounts.end_sessions(current_user.id)  # saved session and remember cookies stop working too
    logout_user()
    flash(gettext("You have been logged out."), "info")
    return redirect(url_for("auth.login"))


@bp.route("/register/<token>", methods=["GET", "POST"])
@public
def register(token: str):
    """The one-time link printed at the first start of an empty instance creates the first admin."""
    try:
        signing.check_registration_token(token)
    except signing.InvalidToken as exc:
        return render_template("error.html", status=404, title=gettext("Link not valid"), message=str(exc)), 404
    form = RegisterAdminForm()
    if form.validate_on_submit():
        account = accounts.create(form.email.data, form.name.data, accounts.Role.ADMIN, form.password.data)
        signing.consume_registration()
        _start_session(account)
        flash(gettext("Welcome! Your admin account is ready."), "success")
        return redirect(url_for("main.index"))
    return render_template("auth/register.html", form=form)


@bp.route("/password", methods=["GET", "POST"])
@limiter.limit(_login_limit, methods=["POST"])
@user
def change_password():
    form = ChangePasswordForm()
    form.account_email = current_user.email
    if form.validate_on_submit():
        if not verify_password(current_user.password_hash, form.current.data):
            form.current.errors.append(gettext("The current password is wrong."))
        else:
            accounts.set_password(current_user.id, form.password.data)
            login_user(accounts.get(current_user.id))  # re-bind this session to the new password
            flash(gettext("Your password has been changed; other sessions were logged out."), "success")
            return redirect(url_for("main.index"))
    return render_template("auth/change_password.html", form=form)


@bp.route("/forgot", methods=["GET", "POST"])
@limiter.limit(_reset_limit, methods=["POST"])
@public
def forgot_password():
    form = ForgotPasswordForm()
    if form.validate_on_submit():
        if not mail.is_configured():  # never promise a link that cannot be sent
            flash(gettext("This instance sends no e-mail, so no reset link was sent. Ask an administrator for a "
                          "new password link."), "warning")
            return redirect(url_for("auth.login"))
        account = accounts.get_by_email(form.email.data)
        # an account of the identity provider has no psan password: a reset link would give it one
        if account and account.active and not external.signs_in_externally(account.id):
            send_reset_link(account)
        # same answer whether or not the account exists
        flash(gettext("If an active account uses this address, a reset link is on its way."), "info")
        return redirect(url_for("auth.login"))
    return render_template("auth/forgot.html", form=form, mail_configured=mail.is_configured())


@bp.route("/reset/<token>", methods=["GET", "POST"])
@limiter.limit(_reset_limit, methods=["POST"])
@public
def reset_password(token: str):
    try:
        account = signing.account_for_reset_token(token)
    except signing.InvalidToken as exc:
        return render_template("error.html", status=404, title=gettext("Link not valid"), message=str(exc)), 404
    form = NewPasswordForm()
    form.account_email = account.email
    if form.validate_on_submit():
        accounts.set_password(account.id, form.password.data)
        logout_user()
        flash(gettext("Your password has been set. Log in with it now."), "success")
        return redirect(url_for("auth.login"))
    return render_template("auth/reset.html", form=form, account=account)
