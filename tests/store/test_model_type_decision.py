"""A person's "by NE type" decision never turns the learned model's rule (type MODEL) into a project rule.

Why: the model's spans carry the NE type ``MODEL`` so its rule can vote on them.  Deciding a span the model
also proposed "public by NE type" set that rule public too: every span only the model proposed became
public unseen, and every learned private type under a model span was cancelled back to suspicious (a
release run on court decisions settled 577 dates one by one after "dates are private" had been learned).
"""
from __future__ import annotations

import pytest

from psan.runtime import db
from psan.store.annotation.decisions import DecisionError, Scope, Span, decide
from tests.documents import add_document, annotation, token_index
from tests.helpers import account_id, default_project, make_account, sql

TEXT = "Karel came on Monday. Eva came on Friday. Brno is far."


def _decide(app, doc: int, first: int, end: int, scope: Scope, decision: str, ne_type: str | None = None) -> None:
    with app.app_context(), db.transaction() as conn:
        decide(conn, Span(default_project(app), doc, first, end), scope, decision,
               account_id(app, "admin@example.org"), ["x"], ne_type=ne_type)


def _model_rule(app) -> float:
    return sql(app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'MODEL'")[0]["confidence"]


@pytest.fixture()
def doc(clean_app) -> int:
    """"Monday" found by a recognizer (DATE) and proposed by the model too; "Brno" proposed by the model alone."""
    make_account(clean_app, "admin@example.org", "ADMIN")
    doc = add_document(clean_app, TEXT, [("Monday", "DATE"), ("Friday", "DATE")], spans=[(3, 4, "MODEL"),
                                                                                         (10, 11, "MODEL")])
    assert (token_index(clean_app, doc, "Monday"), token_index(clean_app, doc, "Brno")) == (3, 10)
    return doc


def test_by_type_on_a_span_the_model_also_proposed_decides_only_the_recognizers_type(clean_app, doc):
    monday = token_index(clean_app, doc, "Monday")
    _decide(clean_app, doc, monday, monday + 1, Scope.NE_TYPE, "PUBLIC")
    assert sql(clean_app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'DATE'")[0][
        "confidence"] > 0
    assert _model_rule(clean_app) == 0  # the model's rule is nobody's decision
    brno = token_index(clean_app, doc, "Brno")
    assert annotation(clean_app, doc, brno, brno + 1)["rule_level"] <= 0  # the model-only span is not public


@pytest.mark.parametrize("ne_type", [None, "MODEL"])
def test_a_model_only_span_is_not_decided_by_type(clean_app, doc, ne_type):
    brno = token_index(clean_app, doc, "Brno")
    with pytest.raises(DecisionError, match="one by one"):
        _decide(clean_app, doc, brno, brno + 1, Scope.NE_TYPE, "PUBLIC", ne_type)
    assert _model_rule(clean_app) == 0
