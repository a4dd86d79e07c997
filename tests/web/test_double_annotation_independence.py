"""Independent double annotation: the second version starts from the pre-annotation, never from the first
annotator's decisions, and agreement counts only what both decided.

Real PostgreSQL and Redis.
"""
from __future__ import annotations

import re

from psan.store.annotation.visibility import max_tokens
from tests.documents import add_document, group_entities
from tests.helpers import default_project, sql
from tests.web.helpers import add_rule, annotator_client

#: every word of the walk's documents is unique ("Zq" + 5 letters), so a response's distinct words are the
#: document text it carries; a sentence is 9 words and a full stop
_WORD = re.compile(r"\bzq[a-z]{5}\b", re.IGNORECASE)


class Walk:
    """Every answer one annotator gets, each checked against their window size as it arrives.

    ``endpoints``: the routes the walk reached (of every walk: the test checks none of the annotator's is missed).
    """

    endpoints: set[str] = set()

    def __init__(self, client, size: int, who: str):
        self.client, self.size, self.who, self.checked = client, size, who, 0
        self.urls = client.application.url_map.bind("localhost")

    def keep(self, response):
        body = response.get_data(as_text=True)
        assert response.status_code < 500, (self.who, response.status_code, body[:500])
        words = {w.lower() for w in _WORD.findall(body)}
        assert len(words) <= max_tokens(self.size), (self.who, response.request.path, len(words))
        self.checked += 1
        Walk.endpoints.add(self.urls.match(response.request.path, method=response.request.method)[0])
        return response

    def get(self, path: str, **kw):
        return self.keep(self.client.get(path, **kw))

    def post(self, path: str, **kw):
        return self.keep(self.client.post(path, **kw))


def _csrf(walk: Walk, path: str) -> str:
    page = walk.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page).group(1)


# --- the second version is independent ----------------------------------------------------------------------
INDEPENDENT_TEXT = ("Harper met Jana Berg in Brno. Later Harper wrote to Jana Berg. Olga Krall saw Harper leave. "
                    "Nobody else came.")


def _second_rows(page: str) -> list[list[str]]:
    body = re.search(r'<table[^>]*id="second-spans".*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_second_version_sees_the_preannotation_never_the_first_annotators_decisions(clean_app):
    """a1 decides "Harper" private by word type (a rule), labels "Olga Krall" as a place and decides an entity:
    the second annotator's rows read what the pre-annotation said when a1 leased the window (undecided, PERSON),
    nothing of a1's rules, labels or decisions; an omitted decision is stored undecided, not the rules'; the
    agreement counts only spans both decided."""
    app = clean_app
    project = default_project(app)
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    doc = add_document(app, INDEPENDENT_TEXT, [("Harper", "P"), ("Jana Berg", "P"), ("Olga Krall", "P")])
    group_entities(app, doc)
    one = annotator_client(app, "a1@example.org", window_size=60)
    window = one.get("/annotate/api/window").get_json()
    spans = sorted((a["first_token"], a["end_token"]) for a in window["annotations"])
    assert len(spans) == 6 and all(a["decision"] == "SUSPICIOUS" for a in window["annotations"])
    harper, olga = spans[0], spans[4]
    assert one.post("/annotate/api/decide", json={"document_id": doc, "first_token": harper[0],
                                                  "end_token": harper[1], "decision": "PRIVATE",
                                                  "scope": "word_type"}).status_code == 200
    assert one.post("/annotate/api/label", json={"document_id": doc, "first_token": olga[0], "end_token": olga[1],
                                                 "label_name": "a street", "label_category": "LOCATION",
                                                 "always": True}).status_code == 200
    entity = one.post("/annotate/api/decide", json={"document_id": doc, "first_token": spans[1][0],
                                                  "end_token": spans[1][1], "decision": "PUBLIC",
                                                  "scope": "entity"})
    assert entity.status_code == 200, entity.get_data(as_text=True)
    assert one.post("/annotate/api/next").status_code == 200
    two = annotator_client(app, "a2@example.org", window_size=60)
    response = two.post("/workspace/second/claim", data={"csrf_token": _csrf(Walk(two, 60, "a2"), "/workspace/")})
    double = int(response.headers["Location"].rsplit("/", 1)[1])
    page = two.get(f"/workspace/second/{double}").get_data(as_text=True)
    rows = _second_rows(page)
    assert len(rows) == 6
    assert {r[3] for r in rows} == {"undecided"}, rows  # the rules said nothing when a1 began: every row alike
    assert {r[2] for r in rows} == {"person"}, rows  # the recognized category, never a1's label's
    assert "Harper" in {r[1] for r in rows}, rows  # each row's words, as the window text shows them
    assert "checked" not in page and "a street" not in page
    # a2 decides two spans only: the others are stored undecided (masked), never the rules' decision
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    chosen = {f"d-{harper[0]}-{harper[1]}": "PRIVATE", f"d-{spans[1][0]}-{spans[1][1]}": "PRIVATE"}
    refused = two.post(f"/workspace/second/{double}", data={"csrf_token": csrf, **chosen}, follow_redirects=True)
    assert "Decide every highlighted span" in refused.get_data(as_text=True)  # undecided pre-annotation: required
    everything = {f"d-{f}-{e}": "PRIVATE" for f, e in spans}
    assert two.post(f"/workspace/second/{double}", data={"csrf_token": csrf, **everything}).status_code == 302
    stored = {(r["first_token"], r["end_token"]): r for r in sql(
        app, "SELECT first_token, end_token, auto_decision::text AS auto, first_decision::text AS first, "
             "second_decision::text AS second FROM double_span WHERE double_window_id = %s", (double,))}
    assert all(r["auto"] is None for r in stored.values()), stored
    assert stored[harper]["first"] == "PRIVATE" and stored[spans[1]]["first"] == "PUBLIC"
    assert all(r["second"] == "PRIVATE" for r in stored.values())
    assert sql(app, "SELECT state FROM double_window WHERE id = %s", (double,))[0]["state"] == "disagreed"


def test_omitted_second_decision_is_undecided_and_agreement_counts_what_both_decided(clean_app):
    """A span the pre-annotation decided, left without a choice by the second annotator, is stored undecided and
    left out of the agreement (nobody agrees by default)."""
    from psan.runtime import db
    from psan.store.review import double_annotation as store_double
    app = clean_app
    project = default_project(app)
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    doc = add_document(app, INDEPENDENT_TEXT, [("Harper", "P"), ("Jana Berg", "P"), ("Olga Krall", "P")])
    add_rule(app, project, "Harper", confidence=-1)  # the pre-annotation rules every "Harper" private
    with app.app_context(), db.transaction() as conn:
        from psan.store.corpus.reannotate import reannotate_document_now
        reannotate_document_now(conn, doc)
    one = annotator_client(app, "b1@example.org", window_size=60)
    window = one.get("/annotate/api/window").get_json()
    spans = sorted((a["first_token"], a["end_token"]) for a in window["annotations"])
    decided = {(a["first_token"], a["end_token"]): a["decision"] for a in window["annotations"]}
    harpers = [s for s in spans if decided[s] == "PRIVATE"]
    others = [s for s in spans if decided[s] == "SUSPICIOUS"]
    assert len(harpers) == 3 and len(others) == 3
    for span, decision in [(harpers[0], "PUBLIC")] + [(s, "PRIVATE") for s in others]:
        assert one.post("/annotate/api/decide", json={"document_id": doc, "first_token": span[0], "end_token": span[1],
                                                      "decision": decision}).status_code == 200
    assert one.post("/annotate/api/next").status_code == 200
    two = annotator_client(app, "b2@example.org", window_size=60)
    response = two.post("/workspace/second/claim", data={"csrf_token": _csrf(Walk(two, 60, "b2"), "/workspace/")})
    double = int(response.headers["Location"].rsplit("/", 1)[1])
    page = two.get(f"/workspace/second/{double}").get_data(as_text=True)
    assert page.count("checked") == 3  # the choices start from the pre-annotation (Harper private), as b1 saw it
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    given = {f"d-{f}-{e}": "PRIVATE" for f, e in others}  # the three Harpers omitted
    assert two.post(f"/workspace/second/{double}", data={"csrf_token": csrf, **given}).status_code == 302
    second = {(r["first_token"], r["end_token"]): r["d"] for r in sql(
        app, "SELECT first_token, end_token, second_decision::text AS d FROM double_span WHERE double_window_id = %s",
        (double,))}
    assert [second[s] for s in harpers] == [None, None, None] and [second[s] for s in others] == ["PRIVATE"] * 3
    # b1 made the first Harper public, b2 left it undecided (masked): a disagreement, the stricter version wins
    assert sql(app, "SELECT state FROM double_window WHERE id = %s", (double,))[0]["state"] == "disagreed"
    with app.app_context(), db.transaction() as conn:
        compared, by_category = store_double.project_agreement(conn, project)
    assert compared == 1
    person = by_category["PERSON"]
    assert person.spans_first == 3 and person.spans_second == 3 and person.f1 == 1.0  # only what both decided
