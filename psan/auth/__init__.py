"""Login, logout, first-admin registration, password change and reset."""
from flask import Blueprint

bp = Blueprint("auth", __name__, url_prefix="/auth")

from psan.auth import views  # noqa: E402,F401
