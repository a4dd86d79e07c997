"""Login, logout, first-admin registration, password change and reset, sign-in through an identity provider."""
from psan.auth import external_views, views  # noqa: F401 - their routes
from psan.auth.blueprint import bp  # noqa: F401 - registered by psan.create_app
