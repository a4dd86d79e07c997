"""Flask extensions, created once and bound to the app in :func:`psan.create_app`."""
import logging

from flask.logging import default_handler
from flask_bootstrap import Bootstrap5
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
bootstrap = Bootstrap5()
limiter = Limiter(key_func=get_remote_address, default_limits=[], headers_enabled=True)


def show_limiter_log() -> None:
    """Flask-Limiter logs through a logger with only a NullHandler: route it to the app's log.

    Its warning "Rate limit storage unreachable - falling back to in-memory storage" is how an
    operator learns that Redis is down while logins keep working.
    """
    logger = logging.getLogger("flask-limiter")
    if default_handler not in logger.handlers:
        logger.addHandler(default_handler)
