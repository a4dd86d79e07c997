"""The annotation window: a page for annotators and admins plus its JSON API (``/annotate/api/…``).

Annotators only ever see the window the server assigned to them (see :mod:`psan.store.annotation.windows`);
every text and decision request is checked against it.  Admins may open any document anywhere.
"""
from psan.annotate import api, views  # noqa: F401 - their routes
from psan.annotate.blueprint import bp  # noqa: F401 - registered by psan.create_app
