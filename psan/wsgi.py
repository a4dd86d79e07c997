"""WSGI entry point for uWSGI (``module = psan.wsgi:app``)."""
from psan import create_app
from psan.runtime import db

app = create_app()
# each worker loads this after the fork (uwsgi.ini: lazy-apps): its connection opens now, not in a request
db.open_pool(app)
