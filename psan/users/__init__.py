"""Admin pages for accounts: create, edit role and window size, disable, delete."""
from psan.users import views  # noqa: F401 - their routes
from psan.users.blueprint import bp  # noqa: F401 - registered by psan.create_app
