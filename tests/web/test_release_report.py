"""Release report and QA sampling: counts only, Clopper–Pearson bound, admin only."""
from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from psan.runtime import db
from psan.store.annotation.decisions import Span, assign_label
from psan.store.publish.qa import upper_bound
from tests.documents import add_document, token_index
from tests.helpers import account_id, csrf_token, new_project, sql
from tests.web.helpers import add_label

NAME = "Karel Dvořák"
LABEL = "Dvořákův klíč"
FILLER = " ".join(f"Qerplix {n} Vandrosk." for n in range(1, 121))
TEXT = f"{NAME} podepsal smlouvu. {FILLER} Odešel {NAME}.\nKontakt: Zbyhnev Ostrolucký.\n"
#: strings of the document (and a label name) that must never reach the report
ORIGINALS = ("Karel", "Dvořák", "Qerplix", "Vandrosk", "podepsal", "smlouvu", "Zbyhnev", "Ostrolucký", LABEL)


@pytest.fixture()
def finished(clean_app, admin_client):
    app = clean_app
    pid = new_project(app, "Report")
    doc = add_document(app, TEXT, [(NAME, "PERSON"), ("Zbyhnev Ostrolucký", "PERSON")], project_id=pid,
                       name="report.txt", language="cs")
    label = add_label(app, pid, LABEL, "PERSON")
    admin = account_id(app, "admin@example.org")
    first = token_index(app, doc, "Karel")
    with app.app_context(), db.transaction() as conn:  # one person decision, through the real store code
        assign_label(conn, Span(pid, doc, first, first + 2), label, admin, ["Karel", "Dvořák"])
    return {"pid": pid, "doc": doc}


def _review_all(client, app, pid: int, verdict_for) -> int:
    token = csrf_token(client, f"/documents/project/{pid}/release")
    response = client.post(f"/documents/project/{pid}/qa", data={"csrf_token": token, "size": "200"})
    assert response.status_code == 302
    sample = int(re.search(r"/qa/(\d+)", response.headers["Location"]).group(1))
    rows = sql(app, "SELECT document_id, token_id FROM qa_sample_token WHERE sample_id = %s", (sample,))
    assert len(rows) == 200
    page = client.get(f"/documents/project/{pid}/qa/{sample}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    form = {f"v-{r['document_id']}-{r['token_id']}": verdict_for(i) for i, r in enumerate(rows)}
    token = csrf_token(client, f"/documents/project/{pid}/qa/{sample}")
    assert client.post(f"/documents/project/{pid}/qa/{sample}", data={"csrf_token": token, **form}).status_code == 302
    return sample


def _correct_entities(app, doc: int) -> None:
    """Entities as the worker stores them, then a person's merge (Zbyhnev into Karel) and split (back out)."""
    from psan.store.annotation import entities
    from psan.store.corpus.documents import load_document
    karel, zbyhnev = token_index(app, doc, "Karel"), token_index(app, doc, "Zbyhnev")
    admin = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        assert entities.update_document_entities(conn, doc, load_document(conn, doc)) == 3
        entities.merge(conn, doc, (karel, karel + 2), (zbyhnev, zbyhnev + 2), admin)
        entities.split(conn, doc, (zbyhnev, zbyhnev + 2), admin)


def test_report_with_clean_qa_sample_states_the_bound_and_no_original(admin_client, clean_app, finished):
    pid = finished["pid"]
    _correct_entities(clean_app, finished["doc"])
    _review_all(admin_client, clean_app, pid, lambda i: "ok")
    # the sampled tokens are public output tokens: none of the decided or masked name is among them
    sampled = sql(clean_app, "SELECT s.token_id, t.start_char, t.end_char FROM qa_sample_token s JOIN token t "
                             "ON t.document_id = s.document_id AND t.idx = s.token_id")
    words = {TEXT[r["start_char"]:r["end_char"]] for r in sampled}
    assert not words & {"Karel", "Dvořák", "Zbyhnev", "Ostrolucký"}
    assert all(w[0].isupper() or any(c.isdigit() for c in w) for w in words)

    report = admin_client.get(f"/documents/project/{pid}/release.json").get_json()
    assert report["qa"]["sampled"] == 200 and report["qa"]["reviewed"] == 200 and report["qa"]["misses"] == 0
    assert report["qa"]["upper_bound"] == pytest.approx(0.0149, abs=5e-4)
    doc = report["documents"][0]
    assert doc["by_how"]["person"] == 1 and doc["undecided"]["total"] == 2  # Karel (2nd), Zbyhnev masked
    assert report["totals"]["by_decision"]["PRIVATE"] >= 1
    assert report["labels"] == [{"number": 1, "category": "PERSON", "private_spans": 1}]
    assert report["decisions_by_person"][0]["account"] == "admin@example.org"
    # entities: Karel Dvořák (2 mentions, labelled) and Zbyhnev Ostrolucký (merged in, then split off)
    assert {k: v for k, v in report["entities"].items() if k != "by_document"} == {
        "entities": 2, "mentions": 3, "by_category": {"PERSON": 2}, "mentions_per_entity": {"1": 1, "2": 1},
        "max_mentions": 2, "across_documents": 0, "labelled": 1, "merged_by_person": 1, "split_by_person": 1,
        "corrected_by_person": 2}
    assert report["entities"]["by_document"] == {str(finished["doc"]): {"PERSON": 2}}
    page = admin_client.get(f"/documents/project/{pid}/release").get_data(as_text=True)
    assert "1.49 %" in page
    members = {}
    for kind in ("input", "tag", "pseudonymize"):
        data = admin_client.get(f"/documents/project/{pid}/download/{kind}").get_data()
        zf = zipfile.ZipFile(io.BytesIO(data))
        members[kind] = {n: zf.read(n).decode("utf-8") for n in zf.namelist()}
        assert json.loads(members[kind]["RELEASE_REPORT.json"])["qa"]["reviewed"] == 200
        assert "1.49 %" in members[kind]["RELEASE_REPORT.html"]
        assert json.loads(members[kind]["RELEASE_REPORT.json"])["entities"]["split_by_person"] == 1
        assert "<h2>Entities</h2>" in members[kind]["RELEASE_REPORT.html"]
    assert 'id="release-entities"' in page
    # no entity key either: an automatic key is a digest of an original name
    keys = [r["key"] for r in sql(clean_app, "SELECT key FROM entity")]
    assert keys
    texts = [json.dumps(report, ensure_ascii=False), page, members["tag"]["RELEASE_REPORT.json"],
             members["tag"]["RELEASE_REPORT.html"], members["tag"]["MASKED.json"]]
    for text in texts:
        for original in (*ORIGINALS, *keys):
            assert original not in text, original


def test_misses_raise_the_bound(admin_client, clean_app, finished):
    pid = finished["pid"]
    _review_all(admin_client, clean_app, pid, lambda i: "miss" if i < 3 else "ok")
    qa = admin_client.get(f"/documents/project/{pid}/release.json").get_json()["qa"]
    assert qa["misses"] == 3 and qa["upper_bound"] == pytest.approx(upper_bound(200, 3))


def test_release_pages_are_admin_only_and_check_ids(admin_client, user_client, clean_app, finished):
    pid = finished["pid"]
    other = new_project(clean_app, "Other")
    for path in (f"/documents/project/{pid}/release", f"/documents/project/{pid}/release.json"):
        assert user_client.get(path).status_code in (302, 403)
    assert admin_client.get("/documents/project/987654/release").status_code == 404
    token = csrf_token(admin_client, f"/documents/project/{pid}/release")
    response = admin_client.post(f"/documents/project/{pid}/qa", data={"csrf_token": token, "size": "5"})
    sample = int(re.search(r"/qa/(\d+)", response.headers["Location"]).group(1))
    assert admin_client.get(f"/documents/project/{other}/qa/{sample}").status_code == 404  # forged project
    assert admin_client.get(f"/documents/project/{pid}/qa/{sample + 99}").status_code == 404
    assert user_client.get(f"/documents/project/{pid}/qa/{sample}").status_code in (302, 403)
    for bad in ("0", "abc", "999999"):
        assert admin_client.post(f"/documents/project/{pid}/qa", data={"csrf_token": token, "size": bad}
                                 ).status_code == 400
    assert admin_client.post(f"/documents/project/{pid}/qa/{sample}",
                             data={"csrf_token": token, "v-1-2": "perhaps"}).status_code == 400
