"""A small Python client of psan's JSON API (``/api/v1/``) for scripts: nightly uploads, polling, releases.

Why inside the package: a script and psan's own measurements (``ner_eval``) use one client that follows the
API as it is documented (``/api/v1/openapi.json``), instead of scraping pages.  It imports nothing else of psan
(it talks HTTP only), so it can be copied next to a script.

    from psan.client import Client
    psan = Client("https://psan.example.org", "psan_…")
    project = psan.create_project("Court decisions 2024", "cs")
    psan.upload(project["id"], ["a.txt", "decisions.zip"])
    psan.wait_for_documents(project["id"])
    archive = psan.release(project["id"], kind="pseudonymize")   # the ZIP's bytes
"""
from psan.client.client import ApiError, Client, RequestsTransport, WsgiTransport

__all__ = ["ApiError", "Client", "RequestsTransport", "WsgiTransport"]
