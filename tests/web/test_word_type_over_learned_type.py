"""A person's word-type rule takes precedence over a learned entity type on exactly those words.

Before: an annotator decided "Overleaf" public by word type (rule +1), the project had learned its
entity type private (the NE_TYPE rule at −1 after ten private decisions), the votes summed to 0 and
every later "Overleaf" was suspicious again, asked at every occurrence.  Through the real annotation
API on PostgreSQL.
"""
from __future__ import annotations

from tests.documents import add_document, annotation, token_index
from tests.helpers import default_project, sql
from tests.web.helpers import annotator_client, api_decide, api_window

COMPANIES = [f"Firma{i}" for i in range(10)]


def _learn_org_private(app, doc: int, annotator) -> None:
    sql(app, "UPDATE project SET sensitive_types = '{}' WHERE id = %s", (default_project(app),))  # none listed
    for word in COMPANIES:
        i = token_index(app, doc, word)
        assert api_decide(annotator, doc, i, i + 1, "PRIVATE")[0] == 200
    assert sql(app, "SELECT confidence, author_id FROM rule WHERE type = 'NE_TYPE' AND condition = 'if'") == [
        {"confidence": -1.0, "author_id": None}]  # learned: nobody authored it


def _overleaf_learned_private(app, monkeypatch) -> tuple[int, object, list[tuple[int, int]]]:
    """Ten companies decided private (the type learned private) and three "Overleaf": (doc, annotator, spans)."""
    monkeypatch.setitem(app.config, "LEARN_ENTITY_TYPES", True)  # the psan workflow (another test may unset it)
    text = " ".join(f"{c} sells things." for c in COMPANIES) + " We wrote it in Overleaf. " * 3
    doc = add_document(app, text, [(c, "if") for c in COMPANIES] + [("Overleaf", "if")])
    annotator = annotator_client(app, "annotator@example.org", window_size=1000)
    assert api_window(annotator)[0] == 200
    _learn_org_private(app, doc, annotator)
    spans = [(i, i + 1) for i in (token_index(app, doc, "Overleaf", k) for k in range(3))]
    return doc, annotator, spans


def _decision(app, doc: int, first: int, end: int) -> str:
    row = annotation(app, doc, first, end)
    thresholds = sql(app, "SELECT private_threshold, public_threshold FROM project WHERE id = %s",
                     (default_project(app),))[0]
    if row["token_decision"]:
        return row["token_decision"]
    if row["rule_level"] >= thresholds["public_threshold"]:
        return "PUBLIC"
    return "PRIVATE" if row["rule_level"] <= thresholds["private_threshold"] else "SUSPICIOUS"


def test_a_persons_public_word_type_rule_beats_a_learned_private_type(clean_app, monkeypatch):
    app = clean_app
    doc, annotator, spans = _overleaf_learned_private(app, monkeypatch)
    assert all(_decision(app, doc, *s) == "PRIVATE" for s in spans)  # the learned type masks them
    assert api_decide(annotator, doc, *spans[0], "PUBLIC", scope="word_type")[0] == 200
    # the person's decision on exactly these words wins over the learned type: not asked again
    assert [_decision(app, doc, *s) for s in spans] == ["PUBLIC"] * 3
    # a company nobody decided by its words stays private by the learned type
    other = token_index(app, doc, COMPANIES[0])
    assert annotation(app, doc, other, other + 1)["token_decision"] == "PRIVATE"


def test_a_sensitive_learned_type_still_asks_again(clean_app, monkeypatch):
    """Dates are never made public by anything automatic: a word-type rule does not release more of them."""
    app = clean_app
    monkeypatch.setitem(app.config, "LEARN_ENTITY_TYPES", True)  # the psan workflow (another test may unset it)
    dates = [f"Datum{i}" for i in range(10)]
    text = " ".join(f"It was {d} then." for d in dates) + " It was Mondayish again. " * 3
    doc = add_document(app, text, [(d, "td") for d in dates] + [("Mondayish", "td")])
    annotator = annotator_client(app, "annotator@example.org", window_size=1000)
    sql(app, "UPDATE project SET sensitive_types = '{}' WHERE id = %s", (default_project(app),))  # dates are built in
    assert api_window(annotator)[0] == 200
    for word in dates:
        i = token_index(app, doc, word)
        assert api_decide(annotator, doc, i, i + 1, "PRIVATE")[0] == 200
    assert sql(app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'td'") == [
        {"confidence": -1.0}]
    spans = [(i, i + 1) for i in (token_index(app, doc, "Mondayish", k) for k in range(3))]
    assert api_decide(annotator, doc, *spans[0], "PUBLIC", scope="word_type")[0] == 200
    assert [_decision(app, doc, *s) for s in spans] == ["PUBLIC", "SUSPICIOUS", "SUSPICIOUS"]


def test_the_admins_sensitive_list_takes_the_precedence_back(clean_app, monkeypatch):
    """Marking the type sensitive later re-levels its spans in the project run: asked again, as before."""
    from psan.runtime import db
    from psan.store.admin.projects import note_blocking_changes
    from psan.store.corpus.rule_changes import reannotate_changed
    app = clean_app
    doc, annotator, spans = _overleaf_learned_private(app, monkeypatch)
    assert api_decide(annotator, doc, *spans[0], "PUBLIC", scope="word_type")[0] == 200
    assert _decision(app, doc, *spans[1]) == "PUBLIC"
    project = default_project(app)
    sql(app, "UPDATE project SET sensitive_types = '{ORGANIZATION}' WHERE id = %s", (project,))
    with app.app_context(), db.transaction() as conn:
        assert note_blocking_changes(conn, project, frozenset(), frozenset({"ORGANIZATION"})) == 1
        assert note_blocking_changes(conn, project, frozenset({"x"}), frozenset({"x"})) == 0
    with app.app_context():
        assert doc in reannotate_changed(db.transaction, project).documents
    assert [_decision(app, doc, *s) for s in spans] == ["PUBLIC", "SUSPICIOUS", "SUSPICIOUS"]
