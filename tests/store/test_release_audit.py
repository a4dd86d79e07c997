"""The release audit's read-only provenance queries (psan.store.publish.release_audit) on the real database.

Decisions are made through the store as the annotation views make them; the audit must then name who
settled each span and which rules voted, as the end-to-end release measurement reads them.
"""
from __future__ import annotations

from psan.runtime import db
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.apply_rule import apply_new_rules
from psan.store.publish import release_audit
from tests.documents import add_document, token_index
from tests.helpers import make_account, new_project, sql

TEXT = "Jan Novák met Anna Berg in Brno. Brno is far."


def _decide(app, project: int, doc: int, me: int, first: int, end: int, decision: str, scope: str) -> None:
    words = sql(app, "SELECT start_char, end_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))
    tokens = [TEXT[w["start_char"]:w["end_char"]] for w in words][first:end]
    with app.app_context(), db.transaction() as conn:
        span = store_decisions.Span(project, doc, first, end)
        out = store_decisions.decide(conn, span, store_decisions.Scope(scope), decision, me, tokens)
        apply_new_rules(conn, doc, out.changed_rule_ids + out.removed_rule_ids,
                        affected_annotation_ids=out.affected_annotation_ids)


def _rule_id(app, project: int, kind: str, condition: str, lookup: bool = False) -> int:
    return sql(app, "SELECT id FROM rule WHERE project_id = %s AND type = %s::rule_type AND condition = %s "
                    "AND (annotation_id IS NOT NULL) = %s", (project, kind, condition, lookup))[0]["id"]


def test_provenance_names_the_decision_and_the_rules_of_each_span(clean_app):
    app = clean_app
    me = make_account(app, "audit@example.org").id
    project = new_project(app, "audit")
    doc = add_document(app, TEXT, [("Jan Novák", "PERSON"), ("Anna Berg", "PERSON"), ("Brno", "GPE")],
                       project_id=project)
    person, gpe = _rule_id(app, project, "NE_TYPE", "PERSON"), _rule_id(app, project, "NE_TYPE", "GPE")
    with app.app_context(), db.transaction() as conn:
        assert release_audit.private_ne_type_rule_ids(conn, project) == set()  # both vote 0 (suspicious)
        assert release_audit.rule_first_actions(conn, project) == {}
    jan, brno = token_index(app, doc, "Jan"), token_index(app, doc, "Brno")
    _decide(app, project, doc, me, jan, jan + 2, "PRIVATE", "token")
    _decide(app, project, doc, me, brno, brno + 1, "PRIVATE", "ne_type")
    lookup = _rule_id(app, project, "WORD_TYPE", "Jan Novák", lookup=True)
    with app.app_context(), db.transaction() as conn:
        # a later log row naming the same rule does not change the action that created it
        store_decisions.log_decision(conn, store_decisions.Span(project, doc, jan, jan + 2), me, "entity",
                                     "PRIVATE", rule_id=lookup)
    with app.app_context(), db.transaction() as conn:
        assert release_audit.private_ne_type_rule_ids(conn, project) == {gpe}
        assert release_audit.rule_first_actions(conn, project) == {lookup: "token", gpe: "ne_type"}
        spans = {(r["first_token"], r["end_token"]): r for r in release_audit.span_provenance(conn, doc)}
        overlapping = release_audit.annotations_overlapping(conn, doc, jan + 1, brno + 1)
    anna = token_index(app, doc, "Anna")
    assert set(spans) == {(jan, jan + 2), (anna, anna + 2), (brno, brno + 1), (brno + 2, brno + 3)}
    jan_row = spans[(jan, jan + 2)]
    # the last logged action on exactly the span; the span's own lookup rule is no project rule
    assert (jan_row["decision"], jan_row["action"], jan_row["ne_type"]) == ("PRIVATE", "entity", "PERSON")
    assert jan_row["rules"] == [[person, "NE_TYPE", 0, False]]
    brno_row = spans[(brno, brno + 1)]
    assert (brno_row["decision"], brno_row["action"], brno_row["ne_type"]) == ("PRIVATE", "ne_type", "GPE")
    assert brno_row["rules"] == [[gpe, "NE_TYPE", -1, True]]
    other_brno = spans[(brno + 2, brno + 3)]  # no decision of its own (None), private by the GPE rule
    assert (other_brno["decision"], other_brno["action"], other_brno["rule_level"]) == (None, None, -1)
    assert spans[(anna, anna + 2)]["decision"] is None and spans[(anna, anna + 2)]["action"] is None
    # overlapping [jan + 1, brno + 1): every span touching the range, in document order, lookup rules marked
    assert [(r["first_token"], r["end_token"]) for r in overlapping] == [(jan, jan + 2), (anna, anna + 2),
                                                                         (brno, brno + 1)]
    assert overlapping[0]["rules"] == [["NE_TYPE", 0, False], ["WORD_TYPE", 0, True]]
    assert overlapping[2]["rules"] == [["NE_TYPE", -1, False], ["WORD_TYPE", 0, True]]  # its own lookup rule
