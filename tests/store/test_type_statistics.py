"""Per-type decision counts (psan.store.annotation.suggestions.type_statistics): incremental, yet equal to a full count.

Why: suggestions and learned type rules read these counts on every window and decision; they are
kept per process and brought up to date from the decision log, so every way a count can change must
show up at once (a new decision, a changed one, another project reusing an id).
"""
from __future__ import annotations

import pytest

from psan.runtime import db
from psan.store.annotation import suggestions
from psan.store.annotation.decisions import Scope, Span, decide
from tests.documents import add_document, token_index
from tests.helpers import account_id, default_project, make_account, sql

TEXT = "Karel came. Eva came. Brno is far. Karel and Eva met in Brno. Petr stayed."
ENTITIES = [("Karel", "P"), ("Eva", "P"), ("Brno", "gu"), ("Petr", "P")]


@pytest.fixture(autouse=True)
def fresh_counts():
    suggestions.forget_statistics()
    yield
    suggestions.forget_statistics()


def _decide(app, doc: int, word: str, decision: str, occurrence: int = 0, project: int | None = None) -> None:
    i = token_index(app, doc, word, occurrence)
    with app.app_context(), db.transaction() as conn:
        decide(conn, Span(project or default_project(app), doc, i, i + 1), Scope.TOKEN, decision,
               account_id(app, "admin@example.org"), [word])


def _counts(app) -> dict[str, tuple[int, int]]:
    with app.app_context(), db.transaction() as conn:
        return suggestions.type_statistics(conn, default_project(app), ["P", "gu", "x"])


def _full_count(app) -> dict[str, tuple[int, int]]:
    with app.app_context(), db.transaction() as conn:
        entry = suggestions._count_types(conn, default_project(app))  # noqa: SLF001 - the reference
    return {t: (c[0], c[1]) for t, c in entry.counts.items() if any(c)}


@pytest.fixture()
def counted_doc(clean_app) -> int:
    """A document with one PRIVATE person decision, its counts cached in this process."""
    make_account(clean_app, "admin@example.org", "ADMIN")
    doc = add_document(clean_app, TEXT, ENTITIES)
    _decide(clean_app, doc, "Karel", "PRIVATE")
    assert _counts(clean_app) == {"P": (1, 0)}
    return doc


def test_counts_follow_new_and_changed_decisions(clean_app):
    app = clean_app
    make_account(app, "admin@example.org", "ADMIN")
    doc = add_document(app, TEXT, ENTITIES)
    assert _counts(app) == {}
    _decide(app, doc, "Karel", "PRIVATE")
    assert _counts(app) == {"P": (1, 0)}
    _decide(app, doc, "Brno", "PUBLIC")
    _decide(app, doc, "Eva", "PRIVATE", 1)
    assert _counts(app) == {"P": (2, 0), "gu": (0, 1)} == _full_count(app)
    _decide(app, doc, "Karel", "PUBLIC")  # a changed decision moves its span, never counts it twice
    assert _counts(app) == {"P": (1, 1), "gu": (0, 1)} == _full_count(app)
    _decide(app, doc, "Karel", "PUBLIC")  # the same again: nothing changes
    assert _counts(app) == _full_count(app)


def test_an_emptied_database_is_counted_anew(clean_app):
    app = clean_app
    make_account(app, "admin@example.org", "ADMIN")
    doc = add_document(app, TEXT, ENTITIES)
    _decide(app, doc, "Petr", "PRIVATE")
    _decide(app, doc, "Eva", "PRIVATE")
    assert _counts(app) == {"P": (2, 0)}
    # the same project, document and log ids again (as the tests' clean-up or a restored backup gives)
    with app.app_context(), db.transaction() as conn:
        db.execute("TRUNCATE document, decision_log RESTART IDENTITY CASCADE", None, conn)
    doc = add_document(app, TEXT, ENTITIES)
    _decide(app, doc, "Brno", "PUBLIC")
    _decide(app, doc, "Karel", "PUBLIC")
    assert _counts(app) == {"P": (0, 1), "gu": (0, 1)} == _full_count(app)


def test_counts_without_log_rows_do_not_outlive_an_emptied_database(clean_app, monkeypatch):
    """Decided spans without a log row (imported, restored) leave nothing to check a reset by: count anew."""
    app = clean_app
    make_account(app, "admin@example.org", "ADMIN")
    doc = add_document(app, TEXT, ENTITIES)
    i = token_index(app, doc, "Karel")
    with app.app_context(), db.transaction() as conn:
        db.execute("UPDATE annotation SET token_decision = 'PRIVATE' WHERE document_id = %s AND first_token = %s "
                   "AND end_token = %s", (doc, i, i + 1), conn)
    assert _counts(app) == {"P": (1, 0)}
    with app.app_context(), db.transaction() as conn:
        db.execute("TRUNCATE document, decision_log RESTART IDENTITY CASCADE", None, conn)
    add_document(app, TEXT, ENTITIES)
    monkeypatch.setattr(suggestions, "FRESH_SECONDS", 0.0)
    assert _counts(app) == {} == _full_count(app)


def test_another_process_decisions_are_read_once_the_counts_are_old(clean_app, counted_doc, monkeypatch):
    """Counts are reused for FRESH_SECONDS unless this process decided; others' decisions show up after."""
    app, doc = clean_app, counted_doc
    monkeypatch.setattr(suggestions, "FRESH_SECONDS", 3600.0)
    monkeypatch.setattr(suggestions, "note_decision", lambda project_id: None)  # as if decided elsewhere
    _decide(app, doc, "Brno", "PUBLIC")
    assert _counts(app) == {"P": (1, 0)}  # not asked yet
    monkeypatch.setattr(suggestions, "FRESH_SECONDS", 0.0)
    assert _counts(app) == {"P": (1, 0), "gu": (0, 1)} == _full_count(app)
    monkeypatch.undo()
    monkeypatch.setattr(suggestions, "FRESH_SECONDS", 3600.0)
    _decide(app, doc, "Eva", "PRIVATE")  # this process's own decision: counted at once
    assert _counts(app) == {"P": (2, 0), "gu": (0, 1)} == _full_count(app)


def test_a_log_read_overtaken_by_another_thread_does_not_recount(clean_app, counted_doc, monkeypatch):
    """Two threads reading the log at once: the slower one must not take the other's progress for a reset log."""
    app, doc = clean_app, counted_doc
    _decide(app, doc, "Brno", "PUBLIC")
    _decide(app, doc, "Eva", "PRIVATE", 1)
    recounts = []
    real_count, real_query = suggestions._count_types, suggestions.db.query_one  # noqa: SLF001
    monkeypatch.setattr(suggestions, "_count_types", lambda conn, project: recounts.append(project)
                        or real_count(conn, project))
    overtaken = []

    def query_one(sql, params=None, conn=None, lead=""):  # noqa: ANN001, ANN202 - db.query_one's signature
        row = real_query(sql, params, conn, lead)
        if not overtaken:  # meanwhile another thread read the log and moved the counts on
            overtaken.append(True)
            entry = suggestions._statistics[default_project(app)]  # noqa: SLF001
            suggestions._update(conn, default_project(app), entry)  # noqa: SLF001
        return row

    monkeypatch.setattr(suggestions.db, "query_one", query_one)
    assert _counts(app) == {"P": (2, 0), "gu": (0, 1)}
    assert overtaken and recounts == []  # no full recount
    assert _counts(app) == _full_count(app)


#: ten Czech places CNEC's NER would find (seven cities, three countries): decided private, a clear category
CNEC_PLACES = [("Brno", "gu"), ("Praha", "gu"), ("Ostrava", "gu"), ("Plzeň", "gu"), ("Zlín", "gu"),
               ("Jihlava", "gu"), ("Kolín", "gu"), ("Rakousko", "gc"), ("Polsko", "gc"), ("Maďarsko", "gc")]


def _ten_decided_private(app, entities: list[tuple[str, str]], project: int | None = None) -> int:
    """A document of ``entities`` ("<word> je tady." each) whose first ten are decided private; its id."""
    if project is None:  # the test's first document: its admin decides
        make_account(app, "admin@example.org", "ADMIN")
    doc = add_document(app, " ".join(f"{w} je tady." for w, _ in entities), entities, project_id=project)
    for word, _ in entities[:10]:
        _decide(app, doc, word, "PRIVATE", project=project)
    return doc


def test_a_clearly_private_category_decides_its_undecided_types_private(clean_app):
    """learn_type_rules pools a category's types (psan.tool.decisions.suggest.pooled_private_types): private only."""
    app = clean_app
    _ten_decided_private(app, CNEC_PLACES + [("Dunaj", "gh"), ("Karel", "P")])
    with app.app_context(), db.transaction() as conn:
        assert suggestions.types_to_learn(conn, default_project(app), ["P"]) == []  # another category
        assert suggestions.types_to_learn(conn, default_project(app), ["gu"]) == ["gc", "gh", "gu"]
        changed = suggestions.learn_type_rules(conn, default_project(app), ["gc"])
        rules = {r["condition"]: r["confidence"] for r in db.query(
            "SELECT condition, confidence FROM rule WHERE project_id = %s AND type = 'NE_TYPE'",
            (default_project(app),), conn)}
    assert len(changed) == 3 and rules == {"gu": -1.0, "gc": -1.0, "gh": -1.0, "P": 0.0}


def test_a_surname_or_a_city_psan_found_is_decided_with_cnecs_clearly_private_category(clean_app):
    """psan's own types join CNEC's pool of their category (psan.tool.decisions.suggest.joinable_pools), when CNEC's
    types are
    decided and when one of psan's is; a CNEC type never joins the pool psan's own types make."""
    app = clean_app
    _ten_decided_private(app, CNEC_PLACES + [("Vídeň", "CITY"), ("Dunaj", "gh")])
    with app.app_context(), db.transaction() as conn:
        assert suggestions.types_to_learn(conn, default_project(app), ["gu"]) == ["CITY", "gc", "gh", "gu"]
        assert suggestions.types_to_learn(conn, default_project(app), ["CITY"]) == ["CITY", "gc", "gh", "gu"]
    # psan's places decided private alone make a pool of psan's types only
    streets = [("Husova", "STREET"), ("Lidická", "STREET"), ("Dlouhá", "STREET"), ("Krátká", "STREET"),
               ("Nová", "STREET"), ("Tábor", "CITY"), ("Písek", "CITY"), ("Cheb", "CITY"), ("Most", "CITY"),
               ("Aš", "CITY"), ("Louny", "PLACE"), ("Bílina", "gu")]
    second = _second_project(app)
    _ten_decided_private(app, streets, project=second)
    with app.app_context(), db.transaction() as conn:
        assert suggestions.types_to_learn(conn, second, ["CITY"]) == ["CITY", "PLACE", "STREET"]


def _second_project(app) -> int:
    """A project of its own (type decisions are counted per project)."""
    return sql(app, "INSERT INTO project (name, language, pipeline) SELECT 'second', language, pipeline FROM project "
                    "WHERE is_default RETURNING id")[0]["id"]


def test_a_public_decision_around_a_private_part_is_no_public_vote_for_its_type(clean_app):
    """Deciding "Reg. no. 15279111" public to mark the number inside it private re-draws a boundary: the "th"
    type it was recognized as is not thereby public (one such vote kept a type from being learned)."""
    app = clean_app
    make_account(app, "admin@example.org", "ADMIN")
    # tokens: Mr Karel Novak came . | Reg . no . 15279111 was his .
    doc = add_document(app, "Mr Karel Novak came. Reg. no. 15279111 was his.", [("Karel", "P")],
                       spans=[(1, 3, "P"), (5, 10, "th"), (9, 10, "n_")])
    me = account_id(app, "admin@example.org")
    with app.app_context(), db.transaction() as conn:
        decide(conn, Span(default_project(app), doc, 5, 10), Scope.TOKEN, "PUBLIC", me,
               ["Reg", ".", "no", ".", "15279111"])
        decide(conn, Span(default_project(app), doc, 1, 2), Scope.TOKEN, "PUBLIC", me, ["Karel"])
    # the public "Karel" inside the (undecided) name counts; so does the wide span while nothing in it is private
    assert _counts(app) == {"P": (0, 1)} and _full_count(app) == {"P": (0, 1), "th": (0, 1)}
    _decide(app, doc, "15279111", "PRIVATE")  # the person marks the number inside: the wide span's vote is taken back
    with app.app_context(), db.transaction() as conn:
        assert suggestions.type_statistics(conn, default_project(app), ["P", "th", "n_"]) \
            == {"P": (0, 1), "n_": (1, 0)} == _full_count(app)
    with app.app_context(), db.transaction() as conn:  # a public span inside a private one stays a public vote
        decide(conn, Span(default_project(app), doc, 1, 3), Scope.TOKEN, "PRIVATE", me, ["Karel", "Novak"])
        assert suggestions.type_statistics(conn, default_project(app), ["P"]) == {"P": (1, 1)}
    assert _full_count(app) == {"P": (1, 1), "n_": (1, 0)}


def test_a_public_decision_around_a_rule_private_part_is_no_public_vote_either(clean_app):
    """The number inside was private by a rule (an ID type), so the person decided the wide span public at once."""
    app = clean_app
    make_account(app, "admin@example.org", "ADMIN")
    doc = add_document(app, "Mr Karel Novak came. Reg. no. 15279111 was his.", spans=[(5, 10, "th"), (9, 10, "n_")])
    with app.app_context(), db.transaction() as conn:
        db.execute("UPDATE annotation SET rule_level = -1 WHERE document_id = %s AND first_token = 9 "
                   "AND end_token = 10", (doc,), conn)
    assert _counts(app) == {}  # cached before the decision: the incremental path must see it too
    with app.app_context(), db.transaction() as conn:
        decide(conn, Span(default_project(app), doc, 5, 10), Scope.TOKEN, "PUBLIC",
               account_id(app, "admin@example.org"), ["Reg", ".", "no", ".", "15279111"])
        assert suggestions.type_statistics(conn, default_project(app), ["th", "n_"]) == {}
    assert _full_count(app) == {}
