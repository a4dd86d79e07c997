"""WSGI entry point for uWSGI (``module = psan.wsgi:app``)."""
from psan import create_app

app = create_app()
