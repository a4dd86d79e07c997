"""Flask extensions, created once and bound to the app in :func:`psan.create_app`."""
from flask_bootstrap import Bootstrap5
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
bootstrap = Bootstrap5()
limiter = Limiter(key_func=get_remote_address, default_limits=[], headers_enabled=True)
