"""The numbers annotators are shown for their actions say nothing of other people's work, and undo takes them."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.web.action_refs import BITS, from_ref, to_ref
from tests.documents import add_document, plain_sentences
from tests.helpers import join_project, new_project
from tests.web.helpers import annotator_client


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=(1 << BITS) - 1))
def test_a_shown_number_turns_back_into_its_action(app, action_id: int) -> None:
    with app.app_context():
        ref = to_ref(action_id)
        assert 0 <= ref < 1 << BITS and from_ref(ref) == action_id


def test_neighbouring_actions_get_unrelated_numbers(app) -> None:
    with app.app_context():
        refs = [to_ref(i) for i in range(1, 2001)]
    assert len(set(refs)) == len(refs)
    steps = {b - a for a, b in zip(refs, refs[1:], strict=False)}
    assert len(steps) > 1900  # no common difference that would count the actions in between


def test_a_number_out_of_range_stands_for_no_action(app) -> None:
    with app.app_context():
        assert from_ref(-1) is None and from_ref(1 << BITS) is None
        with pytest.raises(ValueError):
            to_ref(0)


def _decide_first(client, doc: int) -> int:
    window = client.get("/annotate/api/window").get_json()
    span = next(a for a in window["annotations"] if a["decision"] == "SUSPICIOUS")
    answer = client.post("/annotate/api/decide", json={"document_id": doc, "first_token": span["first_token"],
                                                       "end_token": span["end_token"], "decision": "PRIVATE"})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["action_id"]


def test_action_numbers_do_not_count_work_in_other_projects(clean_app) -> None:
    text = " ".join(f"Person{i} Harper{i} came. " + plain_sentences(i * 3, 2) for i in range(6))
    doc = add_document(clean_app, text, [(f"Person{i} Harper{i}", "P") for i in range(6)])
    secret = new_project(clean_app, "secret project")
    other = add_document(clean_app, text, [(f"Person{i} Harper{i}", "P") for i in range(6)], project_id=secret,
                         name="secret.txt")
    mine = annotator_client(clean_app, "a@example.org", window_size=30)
    theirs = annotator_client(clean_app, "b@example.org", window_size=30, member=False)
    join_project(clean_app, secret, "b@example.org")
    first = _decide_first(mine, doc)
    for _ in range(3):
        _decide_first(theirs, other)
        assert theirs.post("/annotate/api/undo", json={}).status_code == 200
    second = _decide_first(mine, doc)
    with clean_app.app_context():
        assert from_ref(second) - from_ref(first) == 7  # what the database counts, and the caller cannot
    assert abs(second - first) > 1000
    history = mine.get("/annotate/api/history").get_json()["actions"]
    assert [a["id"] for a in history] == [second, first]
    assert theirs.post("/annotate/api/undo", json={"action_id": second}).status_code == 404  # not theirs
    assert mine.post("/annotate/api/undo", json={"action_id": second}).status_code == 200
    assert mine.post("/annotate/api/undo", json={"action_id": 12345}).status_code == 404
