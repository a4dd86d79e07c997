"""A private decision's lookup rule reaches other documents only for persons, IDs, contacts and unknown spans.

Why: whether a place, an organisation, a date or an occupation is personal depends on its document
(psan.store.annotation.decisions, module docstring); its lookup rule (``rule.document_only``) makes its words
suspicious in its own document only.  Checked on the real database through the store, as a window's request
decides (the decision's document at once, the others by the targeted project run), with a full project run
on top that must change nothing, and through undo.
"""
from __future__ import annotations

import itertools

from psan.runtime import db
from psan.store.admin.rules import load_rules
from psan.store.annotation import actions
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.apply_rule import apply_new_rules
from psan.store.corpus.documents import load_document
from psan.store.corpus.reannotate import reannotate_project
from psan.store.corpus.rule_changes import reannotate_changed
from psan.store.corpus.vocabulary import save_vocabulary
from tests.documents import add_document, phrase_spans
from tests.helpers import make_account, project_snapshot, sql

HERE = ("Eva Smith lives in London with a lawyer. London is big. The meeting room was full.",
        [("Eva Smith", "PERSON"), ("London", "GPE"), ("a lawyer", "DEM")])
THERE = ("Eva Smith visited London and a lawyer. The meeting room was empty.",
         [("Eva Smith", "PERSON"), ("London", "GPE"), ("a lawyer", "DEM")])

_projects = itertools.count(1)


def _project(app, typed: bool = True) -> tuple[int, int, int, int]:
    """Two documents; ``typed=False``: "a lawyer" is no entity (a person marks it by hand)."""
    n = next(_projects)
    project_id = sql(app, "INSERT INTO project (name) VALUES (%s) RETURNING id", (f"lookup scope {n}",))[0]["id"]
    account = make_account(app, f"scope{n}@example.org", "ADMIN").id
    here, there = (add_document(app, text, [e for e in ents if typed or e[1] != "DEM"], project_id=project_id,
                                name=f"d{i}.txt")
                   for i, (text, ents) in enumerate((HERE, THERE)))
    with app.app_context(), db.transaction() as conn:
        for doc in (here, there):
            save_vocabulary(conn, doc, load_document(conn, doc))
    _run(app, project_id)
    return project_id, account, here, there


def _run(app, project_id: int) -> None:
    with app.app_context():
        reannotate_changed(db.transaction, project_id)


def _decide(app, project_id: int, account: int, document_id: int, phrase: str, decision: str,
            label_id: int | None = None, action: bool = False) -> int | None:
    """Decide the phrase's first occurrence by token, as a window's request does; the action's id if logged."""
    first, end = phrase_spans(app, document_id, phrase)[0]
    action_id = None
    with app.app_context(), db.transaction() as conn:
        if action:
            action_id = actions.begin(conn, project_id, account, "token", document_id, first, end)
        out = store_decisions.decide(conn, store_decisions.Span(project_id, document_id, first, end),
                                     store_decisions.Scope.TOKEN, decision, account, phrase.split(), label_id)
        apply_new_rules(conn, document_id, out.changed_rule_ids + out.removed_rule_ids,
                        affected_annotation_ids=out.affected_annotation_ids)
    _run(app, project_id)
    return action_id


def _lookup(app, document_id: int, phrase: str) -> dict | None:
    first, end = phrase_spans(app, document_id, phrase)[0]
    rows = sql(app, "SELECT r.id, r.document_only FROM rule r JOIN annotation a ON a.id = r.annotation_id "
                    "WHERE a.document_id = %s AND a.first_token = %s AND a.end_token = %s", (document_id, first, end))
    return rows[0] if rows else None


def _linked(app, rule_id: int, document_id: int) -> list[tuple[int, int]]:
    return [(r["first_token"], r["end_token"]) for r in sql(
        app, "SELECT a.first_token, a.end_token FROM annotation_rule ar JOIN annotation a ON a.id = ar.annotation_id "
             "WHERE ar.rule_id = %s AND a.document_id = %s ORDER BY 1", (rule_id, document_id))]




def _full_run_changes_nothing(app, project_id: int) -> None:
    targeted = project_snapshot(app, project_id)
    with app.app_context():
        reannotate_project(db.transaction, project_id)
    assert project_snapshot(app, project_id) == targeted


def _label(app, project_id: int, name: str, category: str) -> int:
    return sql(app, "INSERT INTO label (project_id, name, category) VALUES (%s, %s, %s) RETURNING id",
               (project_id, name, category))[0]["id"]


def test_the_scope_follows_the_category():
    assert store_decisions.lookup_document_only(["GPE"], None)
    assert store_decisions.lookup_document_only(["DEM"], None)
    assert not store_decisions.lookup_document_only(["PERSON"], None)
    assert not store_decisions.lookup_document_only(["GPE", "PERSON"], None)  # in doubt: every document
    assert not store_decisions.lookup_document_only([], None)  # unknown category
    assert not store_decisions.lookup_document_only(["MODEL"], None)  # the learned model names no category
    assert not store_decisions.lookup_document_only(["GPE"], "PERSON")  # the person's label decides
    assert store_decisions.lookup_document_only(["PERSON"], "LOCATION")
    # no category: the scope of the lookup rules that suggested the span; none (marked by hand): everywhere
    assert store_decisions.lookup_document_only([], None, [True, True])
    assert not store_decisions.lookup_document_only([], None, [True, False])
    assert store_decisions.lookup_document_only(["MODEL"], None, [True])
    assert not store_decisions.lookup_document_only(["PERSON"], None, [True])


def test_a_private_place_is_suspicious_again_in_its_own_document_only(clean_app):
    app = clean_app
    project_id, account, here, there = _project(app)
    _decide(app, project_id, account, here, "London", "PRIVATE")
    rule = _lookup(app, here, "London")
    assert rule["document_only"]
    assert _linked(app, rule["id"], here) == phrase_spans(app, here, "London")  # both mentions here
    assert _linked(app, rule["id"], there) == []
    # an occupation (a demographic quasi-identifier) likewise
    _decide(app, project_id, account, here, "a lawyer", "PRIVATE")
    rule = _lookup(app, here, "a lawyer")
    assert rule["document_only"] and _linked(app, rule["id"], there) == []
    _full_run_changes_nothing(app, project_id)


def test_a_project_with_lookups_everywhere_keeps_a_private_place_suspicious_in_every_document(clean_app):
    """The project setting (a case file's documents; the 2021 app's global candidate rules) widens every lookup."""
    app = clean_app
    project_id, account, here, there = _project(app)
    sql(app, "UPDATE project SET lookups_everywhere = true WHERE id = %s", (project_id,))
    _decide(app, project_id, account, here, "London", "PRIVATE")
    rule = _lookup(app, here, "London")
    assert not rule["document_only"]
    assert _linked(app, rule["id"], there) == phrase_spans(app, there, "London")
    _full_run_changes_nothing(app, project_id)


def test_an_occupation_marked_by_hand_is_suspicious_again_in_its_own_document_only(clean_app):
    """No entity type, but the words as a whole are an occupation: a quasi-identifier, not a name."""
    app = clean_app
    project_id, account, here, there = _project(app, typed=False)
    _decide(app, project_id, account, here, "a lawyer", "PRIVATE")
    rule = _lookup(app, here, "a lawyer")
    assert rule["document_only"] and _linked(app, rule["id"], there) == []
    _full_run_changes_nothing(app, project_id)


def test_an_occupation_is_demographic_only_when_no_type_or_lookup_says_otherwise():
    assert store_decisions.lookup_document_only([], None, demographic=True)
    assert not store_decisions.lookup_document_only([], None, [False], demographic=True)
    assert not store_decisions.lookup_document_only(["PERSON"], None, demographic=True)
    assert not store_decisions.lookup_document_only([], None, demographic=True, everywhere=True)


def test_lookups_everywhere_wins_over_the_category():
    assert not store_decisions.lookup_document_only(["GPE"], None, everywhere=True)
    assert not store_decisions.lookup_document_only([], None, [True], everywhere=True)


def test_a_single_documents_rules_leave_out_lookups_bound_elsewhere(clean_app):
    """One document's output reads no rule bound to another document (nothing it reads depends on their rows)."""
    app = clean_app
    project_id, account, here, there = _project(app)
    _decide(app, project_id, account, here, "London", "PRIVATE")
    rule = _lookup(app, here, "London")
    with app.app_context(), db.transaction() as conn:
        everything = {r.id: r.document for r in load_rules(conn, project_id)}
        mine = {r.id: r.document for r in load_rules(conn, project_id, here)}
        theirs = {r.id: r.document for r in load_rules(conn, project_id, there)}
    assert everything[rule["id"]] == here and mine[rule["id"]] == here and rule["id"] not in theirs
    assert set(theirs) == set(everything) - {rule["id"]}


def test_a_private_person_and_a_span_of_unknown_category_reach_every_document(clean_app):
    app = clean_app
    project_id, account, here, there = _project(app)
    _decide(app, project_id, account, here, "Eva Smith", "PRIVATE")
    rule = _lookup(app, here, "Eva Smith")
    assert not rule["document_only"] and _linked(app, rule["id"], there) == phrase_spans(app, there, "Eva Smith")
    _decide(app, project_id, account, here, "meeting room", "PRIVATE")  # no entity, no label
    rule = _lookup(app, here, "meeting room")
    assert not rule["document_only"] and _linked(app, rule["id"], there) == phrase_spans(app, there, "meeting room")
    _full_run_changes_nothing(app, project_id)


def test_a_new_label_widens_or_narrows_the_lookup(clean_app):
    app = clean_app
    project_id, account, here, there = _project(app)
    person = _label(app, project_id, "name", "PERSON")
    place = _label(app, project_id, "place", "LOCATION")
    _decide(app, project_id, account, here, "London", "PRIVATE", person)  # "London" as a surname
    rule = _lookup(app, here, "London")
    assert not rule["document_only"] and _linked(app, rule["id"], there) == phrase_spans(app, there, "London")
    _decide(app, project_id, account, here, "London", "PRIVATE", place)
    assert _lookup(app, here, "London") == {"id": rule["id"], "document_only": True}
    assert _linked(app, rule["id"], there) == [] and _linked(app, rule["id"], here) == phrase_spans(app, here, "London")
    _full_run_changes_nothing(app, project_id)


def test_a_document_added_later_gets_no_document_only_lookup(clean_app):
    app = clean_app
    project_id, account, here, _ = _project(app)
    _decide(app, project_id, account, here, "London", "PRIVATE")
    _decide(app, project_id, account, here, "Eva Smith", "PRIVATE")
    later = add_document(app, THERE[0], THERE[1], project_id=project_id, name="later.txt")
    assert _linked(app, _lookup(app, here, "London")["id"], later) == []
    assert _linked(app, _lookup(app, here, "Eva Smith")["id"], later) == phrase_spans(app, later, "Eva Smith")


def test_undo_brings_a_document_only_lookup_back_as_it_was(clean_app):
    app = clean_app
    project_id, account, here, there = _project(app)
    _decide(app, project_id, account, here, "London", "PRIVATE", action=True)
    rule = _lookup(app, here, "London")
    public = _decide(app, project_id, account, here, "London", "PUBLIC", action=True)
    assert _lookup(app, here, "London") is None
    with app.app_context(), db.transaction() as conn:
        undone = actions.undo_action(conn, public, account)
    assert undone.rules_changed
    _run(app, project_id)
    assert _lookup(app, here, "London") == {"id": rule["id"], "document_only": True}
    assert _linked(app, rule["id"], here) == phrase_spans(app, here, "London") and _linked(app, rule["id"], there) == []
    _full_run_changes_nothing(app, project_id)


def test_a_span_suggested_by_a_document_only_lookup_keeps_its_scope(clean_app):
    """An accepted "25" the first one's lookup suggested is the same number: it stays in its document too."""
    app = clean_app
    project_id, account, here, there = _project(app)
    numbers = add_document(app, "He paid 25 euros. Article 25 applies.", [], project_id=project_id, name="n.txt",
                           spans=[(2, 3, "CARDINAL")])
    elsewhere = add_document(app, "Rule 25 applies.", [], project_id=project_id, name="e.txt")
    with app.app_context(), db.transaction() as conn:
        for doc in (numbers, elsewhere):
            save_vocabulary(conn, doc, load_document(conn, doc))
    _decide(app, project_id, account, numbers, "25", "PRIVATE")
    first = _lookup(app, numbers, "25")
    assert first["document_only"] and _linked(app, first["id"], numbers) == [(2, 3), (6, 7)]
    with app.app_context(), db.transaction() as conn:  # the second "25": no entity type, suggested by the first
        out = store_decisions.decide(conn, store_decisions.Span(project_id, numbers, 6, 7),
                                     store_decisions.Scope.TOKEN, "PRIVATE", account, ["25"])
        apply_new_rules(conn, numbers, out.changed_rule_ids, affected_annotation_ids=out.affected_annotation_ids)
    _run(app, project_id)
    second = sql(app, "SELECT r.id, r.document_only FROM rule r JOIN annotation a ON a.id = r.annotation_id "
                      "WHERE a.document_id = %s AND a.first_token = 6", (numbers,))[0]
    assert second["document_only"] and _linked(app, second["id"], elsewhere) == []
    _full_run_changes_nothing(app, project_id)


def _levels(app, document_id: int, phrase: str) -> list[float]:
    """The rule level of each occurrence of the phrase (``None``: no span there)."""
    out = []
    for first, end in phrase_spans(app, document_id, phrase):
        rows = sql(app, "SELECT rule_level FROM annotation WHERE document_id = %s AND first_token = %s "
                        "AND end_token = %s", (document_id, first, end))
        out.append(rows[0]["rule_level"] if rows else None)
    return out


def _public_by_word_type(app, project_id: int, account: int, document_id: int, phrase: str) -> None:
    """Decide the phrase's first occurrence public by word type (a person's public word rule), and run the project."""
    first, end = phrase_spans(app, document_id, phrase)[0]
    with app.app_context(), db.transaction() as conn:
        out = store_decisions.decide(conn, store_decisions.Span(project_id, document_id, first, end),
                                     store_decisions.Scope.WORD_TYPE, "PUBLIC", account, phrase.split(), None)
        apply_new_rules(conn, document_id, out.changed_rule_ids + out.removed_rule_ids,
                        affected_annotation_ids=out.affected_annotation_ids)
    _run(app, project_id)


def test_a_private_decision_keeps_its_words_suspicious_in_its_document_against_a_public_word_rule(clean_app):
    """The person decided "London" public by word type; in one document they find it private: its other mention
    there waits for a person instead of staying public, and the other document keeps the word rule's verdict."""
    app = clean_app
    project_id, account, here, there = _project(app)
    _public_by_word_type(app, project_id, account, there, "London")
    assert _levels(app, here, "London") == [1.0, 1.0]
    _decide(app, project_id, account, here, "London", "PRIVATE")
    assert _levels(app, here, "London")[1] == 0.0  # suspicious: masked until a person decides it
    assert _levels(app, there, "London") == [1.0]
    _full_run_changes_nothing(app, project_id)
    _decide(app, project_id, account, here, "London", "PUBLIC")  # the person changes their mind: no lookup left
    assert _levels(app, here, "London") == [1.0, 1.0]
    _full_run_changes_nothing(app, project_id)


def test_the_migration_brings_levels_stored_before_to_the_new_rule(clean_app):
    """A project annotated by the code before (the public word rule outvoted the lookup: level 1, document DONE)
    gets the level the code computes now and waits for a person again, by ``db/migrations/0047``."""
    from pathlib import Path

    app = clean_app
    project_id, account, here, there = _project(app)
    _public_by_word_type(app, project_id, account, there, "London")
    _decide(app, project_id, account, here, "London", "PRIVATE")
    second = phrase_spans(app, here, "London")[1]
    sql(app, "UPDATE annotation SET rule_level = 1 WHERE document_id = %s AND first_token = %s AND end_token = %s",
        (here, *second))  # as the code before stored it
    sql(app, "UPDATE annotation SET token_decision = 'PUBLIC' WHERE document_id = %s AND token_decision IS NULL "
             "AND (first_token, end_token) <> (%s, %s)", (here, *second))  # nothing else left open there
    sql(app, "UPDATE document SET status = 'DONE' WHERE id = %s", (here,))
    migration = Path(__file__).resolve().parents[2] / "db" / "migrations" / "0047.lookup-keeps-words-waiting.sql"
    with app.app_context(), db.transaction() as conn:
        db.execute(migration.read_text(encoding="utf-8"), None, conn)  # the whole script, as one simple query
    assert _levels(app, here, "London")[1] == 0.0
    assert sql(app, "SELECT status::text AS s FROM document WHERE id = %s", (here,))[0]["s"] == "PRE_ANNOTATED"
    assert _levels(app, there, "London") == [1.0]
    _full_run_changes_nothing(app, project_id)
