"""Admin pages for accounts: create, edit role and window size, disable, delete."""
from flask import Blueprint

bp = Blueprint("users", __name__, url_prefix="/users")

from psan.users import views  # noqa: E402,F401
