"""A number parameter written with digit signs that are no ASCII digits ("²") is refused or ignored, never a 500.

``str.isdigit`` holds for "²" and ``int`` refuses it: every check of a parameter before ``int`` must ask for ASCII
digits (:func:`psan.web.ids.ascii_digits`).
"""
from __future__ import annotations

import re

import pytest

from psan.web.ids import ascii_digits
from tests.documents import add_document, plain_sentences
from tests.helpers import default_project, logged_in_client, meta_csrf
from tests.web.helpers import annotator_client

SUPERSCRIPT = "\u00b2"


@pytest.mark.parametrize(("text", "digits"), [("0", True), ("123", True), ("", False), ("\u00b2", False),
                                              ("1\u00b3", False), ("\u0663", False), ("-1", False), ("1 ", False)])
def test_only_ascii_digits_count_as_digits(text: str, digits: bool) -> None:
    assert ascii_digits(text) is digits


def _document(app) -> int:
    return add_document(app, plain_sentences(0, 10) + " Jonathan Harper sued the company.",
                        [("Jonathan Harper", "P")])


def test_annotator_parameters_with_superscript_digits_are_refused(clean_app) -> None:
    doc = _document(clean_app)
    client = annotator_client(clean_app, "a@example.org")
    assert client.get("/annotate/api/window").status_code == 200
    headers = {"X-CSRFToken": client.environ_base["HTTP_X_CSRFTOKEN"]}
    answers = {
        "history": client.get("/annotate/api/history", query_string={"limit": SUPERSCRIPT}),
        "window": client.get("/annotate/api/window",
                             query_string={"document_id": SUPERSCRIPT, "first_token": 0, "end_token": 1}),
        "entity": client.get("/annotate/api/entity",
                             query_string={"document_id": doc, "first_token": SUPERSCRIPT, "end_token": 1}),
        "annotation": client.get("/annotate/api/annotation/\u00b2-\u00b3"),
        "undo": client.post("/workspace/undo", data={"action_id": SUPERSCRIPT}, headers=headers),
        "choose": client.post("/workspace/choose", data={"project_id": SUPERSCRIPT}, headers=headers),
    }
    assert answers.pop("history").status_code == 200  # the default number of actions
    assert {name: r.status_code for name, r in answers.items()} == {
        "window": 400, "entity": 400, "annotation": 404, "undo": 400, "choose": 400}


def test_admin_parameters_with_superscript_digits_are_refused(clean_app) -> None:
    _document(clean_app)
    project = default_project(clean_app)
    admin = logged_in_client(clean_app, "admin@example.org", "ADMIN")
    token = meta_csrf(admin)
    headers = {"X-CSRFToken": token}
    statuses = [
        admin.get("/documents/upload", query_string={"project": SUPERSCRIPT}).status_code,
        admin.get(f"/workspace/projects/{project}/search", query_string={"undo": SUPERSCRIPT}).status_code,
        admin.post(f"/workspace/projects/{project}/search/decide",
                   data={"decision": "PUBLIC", "occurrence": f"{SUPERSCRIPT}:0:1", "csrf_token": token},
                   headers=headers).status_code,
        admin.post(f"/documents/project/{project}/review-sample", data={"size": SUPERSCRIPT, "csrf_token": token},
                   headers=headers).status_code,
    ]
    drawn = admin.post(f"/documents/project/{project}/qa", data={"size": "5", "csrf_token": token}, headers=headers)
    sample = re.search(r"/qa/(\d+)", drawn.headers.get("Location", ""))
    assert sample, drawn.headers
    verdict = admin.post(f"/documents/project/{project}/qa/{sample.group(1)}",
                         data={"csrf_token": token, f"v-{SUPERSCRIPT}-1": "ok"}, headers=headers)
    statuses.append(verdict.status_code)
    assert all(status < 500 for status in statuses), statuses
