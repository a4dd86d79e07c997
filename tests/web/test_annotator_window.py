"""An annotator sees no more of a document than their window: no route, JSON answer, entity key, label count
or second version carries text beyond the window size, and a long span is shown with its middle elided.

Why: the window is the confidentiality boundary between annotators and the rest of a document.  Real
PostgreSQL and Redis (``tests/conftest.py``).
"""
from __future__ import annotations

import hashlib
import json
import re
import string

from psan.store.annotation.visibility import max_tokens
from psan.store.annotation.windows import WINDOW_TOLERANCE
from psan.tool.entities.grouping import entity_id
from psan.tool.text.document import Category
from psan.web.access import Access, access_of
from tests.documents import add_document, group_entities, plain_sentences, token_index
from tests.helpers import (
    default_project,
    meta_csrf,
    sql,
)
from tests.web.helpers import add_label, add_rule, annotator_client

# --- entity keys must not reveal names outside the window ---------------------------------------------------
#: first names an attacker would try ("<candidate> harper"); "jonathan" is the one outside the window
CANDIDATES = ("james", "john", "robert", "michael", "william", "david", "richard", "joseph", "thomas", "charles",
              "christopher", "daniel", "matthew", "anthony", "mark", "donald", "steven", "paul", "andrew", "jonathan",
              "joshua", "kenneth", "kevin", "brian", "george", "timothy", "ronald", "edward", "jason", "jeffrey",
              "mary", "anna", "emma", "olivia")


#: hex runs an attacker could compare with digests (10+ digits, not only decimal: microseconds of timestamps
#: are six decimal digits and would match some digest by chance)
_HEX = re.compile(r"(?=[0-9a-f]*[a-f])[0-9a-f]{10,}")


def _digests(text: str) -> list[str]:
    """Every unkeyed digest an attacker would try of a candidate name (hex)."""
    out = []
    for variant in (text, f"PERSON\x1f{text}", f"person\x1f{text}", f"PER\x1f{text}", f"P\x1f{text}"):
        data = variant.encode()
        out += [hashlib.new(name, data).hexdigest() for name in ("sha256", "sha1", "md5", "blake2b", "sha512")]
    return out


def _walk_annotator_api(client, doc: int) -> list[str]:
    """Every answer of every annotator endpoint for the window's spans (GET and POST), as text."""
    answers = []

    def keep(response):
        assert response.status_code < 500, response.get_data(as_text=True)
        answers.append(response.get_data(as_text=True))
        return response

    data = keep(client.get("/annotate/api/window")).get_json()
    window = data["window"]
    first, end = window["first_token"], window["end_token"]
    keep(client.get("/annotate/api/window", query_string={"document_id": doc, "first_token": first,
                                                          "end_token": min(end, first + 20)}))
    spans = [(a["first_token"], a["end_token"], a["id"]) for a in data["annotations"]]
    for f, e, annotation_id in spans:
        keep(client.get(f"/annotate/api/annotation/{annotation_id}"))
        keep(client.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": f, "end_token": e}))
    for i in range(first, end):
        keep(client.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": i,
                                                              "end_token": i + 1}))
    for f, e, _ in spans:
        keep(client.post("/annotate/api/entity/split", json={"document_id": doc, "first_token": f, "end_token": e}))
    for (f, e, _), (g, h, _) in zip(spans, spans[1:], strict=False):
        keep(client.post("/annotate/api/entity/merge", json={"document_id": doc, "first_token": f, "end_token": e,
                                                             "other_first_token": g, "other_end_token": h}))
    for _f, _e, annotation_id in spans:
        keep(client.get(f"/annotate/api/annotation/{annotation_id}"))
    for scope in ("token", "word_type", "ne_type", "entity"):
        f, e, _ = spans[0]
        keep(client.post("/annotate/api/decide", json={"document_id": doc, "first_token": f, "end_token": e,
                                                       "decision": "PRIVATE", "scope": scope, "ne_type": "P"}))
    f, e, _ = spans[-1]
    keep(client.post("/annotate/api/label", json={"document_id": doc, "first_token": f, "end_token": e,
                                                  "label_name": "someone", "label_category": "PERSON"}))
    keep(client.post("/annotate/api/accept", json={"document_id": doc}))
    history = keep(client.get("/annotate/api/history")).get_json()["actions"]
    assert any(a["kind"] == "entity" for a in history)
    for action in history:  # the entity decision reached mentions outside the window: no counts of them
        assert action["kind"] != "entity" or (action["spans"] is None and action["rules"] is None), action
    keep(client.post("/annotate/api/undo", json={}))
    keep(client.get("/annotate/api/history"))
    for f, e, annotation_id in spans:
        keep(client.get(f"/annotate/api/annotation/{annotation_id}"))
        keep(client.get("/annotate/api/entity", query_string={"document_id": doc, "first_token": f, "end_token": e}))
    keep(client.post("/annotate/api/next"))
    return answers


def test_entity_keys_reveal_no_name_outside_the_window(clean_app):
    app = clean_app
    text = (plain_sentences(0, 20) + " Jonathan Harper sued the company. Mr. Harper lost. "
            + plain_sentences(20, 60) + " Later Harper said that Harper had not signed it. Anna Berg agreed. "
            + plain_sentences(80, 20) + " Harper and Jonathan Harper left.")
    doc = add_document(app, text, [("Jonathan Harper", "P"), ("Harper", "P"), ("Anna Berg", "P")])
    group_entities(app, doc)
    outside = [token_index(app, doc, "Jonathan", 0), token_index(app, doc, "Jonathan", 1)]
    # the first part is decided already: the annotator's window is the middle one, with "Harper" alone
    middle = token_index(app, doc, "Later")
    sql(app, "UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = %s AND "
             "(end_token <= %s OR first_token >= %s)", (doc, middle - 10, middle + 40))
    client = annotator_client(app, "a3-01@example.org", window_size=30)
    window = client.get("/annotate/api/window").get_json()["window"]
    assert window["first_token"] <= middle < window["end_token"]
    assert not any(window["first_token"] <= i < window["end_token"] for i in outside), window
    stored = {r["key"] for r in sql(app, "SELECT key FROM entity")}
    assert entity_id(Category.PERSON, "jonathan harper") in stored  # the digest a guesser could match by trying names

    answers = _walk_annotator_api(client, doc)
    blob = "\n".join(answers)
    assert "Jonathan" not in blob and "jonathan" not in blob
    for key in stored | {r["key"] for r in sql(app, "SELECT key FROM entity")}:
        assert key not in blob and key.split("-")[-1] not in blob
    shown_hex = set(_HEX.findall(blob.lower()))
    assert shown_hex, "the walk saw entity references"
    for candidate in CANDIDATES:
        for name in (f"{candidate} harper", f"{candidate} berg"):
            for digest in _digests(name) + [entity_id(Category.PERSON, name).split("-")[-1]]:
                assert not any(h in digest for h in shown_hex), (name, digest)
    # no document-wide count: every count is of mentions inside the window
    inside = sql(app, "SELECT count(*) AS n FROM entity_mention WHERE document_id = %s AND first_token >= %s "
                      "AND end_token <= %s", (doc, window["first_token"], window["end_token"]))[0]["n"]
    entities = []
    for answer in answers:
        _collect_entities(json.loads(answer), entities)
    assert entities
    for entity in entities:
        assert "documents" not in entity and "id" not in entity and "manual" not in entity, entity
        assert 0 <= entity["mentions"] <= inside, entity


def _collect_entities(value, out: list) -> None:
    if isinstance(value, dict):
        if isinstance(value.get("entity"), dict):
            out.append(value["entity"])
        for v in value.values():
            _collect_entities(v, out)
    elif isinstance(value, list):
        for v in value:
            _collect_entities(v, out)


# --- a window never shows more than the annotator's size ----------------------------------------------------
def test_overlong_span_is_shown_cut_with_its_middle_elided(clean_app):
    app = clean_app
    long_span = " ".join(f"part{i}" for i in range(815))  # one 815-token span (a long URL)
    doc = add_document(app, plain_sentences(0, 3) + " See " + long_span + " now. " + plain_sentences(3, 3),
                       [(long_span, "URL")])
    client = annotator_client(app, "a3-05@example.org", window_size=100)
    data = client.get("/annotate/api/window").get_json()
    window = data["window"]
    assert window["end_token"] - window["first_token"] >= 815  # the span is the window ...
    assert len(data["tokens"]) <= 100  # ... but no more than the size is shown
    lo, hi = data["elided"]
    assert hi - lo >= 700
    body = json.dumps(data)
    assert "part0" in body and "part814" in body and "part400" not in body
    # a part of the middle is refused; a range across it shows only what is shown anyway
    middle = client.get("/annotate/api/window", query_string={"document_id": doc, "first_token": lo + 10,
                                                              "end_token": lo + 30})
    assert middle.status_code == 403
    across = client.get("/annotate/api/window", query_string={"document_id": doc, "first_token": lo - 5,
                                                              "end_token": hi + 5})
    assert across.status_code == 200 and [t["i"] for t in across.get_json()["tokens"]] == \
        [*range(lo - 5, lo), *range(hi, hi + 5)]
    # the long span is decided from what is shown; a span wholly inside the middle is refused
    span = next(a for a in data["annotations"] if a["end_token"] - a["first_token"] == 815)
    assert client.get(f"/annotate/api/annotation/{span['id']}").status_code == 200
    refused = client.post("/annotate/api/decide", json={"document_id": doc, "first_token": lo + 5,
                                                        "end_token": lo + 6, "decision": "PUBLIC"})
    assert refused.status_code == 403
    decided = client.post("/annotate/api/decide", json={"document_id": doc, "first_token": span["first_token"],
                                                        "end_token": span["end_token"], "decision": "PRIVATE"})
    assert decided.status_code == 200, decided.get_json()
    assert "part400" not in decided.get_data(as_text=True)
    # an admin opening the document sees it whole
    from tests.helpers import logged_in_client
    admin = logged_in_client(app, "a3-05-admin@example.org", "ADMIN")
    admin.environ_base["HTTP_X_CSRFTOKEN"] = meta_csrf(admin)
    opened = admin.post("/annotate/api/open", json={"document_id": doc, "start": span["first_token"], "size": 2000})
    assert opened.status_code == 200 and "part400" in opened.get_data(as_text=True)


# --- the second annotator's window, and every annotator-facing route ----------------------------------------
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
    """A size-300 annotator leaves a window of about 300 tokens; a size-100 annotator is not
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


# --- the annotators' labels page ----------------------------------------------------------------------------
def _label_counts(html: str, name: str) -> tuple[int, int]:
    row = re.search(rf"<tr>\s*<td>{name}</td>.*?</tr>", html, re.S).group(0)
    cells = re.findall(r'<td class="text-end">(\d+)</td>', row)
    return int(cells[0]), int(cells[1])


def test_annotators_label_counts_are_of_their_window_not_the_project(clean_app):
    """A label used on five spans, one of them in the annotator's window: the annotator's labels page counts one
    annotation (and the one rule applying there), the admin's counts the project's five."""
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


# --- the window JSON ----------------------------------------------------------------------------------------
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


# --- the window-size limit ----------------------------------------------------------------------------------
SIZE = 300


def _annotator(app, email: str = "annotator@example.org", size: int = SIZE, role: str = "USER"):
    return annotator_client(app, email, role, window_size=size)


def _line_tokens(app, doc: int) -> dict[int, int]:
    """Token index → length in tokens of the line it belongs to."""
    text = sql(app, "SELECT text FROM document WHERE id = %s", (doc,))[0]["text"]
    rows = sql(app, "SELECT idx, start_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))
    line_of = [text.count("\n", 0, r["start_char"]) for r in rows]
    lengths: dict[int, int] = {}
    for line in line_of:
        lengths[line] = lengths.get(line, 0) + 1
    return {i: lengths[line] for i, line in enumerate(line_of)}


def _assert_windows_bounded(app, doc: int, client, size: int = SIZE, rounds: int = 6) -> int:
    """Walk through several windows (deciding a span in each) and check every window's size."""
    line_len = _line_tokens(app, doc)
    seen = 0
    for _ in range(rounds):
        response = client.get("/annotate/api/window")
        assert response.status_code == 200, response.get_data(as_text=True)
        data = response.get_json()
        window = data["window"]
        if window is None:
            break
        width = window["end_token"] - window["first_token"]
        allowed = size + max(WINDOW_TOLERANCE, line_len[window["first_token"]])
        assert 0 < width <= allowed, (window, size)
        assert len(data["tokens"]) == width
        suspicious = [a for a in data["annotations"] if a["decision"] == "SUSPICIOUS"]
        seen += 1
        if not suspicious:
            break
        span = suspicious[0]
        answer = client.post("/annotate/api/decide", json={
            "document_id": doc, "first_token": span["first_token"], "end_token": span["end_token"],
            "decision": "PUBLIC", "scope": "token"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert client.post("/annotate/api/next").status_code == 200
    return seen


def test_window_never_exceeds_size_list(clean_app):
    lines = [f"jan.novak{i}@example.org , Praha {i} , tel {i}" for i in range(3000)]
    lines[1500] = "Petr Svoboda , Brno 1500 , tel 1500"
    lines[2999] = "Petr Svoboda , Ostrava , tel 2999"
    doc = add_document(clean_app, "\n".join(lines), [("Petr Svoboda", "P")])
    tokens = sql(clean_app, "SELECT token_count FROM document WHERE id = %s", (doc,))[0]["token_count"]
    assert tokens > 30_000
    assert _assert_windows_bounded(clean_app, doc, _annotator(clean_app)) >= 2


def test_list_lines_are_sentences():
    from psan.tool.text.tokens import tokenize
    text = "\n".join(f"Jan Novák {i}, Praha" for i in range(50)) + "\n- item one\n- item two"
    _, sentences = tokenize(text, "cs")
    assert len(sentences) == 52
    _, prose = tokenize("The court decided that\nthe defendant,\nwho was absent, pays.", "en")
    assert len(prose) == 1


def test_window_never_exceeds_size_transcript(clean_app):
    words = [f"slovo{i % 97}" for i in range(4200)]
    for at in (5, 2100, 4190):
        words[at:at + 2] = ["Jan", "Novák"]
    doc = add_document(clean_app, " ".join(words), [("Jan Novák", "P")], language="cs")
    assert sql(clean_app, "SELECT count(*) AS n FROM sentence WHERE document_id = %s", (doc,))[0]["n"] == 1
    assert _assert_windows_bounded(clean_app, doc, _annotator(clean_app)) >= 3


def test_window_never_exceeds_size_one_sentence(clean_app):
    words = [f"w{i}" for i in range(10_000)]
    words[7000:7002] = ["Jan", "Novák"]
    words[9998:10_000] = ["Jan", "Novák"]
    doc = add_document(clean_app, " ".join(words) + ".", [("Jan Novák", "P")])
    client = _annotator(clean_app, size=120)
    assert _assert_windows_bounded(clean_app, doc, client, size=120) >= 2
    # an admin opening the document anywhere gets the same limit
    admin = _annotator(clean_app, "admin@example.org", size=200, role="ADMIN")
    for start in (0, 5000, 9990):
        response = admin.post("/annotate/api/open", json={"document_id": doc, "start": start})
        assert response.status_code == 200, response.get_data(as_text=True)
        window = response.get_json()["window"]
        assert window["first_token"] <= start < window["end_token"]
        assert window["end_token"] - window["first_token"] <= 200
