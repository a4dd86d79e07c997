"""Login, logout, first-admin registration, password change and reset."""
from psan.auth import views  # noqa: F401 - their routes
from psan.auth.blueprint import bp  # noqa: F401 - registered by psan.web.blueprints
