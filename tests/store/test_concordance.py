"""The concordance on the real database: lemma candidates verified by the lemmatizer, regex guards."""
from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psan.runtime import db
from psan.store.review import concordance
from tests.documents import add_document
from tests.helpers import new_project


def _search(app, project: int, language: str, mode: str, text: str, match_case: bool = False) -> list[str]:
    with app.test_request_context(), db.transaction() as conn:
        result = concordance.search(conn, project, language, concordance.Query(mode, text, match_case))
    return [o["match"] for o in result["occurrences"]]


def test_lemma_search_finds_the_inflected_forms_only(clean_app):
    app = clean_app
    project = new_project(app, "cs")
    add_document(app, "Novák přišel. Viděli jsme Nováka i Novákovi. Novotný a Nováková ne. Novákem.",
                 [("Novák", "P")], project_id=project, language="cs")
    assert _search(app, project, "cs", "lemma", "Nováka") == ["Novák", "Nováka", "Novákovi", "Novákem"]
    assert _search(app, project, "cs", "word", "novák") == ["Novák"]
    assert _search(app, project, "cs", "word", "novák", match_case=True) == []
    # English has no lemmatizer: a lemma search is a word search
    assert _search(app, project, "en", "lemma", "Nováka") == ["Nováka"]


def test_matches_map_to_the_tokens_they_overlap(clean_app):
    app = clean_app
    project = new_project(app, "p")
    doc = add_document(app, "Mail jan.novak@example.org today, Jan.", project_id=project)
    with app.test_request_context(), db.transaction() as conn:
        result = concordance.search(conn, project, "en", concordance.Query("regex", r"novak@ex", False))
        occurrence, = result["occurrences"]
        tokens = db.query("SELECT idx, start_char, end_char FROM token WHERE document_id = %s ORDER BY idx",
                          (doc,), conn)
    text = "Mail jan.novak@example.org today, Jan."
    covered = text[tokens[occurrence["first_token"]]["start_char"]:tokens[occurrence["end_token"] - 1]["end_char"]]
    assert "novak@ex" in covered and occurrence["left"].endswith("Mail jan.")


@pytest.mark.parametrize(("pattern", "message"), [("(", "Invalid"), ("x?", "empty"), ("", "Enter")])
def test_bad_patterns_are_clear_errors_and_leave_the_transaction_usable(clean_app, pattern, message):
    app = clean_app
    project = new_project(app, "p")
    add_document(app, "Some text here.", project_id=project)
    with app.test_request_context(), db.transaction() as conn:
        with pytest.raises(concordance.SearchError, match=message):
            concordance.search(conn, project, "en", concordance.Query("regex", pattern))
        assert db.query_one("SELECT 1 AS one", None, conn)["one"] == 1


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["Novák", "novák", "Nováková", "met", "a", "Brno", ".", ",", "Novák-Brno"]),
                min_size=1, max_size=30))
def test_word_search_finds_exactly_the_whole_word_occurrences(clean_app, words):
    """Every case-insensitive whole-word occurrence of 'novák' is found, at the right characters and tokens."""
    import re as python_re
    app = clean_app
    text = " ".join(words)
    project = new_project(app, f"p-{uuid.uuid4().hex}")
    doc = add_document(app, text, project_id=project, language="cs")
    with app.test_request_context(), db.transaction() as conn:
        found = concordance.search(conn, project, "cs", concordance.Query("word", "NOVÁK"))["occurrences"]
        tokens = db.query("SELECT idx, start_char, end_char FROM token WHERE document_id = %s ORDER BY idx",
                          (doc,), conn)
    expected = [m.start() for m in python_re.finditer(r"(?<!\w)novák(?!\w)", text, python_re.IGNORECASE)]
    assert [o["left"][-1:] + o["match"] for o in found] == [text[max(0, s - 1):s] + text[s:s + 5] for s in expected]
    for o, start in zip(found, expected, strict=True):
        first, last = tokens[o["first_token"]], tokens[o["end_token"] - 1]
        assert first["start_char"] <= start < first["end_char"] and last["start_char"] < start + 5 <= last["end_char"]


@pytest.mark.parametrize("mark", ["", "\x01", "\x02"])
def test_a_text_holding_a_mark_character_gives_the_same_matches(clean_app, mark):
    """The one-pass search marks matches with control characters; a text that holds one takes the two-pass way."""
    app = clean_app
    project = new_project(app, f"p-{uuid.uuid4().hex}")
    text = f"Hamburg and{mark} Augsburg, then Freiburg{mark}er and burg."
    add_document(app, text, project_id=project)
    assert _search(app, project, "en", "regex", "[A-Z][a-z]+burg", match_case=True) == [
        "Hamburg", "Augsburg", "Freiburg"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 4)), min_size=1, max_size=12),
       st.integers(0, 60), st.integers(1, 8))
def test_token_ranges_are_the_tokens_a_range_overlaps(layout, start, length):
    """Binary search gives exactly the tokens overlapping a range (``None`` when it lies between or outside them)."""
    import numpy as np
    starts, ends, pos = [], [], 0
    for gap, size in layout:
        starts.append(pos + gap)
        ends.append(pos + gap + size)
        pos += gap + size
    end = start + length
    overlapping = [i for i, (s, e) in enumerate(zip(starts, ends, strict=True)) if s < end and e > start]
    got, = concordance.token_ranges(np.array(starts, dtype=np.int32), np.array(ends, dtype=np.int32), [(start, end)])
    assert got == ((overlapping[0], overlapping[-1] + 1) if overlapping else None)
