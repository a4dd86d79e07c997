"""Home page, health endpoint and the admin's system status page."""
from psan.main import views  # noqa: F401 - their routes
from psan.main.blueprint import bp  # noqa: F401 - registered by psan.create_app
