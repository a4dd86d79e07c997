"""Home page, health endpoint and the admin's system status page."""
from flask import Blueprint

bp = Blueprint("main", __name__)

from psan.main import views  # noqa: E402,F401
