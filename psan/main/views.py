"""Home page, health endpoint and the admin's system status page."""
from __future__ import annotations

import secrets

import redis
from celery.exceptions import TimeoutError as CeleryTimeout
from flask import current_app, jsonify, render_template, send_from_directory
from flask_babel import gettext

from psan.main.blueprint import bp
from psan.runtime import db
from psan.store.admin import server as store_server
from psan.web.access import admin, public, user


@bp.route("/")
@user
def index():
    """Home: an admin sees the next steps of setting psan up, an annotator where to start (or whom to ask)."""
    from flask_login import current_user

    from psan.store.admin import projects as store_projects
    if current_user.is_admin:
        return render_template("main/index.html", progress=store_projects.setup_progress())
    in_projects = store_projects.membership_count(current_user.id)
    return render_template("main/index.html", in_projects=in_projects,
                           admins=[] if in_projects else store_projects.admin_contacts())


@bp.route("/favicon.ico")
@public
def favicon():
    """Browsers ask for /favicon.ico before reading the page's icon link: answer with the icon, not a 404."""
    return send_from_directory(current_app.static_folder, "favicon.svg", mimetype="image/svg+xml", max_age=86400)


def _check(probe) -> dict:
    try:
        probe()
    except Exception as exc:  # noqa: BLE001 - any failure means "down"; only the class name is shown
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True}


def _ping_database() -> None:
    conn = db.checkout(db.app_pool())
    broken = False
    try:
        store_server.ping(conn)
        conn.rollback()
    except Exception:
        broken = True
        raise
    finally:
        db.app_pool().putconn(conn, close=broken)


def _ping_redis() -> None:
    redis.Redis.from_url(current_app.config["REDIS_URL"], socket_connect_timeout=1, socket_timeout=2).ping()


@bp.route("/health")
@public
def health():
    """Which dependency is down, as JSON: 200 while the database answers, 503 when it does not.

    Redis down is "degraded" (200): logins and pages work, background work waits for it.  Needs
    neither a session nor the request's connection, so it answers during an outage.
    """
    checks = {"database": _check(_ping_database), "redis": _check(_ping_redis)}
    if not checks["database"]["ok"]:
        status, code = "down", 503
    else:
        status, code = ("ok", 200) if checks["redis"]["ok"] else ("degraded", 200)
    return jsonify(status=status, **checks), code


def check_worker(timeout: float = 10.0) -> dict:
    """Send the health-check task through Redis to a worker and wait for its answer."""
    from psan.celery.tasks import health_check
    nonce = secrets.token_hex(8)
    try:
        result = health_check.delay(nonce).get(timeout=timeout)
    except CeleryTimeout:
        return {"ok": False, "error": gettext("no worker answered within %(seconds)s s", seconds=f"{timeout:.0f}")}
    except (redis.RedisError, OSError) as exc:
        return {"ok": False, "error": gettext("broker unreachable: %(error)s", error=exc.__class__.__name__)}
    return {"ok": result.get("nonce") == nonce, **result}


@bp.route("/system")
@admin
def system():
    database = store_server.server_info(db.get_conn())
    try:
        redis.Redis.from_url(current_app.config["REDIS_URL"]).ping()
        broker = {"ok": True}
    except (redis.RedisError, OSError, TypeError, ValueError) as exc:
        broker = {"ok": False, "error": exc.__class__.__name__}
    worker = check_worker(timeout=5) if broker["ok"] else {"ok": False, "error": gettext("broker down")}
    return render_template("main/system.html", database=database, broker=broker, worker=worker)
