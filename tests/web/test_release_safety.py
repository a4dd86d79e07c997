"""What a release lets out in clear: switching fail-closed off asks first and names what would be released,
a wide public span never releases a private span inside it, and the QA sample shows only released tokens.
"""
from __future__ import annotations

import re

from psan.runtime import db
from psan.store.annotation.decisions import Scope, Span, decide
from psan.store.annotation.window_content import span_text
from psan.store.publish.output import OUTPUT_MODES
from tests.documents import add_document, token_index
from tests.helpers import account_id, csrf_token, default_project, sql


# --- switching fail-closed off asks first and says what would be released -----------------------------------
def test_keep_undecided_asks_for_confirmation_naming_what_is_released(admin_client, clean_app):
    from tests.helpers import csrf_token
    app = clean_app
    project = default_project(app)
    add_document(app, "Yesterday John Smith met Mary Brown in Leeds.", [("John Smith", "PERSON"),
                                                                       ("Mary Brown", "PERSON"), ("Leeds", "GPE")])
    token = csrf_token(admin_client, f"/documents/?project={project}")
    asked = admin_client.post(f"/documents/project/{project}/undecided", data={"csrf_token": token, "policy": "keep"})
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and 'id="confirm-keep"' in page
    assert "3 undecided spans in 1 document(s) would be released in clear" in page
    assert "person: 2" in page and "place: 1" in page and 'name="confirmed" value="yes"' in page
    assert sql(app, "SELECT undecided_output FROM project WHERE id = %s", (project,))[0]["undecided_output"] == "mask"
    done = admin_client.post(f"/documents/project/{project}/undecided",
                             data={"csrf_token": token, "policy": "keep", "confirmed": "yes"})
    assert done.status_code == 302
    assert sql(app, "SELECT undecided_output FROM project WHERE id = %s", (project,))[0]["undecided_output"] == "keep"
    # masking again needs no confirmation (it releases less)
    assert admin_client.post(f"/documents/project/{project}/undecided",
                             data={"csrf_token": token, "policy": "mask"}).status_code == 302
    # in Czech too
    admin_client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    czech = admin_client.post(f"/documents/project/{project}/undecided", data={"csrf_token": token, "policy": "keep"})
    assert "Ponechat nerozhodnuté úseky jako veřejné?" in czech.get_data(as_text=True)


# --- a wide public span over a private one ------------------------------------------------------------------
def test_a_wide_public_span_never_releases_the_private_span_inside_it(admin_client, clean_app):
    """"Karel Novak Street" decided public by token, "Karel Novak" inside it decided private: no output mode
    releases "Karel" or "Novak" in clear, in any part of the file."""
    app = clean_app
    pid = default_project(app)
    doc = add_document(app, "The office on Karel Novak Street opened. It was quiet there.",
                       [("Karel Novak", "P"), ("Karel Novak Street", "G")])
    first = token_index(app, doc, "Karel")
    admin = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        for (f, e), decision in (((first, first + 3), "PUBLIC"), ((first, first + 2), "PRIVATE")):
            decide(conn, Span(pid, doc, f, e), Scope.TOKEN, decision, admin, span_text(conn, doc, f, e))
    decided = {(r["first_token"], r["end_token"]): r["d"] for r in sql(
        app, "SELECT first_token, end_token, token_decision::text AS d FROM annotation WHERE document_id = %s", (doc,))}
    assert decided[(first, first + 3)] == "PUBLIC" and decided[(first, first + 2)] == "PRIVATE"
    for mode in OUTPUT_MODES:
        response = admin_client.get(f"/documents/{doc}/download/{mode}")
        assert response.status_code == 200, mode
        text = response.get_data(as_text=True)
        assert "Karel" not in text and "Novak" not in text, (mode, text[:300])
        assert "quiet" in text, mode


# --- the QA sample ------------------------------------------------------------------------------------------
def test_qa_sample_draws_only_tokens_the_output_releases_in_clear(admin_client, clean_app):
    """Every token the QA sample shows as "left in clear" is one no private or undecided span covers; the
    sample's page never offers a private or undecided token for review as public."""
    app = clean_app
    pid = default_project(app)
    doc = add_document(app, "Karel Novak met Jana Berg in Brno. Petr saw them. The weather was calm and grey.",
                       [("Karel Novak", "P"), ("Jana Berg", "P"), ("Brno", "G"), ("Petr", "P")])
    admin = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        f = token_index(app, doc, "Karel")
        decide(conn, Span(pid, doc, f, f + 2), Scope.TOKEN, "PRIVATE", admin, span_text(conn, doc, f, f + 2))
        b = token_index(app, doc, "Brno")
        decide(conn, Span(pid, doc, b, b + 1), Scope.TOKEN, "PUBLIC", admin, span_text(conn, doc, b, b + 1))
    response = admin_client.post(f"/documents/project/{pid}/qa", data={
        "csrf_token": csrf_token(admin_client, f"/documents/project/{pid}/release"), "size": "500"})
    assert response.status_code == 302
    sampled = {r["token_id"] for r in sql(app, "SELECT token_id FROM qa_sample_token WHERE document_id = %s", (doc,))}
    covered = set()
    for r in sql(app, "SELECT a.first_token, a.end_token FROM annotation a WHERE a.document_id = %s "
                      "AND coalesce(a.token_decision::text, 'UNDECIDED') <> 'PUBLIC'", (doc,)):
        covered |= set(range(r["first_token"], r["end_token"]))
    assert sampled and not (sampled & covered), (sampled, covered)
    assert token_index(app, doc, "Brno") in sampled  # decided public: in clear, so it may be reviewed
    page = admin_client.get(response.headers["Location"]).get_data(as_text=True)
    marked = re.findall(r"<mark>(.*?)</mark>", page)
    assert marked and not {"Karel", "Novak", "Jana", "Berg", "Petr"} & set(marked)
