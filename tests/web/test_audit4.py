"""Regression tests for audit round 4 (the second annotator's window, independent double annotation, the
window JSON), one or more per finding, named after what they prove.

They run against the real PostgreSQL and Redis of ``tests/conftest.py``.
"""
from __future__ import annotations

import re
import string

from psan.store.annotation.visibility import max_tokens
from psan.web.access import Access, access_of
from tests.documents import add_document, group_entities
from tests.helpers import default_project, sql
from tests.web.helpers import add_rule, annotator_client

# --- the second annotator's window, and every annotator-facing route -------------------------------------------
#: every word of the walk's documents is unique ("Zq" + 5 letters), so a response's distinct words are the
#: document text it carries; a sentence is 9 words and a full stop
_WORD = re.compile(r"\bzq[a-z]{5}\b", re.IGNORECASE)


def _word(n: int) -> str:
    letters = []
    for _ in range(5):
        n, r = divmod(n, 26)
        letters.append(string.ascii_lowercase[r])
    return "Zq" + "".join(reversed(letters))


def _text(start: int, sentences: int) -> str:
    return " ".join(" ".join(_word(start + 9 * s + i) for i in range(9)) + "." for s in range(sentences))


def _scattered_document(app, project: int) -> int:
    """400 sentences with a person every 3rd sentence: windows of any size hold several spans."""
    text = _text(0, 400)
    spans = [(s * 10 + 2, s * 10 + 4, "P") for s in range(0, 400, 3)]
    return add_document(app, text, spans=spans, project_id=project, name="scattered.txt")


def _long_span_document(app, project: int) -> int:
    """One 420-token "sentence" that is one span (a table row without breaks): windows of it are elided."""
    text = _text(100_000, 3) + " " + " ".join(_word(200_000 + i) for i in range(420)) + ". " + _text(300_000, 3)
    return add_document(app, text, spans=[(30, 450, "P")], project_id=project, name="long.txt")


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


def _walk_annotate(walk: Walk, project: int, rounds: int, accept: bool = True) -> int:
    """The annotate page and every route of its API, window after window; the windows left with a decision."""
    left = 0
    walk.get("/annotate/")
    for _ in range(rounds):
        data = walk.get("/annotate/api/window").get_json()
        if data.get("window") is None:
            break
        window, doc = data["window"], data["window"]["document_id"]
        first, end = window["first_token"], window["end_token"]
        walk.get("/annotate/api/window", query_string={"document_id": doc, "first_token": first,
                                                       "end_token": end})
        for a in data["annotations"]:
            walk.get(f"/annotate/api/annotation/{a['id']}")
            walk.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": a["first_token"],
                                                           "end_token": a["end_token"]})
        spans = data["annotations"]
        for a, b in zip(spans, spans[1:2], strict=False):  # entity links: a merge, then a split
            walk.post("/annotate/api/entity/merge", json={
                "document_id": doc, "first_token": a["first_token"], "end_token": a["end_token"],
                "other_first_token": b["first_token"], "other_end_token": b["end_token"]})
            walk.post("/annotate/api/entity/split", json={"document_id": doc, "first_token": b["first_token"],
                                                          "end_token": b["end_token"]})
        pending = [a for a in data["annotations"] if a["decision"] == "SUSPICIOUS"]
        if pending:
            a = pending[0]
            for scope in ("word_type", "token"):  # a span too long for a word-type rule is refused (400)
                decided = walk.post("/annotate/api/decide", json={
                    "document_id": doc, "first_token": a["first_token"], "end_token": a["end_token"],
                    "decision": "PRIVATE", "scope": scope})
                if decided.status_code == 200:
                    walk.post("/annotate/api/undo", json={})
                    walk.post("/annotate/api/decide", json={
                        "document_id": doc, "first_token": a["first_token"], "end_token": a["end_token"],
                        "decision": "PRIVATE", "scope": scope})
                    break
            for b in pending[1:2]:
                walk.post("/annotate/api/label", json={"document_id": doc, "first_token": b["first_token"],
                                                       "end_token": b["end_token"], "label_name": "someone",
                                                       "label_category": "PERSON"})
            if accept:
                walk.post("/annotate/api/accept", json={"document_id": doc})
            else:  # every span decided one by one, so that the next window is a new one
                for b in pending[2:]:
                    walk.post("/annotate/api/decide", json={"document_id": doc, "first_token": b["first_token"],
                                                            "end_token": b["end_token"], "decision": "PUBLIC"})
            left += 1
        walk.get("/annotate/api/history")
        if walk.post("/annotate/api/next").status_code != 200:
            break
    walk.post("/annotate/api/read")  # text routed to reading: never more than the window either
    for path in ("/", "/workspace/", "/labels/", f"/labels/api/{project}", "/auth/password"):
        walk.get(path)
    walk.post(f"/labels/api/{project}", json={"name": f"seen by {walk.who}", "category": "PERSON"})
    walk.post(f"/labels/{project}/new", data={"csrf_token": _csrf(walk, "/labels/"), "name": f"made by {walk.who}",
                                              "category": "PERSON"})
    home = walk.get("/workspace/").get_data(as_text=True)
    actions = re.findall(r'name="action_id" value="(\d+)"', home)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', home).group(1)
    if actions:
        walk.post("/workspace/undo", data={"csrf_token": csrf, "action_id": actions[-1]})
    walk.post("/workspace/choose", data={"csrf_token": csrf, "project_id": str(project)})
    return left


def _walk_second(walk: Walk) -> list[int]:
    """Claim and save second versions until none is offered; the double windows this annotator saw."""
    seen = []
    for _ in range(10):
        response = walk.post("/workspace/second/claim", data={"csrf_token": _csrf(walk, "/workspace/")})
        location = response.headers.get("Location", "")
        if "/workspace/second/" not in location:
            break
        double = int(location.rsplit("/", 1)[1])
        seen.append(double)
        page = walk.get(f"/workspace/second/{double}").get_data(as_text=True)
        names = dict.fromkeys(re.findall(r'name="(d-\d+-\d+)"', page))
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        assert walk.post(f"/workspace/second/{double}",
                         data={"csrf_token": csrf, **dict.fromkeys(names, "PRIVATE")}).status_code == 302
    return seen


def test_no_annotator_route_carries_more_text_than_the_callers_window_size(clean_app):
    """Annotators of window sizes 50, 100 and 300 walk the annotate page, its API, the labels, the home page and
    the second annotation of windows a size-300 annotator left: no answer carries more distinct words of the
    documents than the caller's window allows (a 300-token window is never shown to a size-50 annotator)."""
    app = clean_app
    Walk.endpoints.clear()
    project = default_project(app)
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    _scattered_document(app, project)
    _long_span_document(app, project)
    first = Walk(annotator_client(app, "first300@example.org", window_size=300), 300, "first300")
    assert _walk_annotate(first, project, rounds=6, accept=False) >= 2
    doubles = sql(app, "SELECT id, end_token - first_token AS width FROM double_window ORDER BY id")
    assert any(d["width"] > max_tokens(100) for d in doubles), doubles  # wider than the small annotators may see
    claimed: dict[int, list[int]] = {}
    for size in (50, 100, 300):
        walk = Walk(annotator_client(app, f"second{size}@example.org", window_size=size), size, f"second{size}")
        claimed[size] = _walk_second(walk)
        # the last one accepts suggestions too (the project's statistics may then rule the rest)
        assert _walk_annotate(walk, project, rounds=3, accept=size == 300) >= 1, (size, claimed)
    width = {d["id"]: d["width"] for d in sql(app, "SELECT id, end_token - first_token AS width FROM double_window")}
    assert any(width[d] > max_tokens(100) for d in claimed[300]), (claimed, width)
    for size in (50, 100):  # a wider window reaches them only when it is one long span, elided
        assert all(width[d] <= max_tokens(size) or width[d] > max_tokens(300) for d in claimed[size]), claimed
    # every route an annotator may call was walked (a new one must join the walk)
    annotator_routes = {e for e in app.view_functions if access_of(e, app) is Access.USER}
    assert annotator_routes <= Walk.endpoints, annotator_routes - Walk.endpoints


def test_second_annotator_of_a_smaller_size_is_not_offered_a_wider_window(clean_app):
    """The audit's case: a size-300 annotator leaves a window of about 300 tokens; a size-100 annotator is not
    offered it (their home page counts nothing, the claim finds nothing), a size-300 annotator is."""
    app = clean_app
    project = default_project(app)
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    _scattered_document(app, project)
    first = Walk(annotator_client(app, "a2@example.org", window_size=300), 300, "a2")
    assert _walk_annotate(first, project, rounds=1, accept=False) == 1
    double = sql(app, "SELECT id, end_token - first_token AS width FROM double_window")
    assert len(double) == 1 and double[0]["width"] > max_tokens(100)
    small = Walk(annotator_client(app, "a5@example.org", window_size=100), 100, "a5")
    assert "second-waiting" not in small.get("/workspace/").get_data(as_text=True)
    assert _walk_second(small) == []
    big = Walk(annotator_client(app, "a6@example.org", window_size=300), 300, "a6")
    assert "second-waiting" in big.get("/workspace/").get_data(as_text=True)
    assert _walk_second(big) == [double[0]["id"]]


def test_second_page_elides_the_middle_of_a_long_span_as_the_annotate_page(clean_app):
    """A window that is one 420-token span reaches a size-50 second annotator with only its first and last 25
    tokens, and the elision is marked on the page."""
    app = clean_app
    project = default_project(app)
    sql(app, "UPDATE project SET double_share = 1 WHERE id = %s", (project,))
    doc = _long_span_document(app, project)
    first = Walk(annotator_client(app, "long300@example.org", window_size=300), 300, "long300")
    assert _walk_annotate(first, project, rounds=1, accept=False) == 1
    small = Walk(annotator_client(app, "long50@example.org", window_size=50), 50, "long50")
    response = small.post("/workspace/second/claim", data={"csrf_token": _csrf(small, "/workspace/")})
    double = int(response.headers["Location"].rsplit("/", 1)[1])
    page = small.get(f"/workspace/second/{double}").get_data(as_text=True)
    words = {w.lower() for w in _WORD.findall(page)}
    window = sql(app, "SELECT first_token, end_token FROM double_window WHERE id = %s", (double,))[0]
    assert len(words) == 50 and 'class="text-muted elided-middle"' in page
    middle = _word(200_000 + 210).lower()  # a word of the span's middle
    assert middle not in words and window["end_token"] - window["first_token"] >= 420
    assert sql(app, "SELECT count(*) AS n FROM double_span WHERE double_window_id = %s", (double,))[0]["n"] == 1
    assert doc


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


def test_rule_conditions_of_an_elided_span_do_not_carry_its_middle(clean_app):
    """A 120-token phrase occurs twice; deciding the first private makes a lookup rule whose condition is the whole
    phrase.  A size-50 annotator whose window is the second occurrence (elided) sees neither the middle's tokens nor
    the condition's text, in the window JSON or the span's detail."""
    app = clean_app
    project = default_project(app)
    phrase = " ".join(_word(400_000 + i) for i in range(120))
    text = _text(500_000, 2) + " " + phrase + ". " + _text(600_000, 30) + " " + phrase + ". " + _text(700_000, 2)
    doc = add_document(app, text, spans=[(20, 140, "P"), (141 + 300, 141 + 420, "P")], project_id=project)
    first = annotator_client(app, "phrase300@example.org", window_size=300)
    sql(app, "UPDATE annotation SET token_decision = 'PUBLIC' WHERE document_id = %s AND first_token > 200", (doc,))
    window = first.get("/annotate/api/window").get_json()
    assert window["window"]["first_token"] <= 20
    assert first.post("/annotate/api/decide", json={"document_id": doc, "first_token": 20, "end_token": 140,
                                                    "decision": "PRIVATE"}).status_code == 200
    assert first.post("/annotate/api/next").status_code == 200
    sql(app, "UPDATE annotation SET token_decision = NULL WHERE document_id = %s AND first_token = 441", (doc,))
    sql(app, "DELETE FROM annotation_window")  # the first annotator's next window leased the second occurrence
    sql(app, "UPDATE document SET status = 'PRE_ANNOTATED' WHERE id = %s", (doc,))
    rules = sql(app, "SELECT condition FROM rule WHERE type = 'WORD_TYPE'")
    assert any(len(r["condition"].split()) >= 120 for r in rules), rules
    small = Walk(annotator_client(app, "phrase50@example.org", window_size=50), 50, "phrase50")
    data = small.get("/annotate/api/window").get_json()
    assert data.get("window"), data
    assert data["elided"] and data["window"]["first_token"] == 441, data["window"]
    span = next(a for a in data["annotations"] if a["first_token"] == 441)
    assert span["rules"], span  # the lookup rule is there, its text is not
    small.get(f"/annotate/api/annotation/{span['id']}")


# --- the annotators' labels page -------------------------------------------------------------------------------
def _label_counts(html: str, name: str) -> tuple[int, int]:
    row = re.search(rf"<tr>\s*<td>{name}</td>.*?</tr>", html, re.S).group(0)
    cells = re.findall(r'<td class="text-end">(\d+)</td>', row)
    return int(cells[0]), int(cells[1])


def test_annotators_label_counts_are_of_their_window_not_the_project(clean_app):
    """A label used on five spans, one of them in the annotator's window: the annotator's labels page counts one
    annotation (and the one rule applying there), the admin's counts the project's five."""
    from tests.web.helpers import add_label
    app = clean_app
    project = default_project(app)
    text = "Harper came. " + _text(0, 40) + " Harper left. " + _text(1000, 40) + " Harper, Harper and Harper."
    doc = add_document(app, text, [("Harper", "P")], project_id=project)
    label = add_label(app, project, "the witness", "PERSON")
    add_rule(app, project, "Harper", confidence=0, label_id=label)
    sql(app, "UPDATE annotation SET token_label_id = %s WHERE document_id = %s", (label, doc))
    client = annotator_client(app, "labels@example.org", window_size=50)
    window = client.get("/annotate/api/window").get_json()["window"]
    inside = sql(app, "SELECT count(*) AS n FROM annotation WHERE document_id = %s AND first_token >= %s "
                      "AND end_token <= %s", (doc, window["first_token"], window["end_token"]))[0]["n"]
    assert 1 <= inside < 5
    with app.app_context():
        from psan.runtime import db
        from psan.store.corpus.reannotate import reannotate_document_now
        with db.transaction() as conn:
            reannotate_document_now(conn, doc)
    rules, annotations = _label_counts(client.get(f"/labels/?project={project}").get_data(as_text=True),
                                       "the witness")
    assert (rules, annotations) == (1, inside)
    admin = annotator_client(app, "labels-admin@example.org", "ADMIN", member=False)
    assert _label_counts(admin.get(f"/labels/?project={project}").get_data(as_text=True), "the witness")[1] == 5


# --- the window JSON --------------------------------------------------------------------------------------------
def _keys(value, out: set) -> set:
    if isinstance(value, dict):
        out.update(value)
        for v in value.values():
            _keys(v, out)
    elif isinstance(value, list):
        for v in value:
            _keys(v, out)
    return out


def test_window_json_has_no_document_wide_count_and_no_row_ids(clean_app):
    """The window JSON (and a decision's, and a span's detail) carries neither the document's token count nor the
    annotations' row ids: a span is known by its token range, which the window shows anyway."""
    app = clean_app
    doc = add_document(app, "Harper came. " + _text(0, 40) + " Harper left.", [("Harper", "P")])
    client = annotator_client(app, "json@example.org", window_size=50)
    data = client.get("/annotate/api/window").get_json()
    span = data["annotations"][0]
    decided = client.post("/annotate/api/decide", json={"document_id": doc, "first_token": span["first_token"],
                                                        "end_token": span["end_token"], "decision": "PRIVATE"})
    detail = client.get(f"/annotate/api/annotation/{span['id']}")
    assert decided.status_code == 200 and detail.status_code == 200
    row_ids = {r["id"] for r in sql(app, "SELECT id FROM annotation")}
    for answer in (data, decided.get_json(), detail.get_json()):
        assert "token_count" not in _keys(answer, set())
        for a in answer.get("annotations", [answer] if "rules" in answer else []):
            assert a["id"] == f"{a['first_token']}-{a['end_token']}" and a["id"] not in row_ids
    assert decided.get_json()["annotation_id"] == span["id"]
