"""The decision workflow (psan.annotate.workflow) called directly with a connection, without HTTP.

Scheduling is replaced by recorders: these tests check which follow-up work a decision asks for,
not the worker that would do it.
"""
from __future__ import annotations

import pytest

from psan.annotate import workflow
from psan.celery import scheduling
from psan.runtime import db
from psan.store.annotation import windows as store_windows
from psan.store.annotation.decisions import DecisionError, Outcome, Scope, Span
from tests.documents import add_document, annotation, token_index
from tests.helpers import account_id, make_account, sql

ADMIN = "admin@example.org"
LEASE = 900


@pytest.fixture(name="scheduled")
def scheduled_fixture(monkeypatch) -> dict[str, list]:
    calls: dict[str, list] = {"reannotate": [], "retrain": []}
    monkeypatch.setattr(scheduling, "schedule_project_reannotation",
                        lambda project_id, exclude_document_id=None, delay=None:
                        calls["reannotate"].append((project_id, exclude_document_id)))
    monkeypatch.setattr(scheduling, "maybe_schedule_retrain",
                        lambda conn, project_id, *_read: calls["retrain"].append(project_id) or False)
    return calls


def _document(app) -> tuple[int, int]:
    make_account(app, ADMIN, "ADMIN")
    return add_document(app, "Karel came. Later Karel left.", [("Karel", "P")]), account_id(app, ADMIN)


def test_a_word_type_decision_updates_the_document_and_schedules_the_rest(clean_app, scheduled):
    app = clean_app
    document_id, me = _document(app)
    with app.app_context(), db.transaction() as conn:
        window = store_windows.open_at(conn, me, document_id, 0, 100, LEASE)
        span = Span(window.project_id, document_id, 0, 1)
        decided = workflow.decide_span(conn, window, span, Scope.WORD_TYPE, "PRIVATE", me, lease_seconds=LEASE)
    assert decided.outcome.rules_changed and decided.outcome.annotation_id
    second = token_index(app, document_id, "Karel", 1)
    assert annotation(app, document_id, second, second + 1)["rule_level"] == -1.0  # applied at once
    assert decided.status == sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (document_id,))[0]["s"]
    assert scheduled == {"reannotate": [(window.project_id, document_id)], "retrain": [window.project_id]}
    assert sql(app, "SELECT decisions FROM annotation_window WHERE account_id = %s", (me,))[0]["decisions"] == 1


def test_a_token_decision_changes_no_rule_and_schedules_no_reannotation(clean_app, scheduled):
    app = clean_app
    document_id, me = _document(app)
    with app.app_context(), db.transaction() as conn:
        window = store_windows.open_at(conn, me, document_id, 0, 100, LEASE)
        decided = workflow.decide_span(conn, window, Span(window.project_id, document_id, 0, 1), Scope.TOKEN,
                                       "PUBLIC", me, lease_seconds=LEASE)
    assert not decided.outcome.rules_changed and not decided.category_needed
    assert annotation(app, document_id, 0, 1)["token_decision"] == "PUBLIC"
    assert scheduled["reannotate"] == [] and scheduled["retrain"] == [window.project_id]


def test_redis_down_leaves_the_reannotation_to_the_sweeper(clean_app, scheduled, monkeypatch):
    app = clean_app
    document_id, me = _document(app)

    def down(project_id, exclude_document_id=None, delay=None):
        raise ConnectionError("redis down")

    monkeypatch.setattr(scheduling, "schedule_project_reannotation", down)
    with app.app_context(), db.transaction() as conn:
        window = store_windows.open_at(conn, me, document_id, 0, 100, LEASE)
        workflow.decide_span(conn, window, Span(window.project_id, document_id, 0, 1), Scope.WORD_TYPE, "PRIVATE",
                             me, lease_seconds=LEASE)
    assert sql(app, "SELECT reannotate_pending_since IS NOT NULL AS pending FROM project WHERE id = %s",
               (window.project_id,))[0]["pending"]


def test_a_refused_decision_raises_before_anything_is_written(clean_app, scheduled):
    app = clean_app
    document_id, me = _document(app)
    with pytest.raises(DecisionError), app.app_context(), db.transaction() as conn:
        window = store_windows.open_at(conn, me, document_id, 0, 100, LEASE)
        workflow.decide_span(conn, window, Span(window.project_id, document_id, 0, 1), Scope.TOKEN, "MAYBE", me,
                             lease_seconds=LEASE)
    assert annotation(app, document_id, 0, 1)["token_decision"] is None
    assert scheduled == {"reannotate": [], "retrain": []}


def test_merge_keeps_every_rule_once():
    a = Outcome(annotation_id=1, rule_ids=[1], changed_rule_ids=[1, 2], affected_annotation_ids=[5])
    b = Outcome(annotation_id=2, rule_ids=[3], changed_rule_ids=[2, 3], removed_rule_ids=[4], rules_changed=True)
    merged = workflow.merge([a, b])
    assert (merged.annotation_id, merged.rule_ids, merged.changed_rule_ids, merged.removed_rule_ids,
            merged.affected_annotation_ids, merged.rules_changed) == (1, [1, 3], [1, 2, 3], [4], [5], True)


@pytest.mark.parametrize("learn", [True, False])
def test_learned_types_follow_the_config(clean_app, scheduled, learn, monkeypatch):
    """Ten private decisions on a type teach it (default); LEARN_ENTITY_TYPES = False (the 2021 app) does not."""
    app = clean_app
    monkeypatch.setitem(app.config, "LEARN_ENTITY_TYPES", learn)  # not left set for the session's later tests
    make_account(app, ADMIN, "ADMIN")
    me = account_id(app, ADMIN)
    names = ["Karel", "Eva", "Petr", "Jana", "Pavel", "Marie", "Tomáš", "Lucie", "Jiří", "Anna", "Josef"]
    document_id = add_document(app, " ".join(f"{n} came." for n in names), [(n, "P") for n in names])
    with app.app_context(), db.transaction() as conn:
        window = store_windows.open_at(conn, me, document_id, 0, 100, LEASE)
        for n in names[:10]:
            i = token_index(app, document_id, n)
            workflow.decide_span(conn, window, Span(window.project_id, document_id, i, i + 1), Scope.TOKEN,
                                 "PRIVATE", me, lease_seconds=LEASE)
    last = token_index(app, document_id, names[-1])
    assert sql(app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'P'")[0]["confidence"] \
        == (-1.0 if learn else 0.0)
    assert (annotation(app, document_id, last, last + 1)["rule_level"] == -1.0) == learn
