"""The client: one method per API operation, errors raised as :class:`ApiError` with the API's stable code.

Transports: :class:`RequestsTransport` talks to a server over HTTP(S); :class:`WsgiTransport` calls a WSGI app's
test client in-process (tests, benchmarks and ``ner_eval`` measure the app without a server).
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

PREFIX = "/api/v1"
#: a file to upload: a path, or (name, bytes)
Upload = str | Path | tuple[str, bytes]


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    content_type: str
    json: Any


class Transport(Protocol):
    def __call__(self, method: str, path: str, *, headers: Mapping[str, str], params: Mapping[str, Any] | None,
                 json: Any, files: Sequence[tuple[str, bytes] | tuple[str, str, bytes]] | None,
                 data: Mapping[str, str] | None) -> Answer: ...


class ApiError(RuntimeError):
    """The API refused a call: ``status`` (HTTP), ``code`` (stable, e.g. ``not_found``), ``message``, ``errors``."""

    def __init__(self, status: int, code: str, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" {errors}" if errors else ""))
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _parts(files: Sequence[tuple[str, bytes] | tuple[str, str, bytes]] | None) -> list[tuple[str, str, bytes]]:
    """(form field, file name, bytes) of each file; a ``(name, bytes)`` pair goes into the field ``files``."""
    return [part if len(part) == 3 else ("files", *part) for part in files or ()]  # type: ignore[misc]


class RequestsTransport:
    """HTTP(S) to a psan server (``requests``; one keep-alive session)."""

    def __init__(self, base_url: str, timeout: float = 60.0) -> None:
        import requests
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session = requests.Session()

    def __call__(self, method, path, *, headers, params, json, files, data) -> Answer:  # noqa: ANN001
        response = self.session.request(method, self.base_url + path, headers=dict(headers), params=params,
                                        json=json, data=data, timeout=self.timeout,
                                        files=[(field, (name, content)) for field, name, content in _parts(files)]
                                        or None)
        content_type = response.headers.get("Content-Type", "")
        body = response.content
        return Answer(response.status_code, body, content_type,
                      response.json() if content_type.startswith("application/json") and body else None)


class WsgiTransport:
    """In-process calls through a WSGI test client (Flask's ``app.test_client()``)."""

    def __init__(self, test_client: Any) -> None:
        self.http = test_client

    def __call__(self, method, path, *, headers, params, json, files, data) -> Answer:  # noqa: ANN001
        import io
        kwargs: dict[str, Any] = {"method": method, "headers": dict(headers), "query_string": params}
        if json is not None:
            kwargs["json"] = json
        if files:
            fields: dict[str, Any] = dict(data or {})
            for field, name, content in _parts(files):
                fields.setdefault(field, []).append((io.BytesIO(content), name))
            kwargs["data"] = fields
            kwargs["content_type"] = "multipart/form-data"
        response = self.http.open(path, **kwargs)
        content_type = response.headers.get("Content-Type", "")
        body = response.get_data()
        return Answer(response.status_code, body, content_type,
                      response.get_json(silent=True) if content_type.startswith("application/json") else None)


class Client:
    """psan's API with one personal token (``psan_…``; its scope decides which methods work)."""

    def __init__(self, base_url: str | None = None, token: str | None = None, *, timeout: float = 60.0,
                 transport: Transport | None = None) -> None:
        if not token:
            raise ValueError("a personal API token (psan_…) is needed")
        if transport is None and not base_url:
            raise ValueError("the server's base URL is needed (or a transport)")
        self.token = token
        self.transport: Transport = transport or RequestsTransport(base_url or "", timeout)
        self.calls = 0

    # --- plumbing -----------------------------------------------------------------------------------------------
    def call(self, method: str, path: str, *, params: Mapping[str, Any] | None = None, json: Any = None,
             files: Sequence[tuple[str, bytes] | tuple[str, str, bytes]] | None = None,
             data: Mapping[str, str] | None = None, expect: Iterable[int] = (200, 201, 202, 204)) -> Answer:
        """One call; :class:`ApiError` unless the status is one of ``expect``."""
        self.calls += 1
        answer = self.transport(method, PREFIX + path, headers={"Authorization": f"Bearer {self.token}",
                                                                "Accept": "application/json"},
                                params=params, json=json, files=files, data=data)
        if answer.status not in tuple(expect):
            body = answer.json if isinstance(answer.json, dict) else {}
            raise ApiError(answer.status, str(body.get("code", "error")),
                           str(body.get("message", answer.body[:200].decode("utf-8", "replace"))), body.get("errors"))
        return answer

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.call(method, path, **kwargs).json

    # --- the caller, the document ---------------------------------------------------------------------------------
    def token_info(self) -> dict[str, Any]:
        return self._json("GET", "/token")

    def openapi(self) -> dict[str, Any]:
        return self._json("GET", "/openapi.json")

    # --- projects ---------------------------------------------------------------------------------------------------
    def projects(self) -> list[dict[str, Any]]:
        return self._json("GET", "/projects")["projects"]

    def create_project(self, name: str, language: str, **settings: Any) -> dict[str, Any]:
        return self._json("POST", "/projects", json={"name": name, "language": language, **settings})

    def project(self, project_id: int) -> dict[str, Any]:
        return self._json("GET", f"/projects/{project_id}")

    def update_project(self, project_id: int, **settings: Any) -> dict[str, Any]:
        return self._json("PATCH", f"/projects/{project_id}", json=settings)

    def rules(self, project_id: int) -> list[dict[str, Any]]:
        return self._json("GET", f"/projects/{project_id}/rules")["rules"]

    def labels(self, project_id: int) -> list[dict[str, Any]]:
        return self._json("GET", f"/projects/{project_id}/labels")["labels"]

    # --- documents --------------------------------------------------------------------------------------------------
    def documents(self, project_id: int) -> list[dict[str, Any]]:
        return self._json("GET", f"/projects/{project_id}/documents")["documents"]

    def upload(self, project_id: int, files: Iterable[Upload], *, language: str | None = None,
               confirm_conversion: bool = False) -> dict[str, Any]:
        """Upload files (paths or ``(name, bytes)``; ZIPs are unpacked): ``{documents, refused, notes, waiting}``."""
        parts = [(Path(f).name, Path(f).read_bytes()) if isinstance(f, str | Path) else f for f in files]
        data = {"confirm_conversion": "true" if confirm_conversion else "false"}
        if language:
            data["language"] = language
        return self._json("POST", f"/projects/{project_id}/documents", files=parts, data=data)

    def document(self, document_id: int) -> dict[str, Any]:
        return self._json("GET", f"/documents/{document_id}")

    def delete_document(self, document_id: int) -> None:
        self.call("DELETE", f"/documents/{document_id}")

    def wait_for_documents(self, project_id: int, document_ids: Iterable[int] | None = None, *,
                           timeout: float = 600.0, poll: float = 1.0) -> list[dict[str, Any]]:
        """The project's documents once none of them (or of ``document_ids``) is pre-processed any more."""
        wanted = set(document_ids) if document_ids is not None else None
        deadline = time.monotonic() + timeout
        while True:
            documents = [d for d in self.documents(project_id) if wanted is None or d["id"] in wanted]
            if all(not d["busy"] for d in documents):
                return documents
            if time.monotonic() > deadline:
                raise TimeoutError(f"documents still pre-processed after {timeout:.0f} s")
            time.sleep(poll)

    def spans(self, document_id: int) -> list[dict[str, Any]]:
        return self._json("GET", f"/documents/{document_id}/spans")["spans"]

    # --- annotation (annotate-scoped tokens) --------------------------------------------------------------------------
    def window(self, **part: int) -> dict[str, Any]:
        """The token's account's annotation window (``document_id, first_token, end_token``: a part of it)."""
        return self._json("GET", "/annotate/window", params=part or None)

    def next_window(self) -> dict[str, Any]:
        return self._json("POST", "/annotate/next", json={})

    def decide(self, document_id: int, first_token: int, end_token: int, decision: str, scope: str = "token",
               **extra: Any) -> dict[str, Any]:
        return self._json("POST", "/annotate/decide", json={
            "document_id": document_id, "first_token": first_token, "end_token": end_token, "decision": decision,
            "scope": scope, **extra})

    def accept(self, document_id: int) -> dict[str, Any]:
        return self._json("POST", "/annotate/accept", json={"document_id": document_id})

    def label(self, document_id: int, first_token: int, end_token: int, *, label_id: int | None = None,
              name: str | None = None, category: str | None = None, always: bool = False) -> dict[str, Any]:
        payload: dict[str, Any] = {"document_id": document_id, "first_token": first_token, "end_token": end_token,
                                   "always": always}
        if label_id is not None:
            payload["label_id"] = label_id
        if name is not None:
            payload["label_name"] = name
        if category is not None:
            payload["label_category"] = category
        return self._json("POST", "/annotate/label", json=payload)

    def entity(self, document_id: int, first_token: int, end_token: int) -> dict[str, Any] | None:
        return self._json("GET", "/annotate/entity", params={"document_id": document_id, "first_token": first_token,
                                                             "end_token": end_token})["entity"]

    def read(self) -> dict[str, Any]:
        return self._json("POST", "/annotate/read", json={})

    def public_offers(self, project_id: int) -> dict[str, Any]:
        """The project's offered public rules and the answered ones (``{offers, answered}``)."""
        return self._json("GET", f"/projects/{project_id}/public-offers")

    def confirm_offer(self, project_id: int, form: str) -> dict[str, Any]:
        return self._json("POST", f"/projects/{project_id}/public-offers/confirm", json={"form": form})

    def dismiss_offer(self, project_id: int, form: str) -> dict[str, Any]:
        return self._json("POST", f"/projects/{project_id}/public-offers/dismiss", json={"form": form})

    def undo_offer(self, project_id: int, form: str) -> dict[str, Any]:
        return self._json("POST", f"/projects/{project_id}/public-offers/undo", json={"form": form})

    def open_at(self, document_id: int, start: int = 0, size: int | None = None,
                exact: bool = False) -> dict[str, Any]:
        payload: dict[str, Any] = {"document_id": document_id, "start": start}
        if size is not None:
            payload["size"] = size
        if exact:
            payload["exact"] = True
        return self._json("POST", "/annotate/open", json=payload)

    # --- release -----------------------------------------------------------------------------------------------------
    def start_release(self, project_id: int, kind: str = "pseudonymize") -> dict[str, Any]:
        return self._json("POST", f"/projects/{project_id}/releases", json={"kind": kind})

    def release_job(self, job_id: int) -> dict[str, Any]:
        return self._json("GET", f"/release-jobs/{job_id}")

    def wait_for_release(self, job_id: int, *, timeout: float = 3600.0, poll: float = 1.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            job = self.release_job(job_id)
            if job["status"] == "DONE":
                return job
            if job["status"] == "FAILED":
                raise ApiError(500, "release_failed", job.get("error") or "the release job failed")
            if time.monotonic() > deadline:
                raise TimeoutError(f"release job {job_id} not done after {timeout:.0f} s")
            time.sleep(poll)

    def download_release(self, job_id: int) -> bytes:
        return self.call("GET", f"/release-jobs/{job_id}/file").body

    def release(self, project_id: int, kind: str = "pseudonymize", *, timeout: float = 3600.0,
                poll: float = 1.0) -> bytes:
        """Start, wait for and download the project ZIP."""
        job = self.start_release(project_id, kind)
        self.wait_for_release(job["id"], timeout=timeout, poll=poll)
        return self.download_release(job["id"])

    # --- annotation files of other tools --------------------------------------------------------------------------
    def import_spans(self, format_name: str, name: str, content: bytes, *, project_id: int | None = None,
                     document_id: int | None = None, gold: bool = False) -> dict[str, Any]:
        """Import an annotation file (BRAT, XMI, Label Studio …) into a document or, by document name, a project:
        suspicious spans, or decided private ones when ``gold``."""
        path = f"/documents/{document_id}" if document_id is not None else f"/projects/{project_id}"
        return self._json("POST", f"{path}/annotation-files", files=[("file", name, content)],
                          data={"format": format_name, "gold": "true" if gold else "false"})

    def export_spans(self, format_name: str, *, project_id: int | None = None,
                     document_id: int | None = None) -> bytes:
        """The decided private spans of a document or a project in an annotation format (holds the texts)."""
        path = f"/documents/{document_id}" if document_id is not None else f"/projects/{project_id}"
        return self.call("GET", f"{path}/annotation-files", params={"format": format_name}).body

    def release_report(self, project_id: int) -> dict[str, Any]:
        return self._json("GET", f"/projects/{project_id}/release-report")

    def project_key(self, project_id: int, reason: str) -> dict[str, Any]:
        """The pseudonymization key (every export is logged with the ``reason``)."""
        import json
        return json.loads(self.call("GET", f"/projects/{project_id}/key", params={"reason": reason}).body)

    # --- review by risk: the sample of unread sentences ------------------------------------------------------------
    def draw_review_sample(self, project_id: int, size: int | None = None) -> dict[str, Any]:
        return self._json("POST", f"/projects/{project_id}/review-samples", json={} if size is None else {"size": size})

    def review_misses(self, project_id: int, sample_id: int, misses: Mapping[tuple[int, int], int]) -> int:
        return self._json("POST", f"/projects/{project_id}/review-samples/{sample_id}/misses", json={
            "misses": [{"document_id": d, "first_token": t, "misses": n} for (d, t), n in misses.items()]})["saved"]

    # --- QA sample ---------------------------------------------------------------------------------------------------
    def draw_qa_sample(self, project_id: int, size: int) -> dict[str, Any]:
        return self._json("POST", f"/projects/{project_id}/qa-samples", json={"size": size})

    def qa_sample(self, project_id: int, sample_id: int) -> dict[str, Any]:
        return self._json("GET", f"/projects/{project_id}/qa-samples/{sample_id}")

    def qa_verdicts(self, project_id: int, sample_id: int, verdicts: Mapping[tuple[int, int], str]) -> int:
        return self._json("POST", f"/projects/{project_id}/qa-samples/{sample_id}/verdicts", json={
            "verdicts": [{"document_id": d, "token_id": t, "verdict": v} for (d, t), v in verdicts.items()]})["saved"]
