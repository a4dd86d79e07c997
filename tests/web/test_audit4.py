"""Regression tests for audit round 4 (the second annotator's window, independent double annotation, the
window JSON), one or more per finding, named after what they prove.

They run against the real PostgreSQL and Redis of ``tests/conftest.py``.
"""
from __future__ import annotations

import re
import string

from psan.store.annotation.visibility import max_tokens
from tests.documents import add_document
from tests.helpers import default_project, sql
from tests.web.helpers import annotator_client

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
    """Every answer one annotator gets, each checked against their window size as it arrives."""

    def __init__(self, client, size: int, who: str):
        self.client, self.size, self.who, self.checked = client, size, who, 0

    def keep(self, response):
        body = response.get_data(as_text=True)
        assert response.status_code < 500, (self.who, response.status_code, body[:500])
        words = {w.lower() for w in _WORD.findall(body)}
        assert len(words) <= max_tokens(self.size), (self.who, response.request.path, len(words))
        self.checked += 1
        return response

    def get(self, path: str, **kw):
        return self.keep(self.client.get(path, **kw))

    def post(self, path: str, **kw):
        return self.keep(self.client.post(path, **kw))


def _csrf(walk: Walk, path: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', walk.get(path).get_data(as_text=True)).group(1)


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
    for path in ("/", "/workspace/", "/labels/", f"/labels/api/{project}", "/auth/password"):
        walk.get(path)
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
