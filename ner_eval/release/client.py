"""The app as a script reaches it: psan's JSON API (``/api/v1/``) through :mod:`psan.client`, one personal token
for the admin and one (annotate-scoped) for the annotator.

Why the API and not the pages: the measurement must go through what people and their scripts use, and the
API runs the annotate page's own window and decision code, the upload page's file reading, the release gate and
the background release job; no HTML is scraped.  The calls go through Flask's test client (the same WSGI app
uWSGI serves).  Every call checks the status code, so a refusal of the app stops the run with the app's own
message (:class:`AppError`).  ``requests`` counts the calls as the page client did (one per user action).
"""
from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Sequence
from typing import Any

from flask import Flask

from psan.client import ApiError, Client, WsgiTransport
from psan.identity import api_tokens
from psan.runtime import db
from psan.store.admin import accounts as store_accounts

#: the reason every key export is logged with (psan.store.admin.key_access)
KEY_REASON = "ner_eval release measure"


class AppError(RuntimeError):
    """The app refused a request the simulation needed (status and the app's message)."""


def _token(app: Flask, email: str, scope: api_tokens.Scope) -> str:
    """A personal token of the account, for every project, made as the token page makes one."""
    with app.app_context(), db.transaction() as conn:
        account = store_accounts.get_by_email(conn, email)
        if account is None:
            raise AppError(f"no account {email}")
        _, secret = api_tokens.create(account, f"ner_eval {scope}", scope, True, (), None, conn=conn)
    return secret


class _Checked(Client):
    """psan.client whose refusals are :class:`AppError` (the measurement's one error type)."""

    def call(self, method: str, path: str, **kwargs: Any):  # noqa: ANN201 - psan.client.client.Answer
        try:
            return super().call(method, path, **kwargs)
        except ApiError as exc:
            raise AppError(f"{path}: {exc.status} {exc.code} {exc.message}") from None


class Annotator:
    """The annotation calls of the keyboard UI, with an annotate-scoped token."""

    scope = api_tokens.Scope.ANNOTATE

    def __init__(self, app: Flask, email: str) -> None:
        self.api = _Checked(token=_token(app, email, self.scope), transport=WsgiTransport(app.test_client()))
        self.requests = 0

    def _count(self) -> None:
        self.requests += 1

    def window(self) -> dict[str, Any]:
        self._count()
        return self.api.window()

    def next_window(self) -> dict[str, Any]:
        self._count()
        return self.api.next_window()

    def read(self) -> dict[str, Any]:
        """The next stretch of text the project routes to reading in full (``window: None`` when none is left)."""
        self._count()
        return self.api.read()

    def open_at(self, document_id: int, start: int, size: int, exact: bool = False) -> dict[str, Any]:
        """Admins only: a window at any position (the review of text no window showed); ``exact``: from ``start``
        itself, not its sentence's start."""
        self._count()
        return self.api.open_at(document_id, start, size, exact)

    def decide(self, document_id: int, first: int, end: int, decision: str, scope: str) -> dict[str, Any]:
        self._count()
        return self.api.decide(document_id, first, end, decision, scope)

    def accept(self, document_id: int) -> dict[str, Any]:
        self._count()
        return self.api.accept(document_id)

    def label(self, document_id: int, first: int, end: int, name: str, category: str) -> dict[str, Any]:
        self._count()
        return self.api.label(document_id, first, end, name=name, category=category)

    def entity(self, document_id: int, first: int, end: int) -> dict[str, Any] | None:
        self._count()
        return self.api.entity(document_id, first, end)

    def public_offers(self, project_id: int) -> list[dict[str, Any]]:
        """The offered public rules (the panel of the annotate page)."""
        self._count()
        return self.api.public_offers(project_id)["offers"]

    def answer_offer(self, project_id: int, form: str, confirm: bool) -> dict[str, Any]:
        self._count()
        return self.api.confirm_offer(project_id, form) if confirm else self.api.dismiss_offer(project_id, form)


class Admin(Annotator):
    """Upload, document status, the release job, the key and the QA review, with an admin token.

    ``drain`` runs the queued background tasks (:meth:`ner_eval.release.instance.Instance.drain`): the release
    ZIP is rendered by the background job, as for every API caller.
    """

    scope = api_tokens.Scope.ADMIN

    def __init__(self, app: Flask, email: str, drain: Callable[[], int]) -> None:
        super().__init__(app, email)
        self.drain = drain

    def upload_zip(self, project_id: int, language: str, files: Sequence[tuple[str, str]]) -> None:
        """Upload ``(name, text)`` files as one ZIP."""
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, text in files:
                zf.writestr(name, text.encode("utf-8"))
        self._count()
        answer = self.api.upload(project_id, [("corpus.zip", buf.getvalue())], language=language)
        if answer["refused"]:
            raise AppError(f"upload refused: {'; '.join(answer['refused'])[:500]}")

    def documents(self, project_id: int) -> list[dict[str, Any]]:
        self._count()
        return self.api.documents(project_id)

    def project_zip(self, project_id: int, kind: str) -> zipfile.ZipFile:
        """Start the release job, let the background work run, download the ZIP."""
        self._count()
        job = self.api.start_release(project_id, kind)
        self.drain()
        if self.api.release_job(job["id"])["status"] != "DONE":
            raise AppError(f"release job {job['id']} did not finish")
        return zipfile.ZipFile(io.BytesIO(self.api.download_release(job["id"])))

    def project_key(self, project_id: int) -> dict[str, Any]:
        # every key export is logged with its reason (psan.store.admin.key_access)
        self._count()
        return self.api.project_key(project_id, KEY_REASON)

    def qa_sample(self, project_id: int, size: int) -> tuple[tuple[int, int], list[tuple[int, int]]]:
        """Draw a QA sample; ((project, sample id), sampled (document, token) ids)."""
        self._count()
        sample = self.api.draw_qa_sample(project_id, size)
        tokens = sorted({(t["document_id"], t["token_id"]) for t in sample["tokens"]})
        return (project_id, sample["sample_id"]), tokens

    def qa_verdicts(self, review: tuple[int, int], verdicts: dict[tuple[int, int], str]) -> None:
        self._count()
        self.api.qa_verdicts(*review, verdicts)

    def review_sample(self, project_id: int) -> tuple[tuple[int, int], list[tuple[int, int, list[tuple[int, int]]]]]:
        """Draw the sample of unread sentences (its suggested size); ((project, sample id), (document, first token,
        the stretches of it nobody had seen) of each sampled sentence)."""
        self._count()
        sample = self.api.draw_review_sample(project_id)
        return (project_id, sample["sample_id"]), sorted(
            (s["document_id"], s["first_token"], [(u["first_token"], u["end_token"]) for u in s["unseen"]])
            for s in sample["sentences"])

    def review_misses(self, review: tuple[int, int], misses: dict[tuple[int, int], int]) -> None:
        self._count()
        self.api.review_misses(*review, misses)

    def release_report(self, project_id: int) -> dict[str, Any]:
        self._count()
        return self.api.release_report(project_id)
