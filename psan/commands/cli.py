"""``flask --app psan …`` commands: migrations, first admin, registration link."""
from __future__ import annotations

import getpass

import click
from flask import Flask, current_app, url_for
from flask.cli import AppGroup, with_appcontext

from psan.identity import accounts, password_policy, signing
from psan.runtime import db, migrate

db_cli = AppGroup("db", help="Database schema migrations.")


@db_cli.command("upgrade")
def db_upgrade() -> None:
    """Apply pending migrations (a no-op when the schema is up to date)."""
    applied = migrate.upgrade(current_app.config["DATABASE_URL"])
    click.echo(f"applied {len(applied)} migration(s)" + (": " + ", ".join(applied) if applied else ""))


@db_cli.command("wait")
@click.option("--timeout", default=600, show_default=True, help="Seconds to wait before giving up")
def db_wait(timeout: int) -> None:
    """Wait until the database is reachable and every migration is applied (by ``run.sh web``).

    Why: a worker started before the web container migrated the schema ran tasks against the old one.
    """
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            left = migrate.pending(current_app.config["DATABASE_URL"])
            why = f"{len(left)} migration(s) pending ({left[0]} …)" if left else ""
        except Exception as exc:  # noqa: BLE001 - unreachable or not yet created: keep waiting
            why = f"database not reachable ({exc.__class__.__name__})"
        if not why:
            click.echo("the database schema is up to date")
            return
        if time.monotonic() >= deadline:
            raise click.ClickException(f"gave up after {timeout} s: {why}; run `flask --app psan db upgrade`")
        click.echo(f"waiting: {why}", err=True)
        time.sleep(2)


@db_cli.command("status")
def db_status() -> None:
    """List migrations and whether each one is applied."""
    for migration_id, applied in migrate.status(current_app.config["DATABASE_URL"]):
        click.echo(f"{'applied' if applied else 'pending':8} {migration_id}")


@click.command("create-admin")
@with_appcontext
@click.option("--email", prompt=True)
@click.option("--name", default="", help="Display name")
@click.option("--password", default=None, help="Read from a prompt when omitted (safer than the command line)")
def create_admin(email: str, name: str, password: str | None) -> None:
    """Create an admin account."""
    if password is None:
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Repeat: "):
            raise click.ClickException("the passwords differ")
    if len(password) < current_app.config["PASSWORD_MIN_LENGTH"]:
        raise click.ClickException(f"use at least {current_app.config['PASSWORD_MIN_LENGTH']} characters")
    problem = password_policy.problem(password, email)  # the same policy as every password form
    if problem:
        raise click.ClickException(problem)
    with db.transaction() as conn:
        try:
            account = accounts.create(email, name or email, accounts.Role.ADMIN, password, conn=conn)
        except accounts.AccountError as exc:
            raise click.ClickException(str(exc)) from exc
    click.echo(f"admin {account.email} created")


def registration_link() -> str | None:
    """The first-admin link, or ``None`` once an account exists."""
    with db.transaction() as conn:
        token = signing.registration_token(conn)
    if token is None:
        return None
    with current_app.test_request_context():
        path = url_for("auth.register", token=token)
    return current_app.config["SERVER_URL"].rstrip("/") + path


@click.command("registration-link")
@with_appcontext
def print_registration_link() -> None:
    """Print the one-time link that creates the first admin (only while no account exists)."""
    link = registration_link()
    if link is None:
        click.echo("the instance already has accounts; use `flask --app psan create-admin` or the Users page")
    else:
        click.echo(f"Open this link to create the first admin account:\n\n    {link}\n")


def register_commands(app: Flask) -> None:
    app.cli.add_command(db_cli)
    app.cli.add_command(create_admin)
    app.cli.add_command(print_registration_link)
