"""The app as its users reach it: logged-in HTTP clients of an admin and of an annotator.

Why the HTTP layer (Flask's test client, the same WSGI app uWSGI serves): the measurement must
go through what people use — the login form, the upload form, the annotation API with its CSRF
header and role checks, the project ZIP and key downloads, the QA review form.  Every call checks
the status code, so a refusal of the app stops the run with the app's own message.
"""
from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Sequence
from typing import Any

from flask import Flask

_FORM_CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')
_META_CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
_QA_FIELD = re.compile(r'name="v-(\d+)-(\d+)"')
_SAMPLE_FIELD = re.compile(r'name="m-(\d+)-(\d+)"')


class AppError(RuntimeError):
    """The app refused a request the simulation needed (status and the app's message)."""


def _csrf(html: str, pattern: re.Pattern[str], path: str) -> str:
    match = pattern.search(html)
    if not match:
        raise AppError(f"no CSRF token on {path}")
    return match.group(1)


class Client:
    """One logged-in account (``login`` posts the real login form)."""

    def __init__(self, app: Flask, email: str, password: str) -> None:
        self.http = app.test_client()
        page = "/auth/login"
        token = _csrf(self.http.get(page).get_data(as_text=True), _FORM_CSRF, page)
        response = self.http.post(page, data={"email": email, "password": password, "csrf_token": token})
        if response.status_code != 302:
            raise AppError(f"login of {email} refused ({response.status_code})")
        self.http.environ_base["HTTP_X_CSRFTOKEN"] = _csrf(
            self.http.get("/annotate/").get_data(as_text=True), _META_CSRF, "/annotate/")
        self.requests = 0

    def get_json(self, path: str, **params: Any) -> dict[str, Any]:
        self.requests += 1
        response = self.http.get(path, query_string=params)
        return self._answer(response, path)

    def post_json(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        return self._answer(self.http.post(path, json=payload), path)

    @staticmethod
    def _answer(response, path: str) -> dict[str, Any]:  # noqa: ANN001 - werkzeug TestResponse
        data = response.get_json(silent=True)
        if response.status_code != 200:
            message = data.get("error") if isinstance(data, dict) else response.get_data(as_text=True)[:300]
            raise AppError(f"{path}: {response.status_code} {message}")
        return data

    def get_bytes(self, path: str) -> bytes:
        self.requests += 1
        response = self.http.get(path)
        if response.status_code != 200:
            raise AppError(f"{path}: {response.status_code}")
        return response.get_data()

    def form_post(self, path: str, data: dict[str, Any], page: str | None = None) -> str:
        """POST a form with the CSRF token of ``page`` (default ``path``); the page the redirect leads to."""
        self.requests += 1
        token = _csrf(self.http.get(page or path).get_data(as_text=True), _FORM_CSRF, page or path)
        response = self.http.post(path, data={**data, "csrf_token": token}, follow_redirects=True)
        if response.status_code != 200:
            raise AppError(f"{path}: {response.status_code} {response.get_data(as_text=True)[:300]}")
        return response.get_data(as_text=True)


class Annotator(Client):
    """The annotation API (``psan/annotate/api.py``) as the keyboard UI calls it."""

    def window(self) -> dict[str, Any]:
        return self.get_json("/annotate/api/window")

    def next_window(self) -> dict[str, Any]:
        return self.post_json("/annotate/api/next", {})

    def read(self) -> dict[str, Any]:
        """The next stretch of text the project routes to reading in full (``window: None`` when none is left)."""
        return self.post_json("/annotate/api/read", {})

    def open_at(self, document_id: int, start: int, size: int) -> dict[str, Any]:
        """Admins only: a window at any position (the review of text no window showed)."""
        return self.post_json("/annotate/api/open", {"document_id": document_id, "start": start, "size": size})

    def decide(self, document_id: int, first: int, end: int, decision: str, scope: str) -> dict[str, Any]:
        return self.post_json("/annotate/api/decide", {"document_id": document_id, "first_token": first,
                                                       "end_token": end, "decision": decision, "scope": scope})

    def accept(self, document_id: int) -> dict[str, Any]:
        return self.post_json("/annotate/api/accept", {"document_id": document_id})

    def label(self, document_id: int, first: int, end: int, name: str, category: str) -> dict[str, Any]:
        return self.post_json("/annotate/api/label", {"document_id": document_id, "first_token": first,
                                                      "end_token": end, "label_name": name,
                                                      "label_category": category})

    def entity(self, document_id: int, first: int, end: int) -> dict[str, Any] | None:
        return self.get_json("/annotate/api/entity", document_id=document_id, first_token=first,
                             end_token=end).get("entity")


class Admin(Annotator):
    """Upload, document status, downloads and the QA review (the admin pages)."""

    def upload_zip(self, project_id: int, language: str, files: Sequence[tuple[str, str]]) -> None:
        """Upload ``(name, text)`` files as one ZIP through the upload form."""
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, text in files:
                zf.writestr(name, text.encode("utf-8"))
        self.requests += 1
        page = f"/documents/upload?project={project_id}"
        token = _csrf(self.http.get(page).get_data(as_text=True), _FORM_CSRF, page)
        response = self.http.post("/documents/upload", data={
            "csrf_token": token, "project": str(project_id), "language": language, "name": "", "text": "",
            "files": (io.BytesIO(buf.getvalue()), "corpus.zip")}, content_type="multipart/form-data")
        if response.status_code != 302:
            body = response.get_data(as_text=True)
            refused = re.findall(r"Refused: [^<]*", body)
            raise AppError(f"upload refused ({response.status_code}): {'; '.join(refused)[:500]}")

    def documents(self, project_id: int) -> list[dict[str, Any]]:
        return self.get_json("/documents/status", project=project_id)["documents"]

    def project_zip(self, project_id: int, kind: str) -> zipfile.ZipFile:
        return zipfile.ZipFile(io.BytesIO(self.get_bytes(f"/documents/project/{project_id}/download/{kind}")))

    def project_key(self, project_id: int) -> dict[str, Any]:
        # every key export is logged with its reason (psan.store.admin.key_access)
        return json.loads(self.get_bytes(f"/documents/project/{project_id}/key.json?reason=ner_eval+release+measure"))

    def qa_sample(self, project_id: int, size: int) -> tuple[str, list[tuple[int, int]]]:
        """Draw a QA sample through the release page; (review page path, sampled (document, token) ids)."""
        self.requests += 1
        page = f"/documents/project/{project_id}/release"
        token = _csrf(self.http.get(page).get_data(as_text=True), _FORM_CSRF, page)
        response = self.http.post(f"/documents/project/{project_id}/qa", data={"csrf_token": token,
                                                                                "size": str(size)})
        if response.status_code != 302:
            raise AppError(f"QA sample refused ({response.status_code})")
        review = response.headers["Location"]
        html = self.http.get(review).get_data(as_text=True)
        tokens = sorted({(int(d), int(t)) for d, t in _QA_FIELD.findall(html)})
        return review, tokens

    def qa_verdicts(self, review: str, verdicts: dict[tuple[int, int], str]) -> None:
        self.form_post(review, {f"v-{d}-{t}": v for (d, t), v in verdicts.items()})

    def review_sample(self, project_id: int) -> tuple[str, list[tuple[int, int]]]:
        """Draw the release page's sample of unread sentences (its suggested size); (review page, (document,
        first token) of each sampled sentence)."""
        self.requests += 1
        page = f"/documents/project/{project_id}/release"
        token = _csrf(self.http.get(page).get_data(as_text=True), _FORM_CSRF, page)
        response = self.http.post(f"/documents/project/{project_id}/review-sample",
                                  data={"csrf_token": token, "size": ""})
        if response.status_code != 302:
            raise AppError(f"review sample refused ({response.status_code})")
        review = response.headers["Location"]
        html = self.http.get(review).get_data(as_text=True)
        return review, sorted({(int(d), int(t)) for d, t in _SAMPLE_FIELD.findall(html)})

    def review_misses(self, review: str, misses: dict[tuple[int, int], int]) -> None:
        self.form_post(review, {f"m-{d}-{t}": str(n) for (d, t), n in misses.items()})

    def release_report(self, project_id: int) -> dict[str, Any]:
        return self.get_json(f"/documents/project/{project_id}/release.json")
