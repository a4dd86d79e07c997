"""Project administration: pipeline validation, thresholds, members, deletion, access."""
from __future__ import annotations

import re

from psan.tool.models.fetch import install_hint
from tests.helpers import csrf_token, make_account, sql


def _form(client, path, **data):
    token = csrf_token(client, path)
    base = {"name": "Proj", "language": "en", "pipeline": "", "public_threshold": "1", "private_threshold": "-1"}
    return client.post(path, data={**base, **data, "csrf_token": token})


def test_create_with_regex_pipeline_and_members(admin_client, clean_app):
    make_account(clean_app, "ann@example.org")
    ann = sql(clean_app, "SELECT id FROM account WHERE email = 'ann@example.org'")[0]["id"]
    response = _form(admin_client, "/projects/new", name="Czech one", language="cs",
                     pipeline='{"tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}', members=str(ann))
    assert response.status_code == 302, response.get_data(as_text=True)
    row = sql(clean_app, "SELECT * FROM project WHERE name = 'Czech one'")[0]
    assert row["language"] == "cs" and row["pipeline"]["tokenizer"] == "regex"
    assert sql(clean_app, "SELECT account_id FROM project_member WHERE project_id = %s", (row["id"],)) == \
        [{"account_id": ann}]
    assert "Czech one" in admin_client.get("/projects/").get_data(as_text=True)


def test_bad_pipelines_are_form_errors_not_500(admin_client, clean_app):
    for pipeline, message in (("{not json", "Invalid JSON"), ('["x"]', "JSON object"),
                              ('{"ner": ["nosuchkind"]}', "cannot be built"),
                              ('{"tokenizer": "nametag"}', "cannot be built"),
                              ('{"language": "cs"}', "differs")):
        response = _form(admin_client, "/projects/new", name="Bad", pipeline=pipeline)
        assert response.status_code == 200, pipeline
        assert message in response.get_data(as_text=True), pipeline
    assert not sql(clean_app, "SELECT 1 FROM project WHERE name = 'Bad'")


def test_thresholds_must_be_ordered_and_names_unique(admin_client, clean_app):
    response = _form(admin_client, "/projects/new", name="T", public_threshold="0", private_threshold="1")
    assert "Must be below" in response.get_data(as_text=True)
    response = _form(admin_client, "/projects/new", name="Default")
    assert "exists" in response.get_data(as_text=True)


def test_edit_and_delete_with_confirmation(admin_client, clean_app):
    pid = sql(clean_app, "INSERT INTO project (name) VALUES ('Gone') RETURNING id")[0]["id"]
    sql(clean_app, "INSERT INTO document (project_id, name, language, text) VALUES (%s, 'd', 'en', 'x')", (pid,))
    assert admin_client.get(f"/projects/{pid}").status_code == 200
    response = _form(admin_client, f"/projects/{pid}", name="Gone2", public_threshold="2")
    assert response.status_code == 302
    assert sql(clean_app, "SELECT public_threshold FROM project WHERE id = %s", (pid,))[0]["public_threshold"] == 2
    page = admin_client.get(f"/projects/{pid}/delete").get_data(as_text=True)
    assert "1 document" in page
    token = csrf_token(admin_client, f"/projects/{pid}/delete")
    wrong = admin_client.post(f"/projects/{pid}/delete", data={"csrf_token": token, "confirm_name": "nope"})
    assert "does not match" in wrong.get_data(as_text=True)
    ok = admin_client.post(f"/projects/{pid}/delete", data={"csrf_token": token, "confirm_name": "Gone2"})
    assert ok.status_code == 302
    assert not sql(clean_app, "SELECT 1 FROM project WHERE id = %s", (pid,))
    assert not sql(clean_app, "SELECT 1 FROM document WHERE project_id = %s", (pid,))


def test_default_project_cannot_be_deleted(admin_client, clean_app):
    pid = sql(clean_app, "SELECT id FROM project WHERE is_default")[0]["id"]
    response = admin_client.get(f"/projects/{pid}/delete")
    assert response.status_code == 302
    assert sql(clean_app, "SELECT 1 FROM project WHERE id = %s", (pid,))


def test_forged_ids_and_annotators(admin_client, user_client, clean_app):
    assert admin_client.get("/projects/999999").status_code == 404
    assert admin_client.get("/projects/999999/delete").status_code == 404
    for path in ("/projects/", "/projects/new", "/projects/1"):
        assert user_client.get(path).status_code == 403
    assert re.search(r"Projects", admin_client.get("/projects/").get_data(as_text=True))


def test_project_pages_say_when_no_ner_model_runs(admin_client, clean_app, monkeypatch):
    """Without NameTag models a Slovak project falls back to patterns + gazetteers; both pages say so."""
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)
    assert _form(admin_client, "/projects/new", name="Slovak one", language="sk").status_code == 302
    pid = sql(clean_app, "SELECT id FROM project WHERE name = 'Slovak one'")[0]["id"]
    notice = "No NER model is available for this project"
    assert notice in admin_client.get(f"/projects/{pid}").get_data(as_text=True)
    assert notice in admin_client.get(f"/documents/?project={pid}").get_data(as_text=True)
    for page in (f"/projects/{pid}", f"/documents/?project={pid}"):  # and exactly what to run
        command = f'<code id="no-ner-command">{install_hint("sk")}</code>'  # a command that works as printed
        assert command in admin_client.get(page).get_data(as_text=True)
    assert _form(admin_client, "/projects/new", name="With NER", language="sk",
                 pipeline='{"tokenizer": "regex", "ner": [{"kind": "classifier", "model_path": "/nonexistent"}]}'
                 ).status_code == 200  # an unbuildable pipeline stays a form error


def test_a_changed_sensitive_list_re_levels_the_types_it_reclassifies(admin_client, clean_app, reannotations):
    """The list decides where a person's word rule outranks a learned type (psan.tool.decisions.precedence)."""
    pid = sql(clean_app, "INSERT INTO project (name) VALUES ('Sens') RETURNING id")[0]["id"]
    sql(clean_app, "INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'NE_TYPE', 'ORG', -1), "
                   "(%s, 'NE_TYPE', 'GPE', 0)", (pid, pid))
    sql(clean_app, "DELETE FROM rule_change WHERE project_id = %s", (pid,))  # the inserts' own changes
    assert _form(admin_client, f"/projects/{pid}", name="Sens", sensitive_types="ORGANIZATION").status_code == 302
    logged = sql(clean_app, "SELECT new_condition FROM rule_change WHERE project_id = %s AND new_type = 'NE_TYPE'",
                 (pid,))
    assert logged == [{"new_condition": "ORG"}] and reannotations == [pid]
    assert _form(admin_client, f"/projects/{pid}", name="Sens2", sensitive_types="ORGANIZATION").status_code == 302
    assert reannotations == [pid]  # the list did not change: no run


def test_lookups_everywhere_is_off_by_default_and_saved_by_the_form(admin_client, clean_app):
    """The setting for a case file's documents: off unless the admin ticks it; the edit page shows it again."""
    assert _form(admin_client, "/projects/new", name="Case file").status_code == 302
    pid, everywhere = sql(clean_app, "SELECT id, lookups_everywhere FROM project WHERE name = 'Case file'")[0].values()
    assert everywhere is False
    assert _form(admin_client, f"/projects/{pid}", name="Case file", lookups_everywhere="y").status_code == 302
    assert sql(clean_app, "SELECT lookups_everywhere FROM project WHERE id = %s", (pid,))[0]["lookups_everywhere"]
    page = admin_client.get(f"/projects/{pid}").get_data(as_text=True)
    assert re.search(r'id="lookups_everywhere"[^>]*checked|checked[^>]*id="lookups_everywhere"', page)


def test_tracked_changes_accepted_by_default_and_saved_by_the_form(admin_client, clean_app):
    """Office files' tracked changes: accepted unless the admin chooses reject; the edit page shows the choice."""
    assert _form(admin_client, "/projects/new", name="Court").status_code == 302
    pid, mode = sql(clean_app, "SELECT id, tracked_changes FROM project WHERE name = 'Court'")[0].values()
    assert mode == "accept"
    assert _form(admin_client, f"/projects/{pid}", name="Court", tracked_changes="reject").status_code == 302
    assert sql(clean_app, "SELECT tracked_changes FROM project WHERE id = %s", (pid,))[0]["tracked_changes"] == "reject"
    page = admin_client.get(f"/projects/{pid}").get_data(as_text=True)
    assert re.search(r'<option[^>]*selected[^>]*value="reject"|<option[^>]*value="reject"[^>]*selected', page)
    assert _form(admin_client, f"/projects/{pid}", name="Court", tracked_changes="keep").status_code == 200  # refused


def test_saving_a_project_mentions_the_pipeline_only_when_it_changed(admin_client, clean_app):
    assert _form(admin_client, "/projects/new", name="Saved", language="en").status_code == 302
    pid = sql(clean_app, "SELECT id FROM project WHERE name = 'Saved'")[0]["id"]
    _form(admin_client, f"/projects/{pid}", name="Saved", language="en", public_threshold="2")
    page = admin_client.get("/projects/").get_data(as_text=True)
    assert "Project saved." in page and "A changed pipeline" not in page
    _form(admin_client, f"/projects/{pid}", name="Saved", language="en",
          pipeline='{"tokenizer": "regex", "ner": [], "recognizers": ["patterns"]}')
    assert "A changed pipeline applies" in admin_client.get("/projects/").get_data(as_text=True)


def test_a_sensitive_type_list_with_markup_is_refused_and_an_unknown_type_is_named(admin_client, clean_app):
    refused = _form(admin_client, "/projects/new", name="Marked", sensitive_types="gu, <b>, FOO")
    assert refused.status_code == 200 and "Not a category or an entity type: &lt;b&gt;." in \
        refused.get_data(as_text=True)
    assert not sql(clean_app, "SELECT 1 FROM project WHERE name = 'Marked'")
    saved = _form(admin_client, "/projects/new", name="Typo", sensitive_types="gu, ADDRESS, FOO")
    assert saved.status_code == 302
    page = admin_client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "they are kept as written: FOO." in page
    assert sql(clean_app, "SELECT sensitive_types FROM project WHERE name = 'Typo'") == \
        [{"sensitive_types": ["gu", "ADDRESS", "FOO"]}]
