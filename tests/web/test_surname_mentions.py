"""A word of a person's full name is that person wherever it stands, through upload, the real worker and NER.

spaCy calls a lone "Reese" NORP (category OTHER, which the window suggests public) and finds no second
"Connor"; the document's own "Sarah Connor" and "Kyle Reese" make both person mentions of those entities, so
`x` on a full name reaches them and no part of a name is suggested public.
"""
from __future__ import annotations

import pytest

from tests.documents import annotation, token_index, wait_for_documents
from tests.helpers import csrf_token, default_project, sql
from tests.web.helpers import annotator_client, api_decide, api_window

pytestmark = pytest.mark.worker

TEXT = ("Sarah Connor met Kyle Reese in Los Angeles in 1984.\n"
        "Connor later phoned Reese from the station.\n")


def test_surname_alone_is_a_mention_of_the_full_name(admin_client, clean_app, celery_worker):
    app = clean_app
    project = default_project(app)
    token = csrf_token(admin_client, "/documents/upload")
    response = admin_client.post("/documents/upload", data={"csrf_token": token, "project": str(project),
                                                            "language": "en", "text": TEXT, "name": "connor"},
                                 content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    (row,) = wait_for_documents(app)
    assert row["status"] == "PRE_ANNOTATED", row
    doc = row["id"]
    sarah, kyle = token_index(app, doc, "Sarah"), token_index(app, doc, "Kyle")
    connor, reese = token_index(app, doc, "Connor", 1), token_index(app, doc, "Reese", 1)
    for lone in (connor, reese):
        assert annotation(app, doc, lone, lone + 1) is not None, "the lone surname has a span"
    annotator = annotator_client(app, "surnames@example.org", window_size=300)
    status, data = api_window(annotator)
    assert status == 200, data
    shown = {(a["first_token"], a["end_token"]): a for a in data["annotations"]}
    for lone in (connor, reese):
        assert shown[(lone, lone + 1)].get("suggestion") != "PUBLIC", shown[(lone, lone + 1)]
    # x on each full name reaches its lone surname
    assert api_decide(annotator, doc, sarah, sarah + 2, "PRIVATE", scope="entity")[0] == 200
    assert api_decide(annotator, doc, kyle, kyle + 2, "PRIVATE", scope="entity")[0] == 200
    for lone in (connor, reese):
        assert annotation(app, doc, lone, lone + 1)["token_decision"] == "PRIVATE"
    categories = {r["category"] for r in sql(
        app, "SELECT e.category FROM entity_mention m JOIN entity e ON e.id = m.entity_id "
             "WHERE m.document_id = %s AND m.first_token IN (%s, %s) AND m.end_token - m.first_token = 1",
        (doc, connor, reese))}
    assert categories == {"PERSON"}
