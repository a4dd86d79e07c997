"""Targeted re-annotation (psan.store.annotation.apply_rule) must leave exactly what a full re-annotation leaves.

Each test brings a document up to date with the full path, changes rules, applies only the changed
rules, snapshots the document's annotations, links and status, runs the full path again and
requires the identical snapshot (the full path must then find nothing to insert or delete).
"""
from __future__ import annotations

import random
from typing import Any

import pytest

from psan.runtime import db
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.apply_rule import (
    NeedsWholeDocument,
    apply_new_rules,
    find_word_type_matches,
    rule_footprint,
)
from psan.store.corpus.reannotate import reannotate_document_now
from psan.store.shared.document_status import SUSPICIOUS_SQL
from tests.documents import add_document, plain_sentences
from tests.helpers import default_project, make_account, sql


@pytest.fixture(autouse=True)
def targeted_only(monkeypatch) -> list[int]:
    """Fail if apply_new_rules falls back to the full path (a test that expects it says so)."""
    from psan.store.annotation import apply_rule
    allowed: list[int] = []

    def full(conn, document_id: int) -> int:
        if not allowed:
            raise AssertionError("apply_new_rules fell back to the full re-annotation")
        return original(conn, document_id)

    original = apply_rule._full_path
    monkeypatch.setattr(apply_rule, "_full_path", full)
    return allowed


def _snapshot(app, doc: int) -> dict[str, Any]:
    rows = sql(app, "SELECT a.id, a.first_token, a.end_token, a.token_decision::text AS decision, a.rule_level, "
                    "coalesce(array_agg(ar.rule_id ORDER BY ar.rule_id) FILTER (WHERE ar.rule_id IS NOT NULL), "
                    "'{}') AS rules FROM annotation a LEFT JOIN annotation_rule ar ON ar.annotation_id = a.id "
                    "WHERE a.document_id = %s GROUP BY a.id ORDER BY a.first_token, a.end_token", (doc,))
    status = sql(app, "SELECT status::text AS status FROM document WHERE id = %s", (doc,))[0]["status"]
    return {"status": status, "annotations": rows}


def _full(app, doc: int) -> None:
    with app.app_context(), db.transaction() as conn:
        reannotate_document_now(conn, doc)


def _rule(app, condition: str, confidence: float = 0.0, kind: str = "WORD_TYPE", case_sensitive: bool = True,
          project: int | None = None, author: int | None = None) -> int:
    return sql(app, "INSERT INTO rule (project_id, type, condition, confidence, case_sensitive, author_id) "
                    "VALUES (%s, %s::rule_type, %s, %s, %s, %s) RETURNING id",
               (project or default_project(app), kind, condition, confidence, case_sensitive, author))[0]["id"]


def _apply(app, doc: int, rule_ids: list[int], affected: list[int] | None = None) -> int:
    with app.app_context(), db.transaction() as conn:
        return apply_new_rules(conn, doc, rule_ids, affected_annotation_ids=affected or ())


def _assert_equivalent(app, *docs: int) -> list[dict[str, Any]]:
    """Snapshot after the targeted path == snapshot after a full re-annotation on top of it."""
    targeted = [_snapshot(app, d) for d in docs]
    for d in docs:
        _full(app, d)
    full = [_snapshot(app, d) for d in docs]
    for before, after in zip(targeted, full, strict=True):
        assert before == after
    return targeted


def _spans(snapshot: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {(a["first_token"], a["end_token"]): a for a in snapshot["annotations"]}


TEXT = ("Karel Novák met Jana in Praha. Karel was late. JAN and jan and Jan came too. "
        "Straße and STRASSE and strasse. I met Karel\n\nNovák came at noon. Novák. Novák wrote. "
        "Janek-Jan and Jana-Jan stayed. " + plain_sentences(0, 5) + " Then Karel Novák left Praha.")


@pytest.fixture()
def doc(clean_app) -> int:
    return add_document(clean_app, TEXT, [("Karel Novák", "P"), ("Praha", "gu"), ("Jana", "P")])


def test_word_type_rules_case_and_whole_tokens(clean_app, doc):
    ids = [_rule(clean_app, "Jan", -1), _rule(clean_app, "jan", 0, case_sensitive=False),
           _rule(clean_app, "Novák", 0), _rule(clean_app, "Novák .", 1), _rule(clean_app, "strasse", -1,
                                                                               case_sensitive=False)]
    assert _apply(clean_app, doc, ids) > 0
    snap = _assert_equivalent(clean_app, doc)[0]
    words = TEXT  # spot checks on top of the equivalence
    assert "Janek-Jan" in words
    levels = [a["rule_level"] for a in snap["annotations"]]
    assert -1.0 in levels and 1.0 in levels


def test_multi_token_rule_never_crosses_a_sentence_boundary(clean_app, doc):
    rule = _rule(clean_app, "Karel Novák", -1)
    _apply(clean_app, doc, [rule])
    snap = _assert_equivalent(clean_app, doc)[0]
    linked = [k for k, a in _spans(snap).items() if rule in a["rules"]]
    # "Karel Novák" twice inside sentences; "Karel\n\nNovák" spans a blank line (two sentences)
    assert len(linked) == 2
    with clean_app.app_context(), db.transaction() as conn:
        assert find_word_type_matches(conn, doc, ("Karel", "Novák")) == sorted(linked)
        assert find_word_type_matches(conn, doc, ("karel", "NOVÁK"), case_sensitive=False) == sorted(linked)


def test_ne_type_confidence_change_new_type_and_shadowed_duplicate(clean_app, doc):
    person = sql(clean_app, "SELECT id FROM rule WHERE type = 'NE_TYPE' AND condition = 'P'")[0]["id"]
    sql(clean_app, "UPDATE rule SET confidence = -1 WHERE id = %s", (person,))
    _apply(clean_app, doc, [person])
    _assert_equivalent(clean_app, doc)
    sql(clean_app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category) "
                   "VALUES (%s, 2, 3, 'xx', 'O')", (doc,))
    new_type = _rule(clean_app, "xx", 0.5, kind="NE_TYPE")
    duplicate = _rule(clean_app, "P", 3, kind="NE_TYPE", case_sensitive=False)  # ignored by the full path too
    _apply(clean_app, doc, [new_type, duplicate])
    snap = _assert_equivalent(clean_app, doc)[0]
    assert _spans(snap)[(2, 3)]["rules"] == [new_type]
    assert all(duplicate not in a["rules"] for a in snap["annotations"])


def test_a_persons_public_word_rule_outranks_a_learned_private_type(clean_app, doc):
    """psan.tool.decisions.precedence in SQL equals the full path, whichever rule changes last."""
    sql(clean_app, "UPDATE project SET sensitive_types = '{}' WHERE id = %s", (default_project(clean_app),))
    person = make_account(clean_app, "person@example.org").id
    learned = sql(clean_app, "SELECT id FROM rule WHERE type = 'NE_TYPE' AND condition = 'P'")[0]["id"]
    place = sql(clean_app, "SELECT id FROM rule WHERE type = 'NE_TYPE' AND condition = 'gu'")[0]["id"]
    words = _rule(clean_app, "Karel Novák", 1, author=person)
    _apply(clean_app, doc, [words])
    sql(clean_app, "UPDATE rule SET confidence = -1 WHERE id = %s", (learned,))  # learned: no author
    _apply(clean_app, doc, [learned])
    spans = _spans(_assert_equivalent(clean_app, doc)[0])
    names = [a for a in spans.values() if a["rules"] == sorted([learned, words])]
    assert len(names) == 2 and all(a["rule_level"] == 1.0 for a in names)  # the person's words win
    assert {a["rule_level"] for a in spans.values() if a["rules"] == [learned]} == {-1.0}  # "Jana": the type
    # a public word rule nobody authored gets no precedence; a person's NE-type vote (authored) is summed as before
    unauthored = _rule(clean_app, "Praha", 1)
    sql(clean_app, "UPDATE rule SET confidence = -1 WHERE id = %s", (place,))
    _apply(clean_app, doc, [place, unauthored])
    spans = _spans(_assert_equivalent(clean_app, doc)[0])
    assert {a["rule_level"] for a in spans.values() if place in a["rules"]} == {0.0}
    sql(clean_app, "UPDATE rule SET author_id = %s WHERE id = %s", (person, learned))
    _apply(clean_app, doc, [learned])
    spans = _spans(_assert_equivalent(clean_app, doc)[0])
    assert [spans[(a["first_token"], a["end_token"])]["rule_level"] for a in names] == [0.0, 0.0]


def test_a_sensitive_type_on_the_span_blocks_the_precedence(clean_app, doc):
    sql(clean_app, "UPDATE project SET sensitive_types = '{}' WHERE id = %s", (default_project(clean_app),))
    person = make_account(clean_app, "person@example.org").id
    learned = sql(clean_app, "SELECT id FROM rule WHERE type = 'NE_TYPE' AND condition = 'P'")[0]["id"]
    sql(clean_app, "UPDATE rule SET confidence = -1 WHERE id = %s", (learned,))
    _apply(clean_app, doc, [learned])
    first = sql(clean_app, "SELECT first_token, end_token FROM named_entity WHERE document_id = %s AND type = 'P' "
                           "ORDER BY first_token LIMIT 1", (doc,))[0]
    sql(clean_app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category) "
                   "VALUES (%s, %s, %s, 'ah', 'LOCATION')", (doc, first["first_token"], first["end_token"]))
    address = _rule(clean_app, "ah", 0, kind="NE_TYPE")
    words = _rule(clean_app, "Karel Novák", 1, author=person)
    _apply(clean_app, doc, [address, words])
    spans = _spans(_assert_equivalent(clean_app, doc)[0])
    assert spans[(first["first_token"], first["end_token"])]["rule_level"] == 0.0  # as before: asked again
    others = [a for a in spans.values() if a["rules"] == sorted([learned, words])]
    assert others and all(a["rule_level"] == 1.0 for a in others)
    # the admin's sensitive list blocks it too (a project run re-annotates after the list changes)
    sql(clean_app, "UPDATE project SET sensitive_types = '{PERSON}' WHERE id = %s", (default_project(clean_app),))
    _full(clean_app, doc)
    _apply(clean_app, doc, [words])
    spans = _spans(_assert_equivalent(clean_app, doc)[0])
    assert all(spans[(a["first_token"], a["end_token"])]["rule_level"] == 0.0 for a in others)
    sql(clean_app, "UPDATE project SET sensitive_types = '{}' WHERE id = %s", (default_project(clean_app),))


def test_rule_deletion_with_footprint_and_without(clean_app, doc, targeted_only):
    keep = _rule(clean_app, "Jan", -1)
    gone = _rule(clean_app, "Novák", 0)
    other = _rule(clean_app, "stayed", 0)
    _apply(clean_app, doc, [keep, gone, other])
    _assert_equivalent(clean_app, doc)
    with clean_app.app_context(), db.transaction() as conn:
        footprint = rule_footprint(conn, doc, [gone])
        assert footprint
        db.execute("DELETE FROM rule WHERE id = %s", (gone,), conn)
        apply_new_rules(conn, doc, [gone], affected_annotation_ids=footprint)
    snap = _assert_equivalent(clean_app, doc)[0]
    assert all(gone not in a["rules"] for a in snap["annotations"])
    sql(clean_app, "DELETE FROM rule WHERE id = %s", (other,))
    targeted_only.append(1)
    _apply(clean_app, doc, [other])  # no footprint: falls back to the full path, still exact
    _assert_equivalent(clean_app, doc)


def test_decisions_through_the_store_match_the_full_path(clean_app, doc):
    make_account(clean_app, "a@example.org")
    me = sql(clean_app, "SELECT id FROM account WHERE email = 'a@example.org'")[0]["id"]
    project = default_project(clean_app)
    words = sql(clean_app, "SELECT idx, start_char, end_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))
    texts = [TEXT[w["start_char"]:w["end_char"]] for w in words]

    def decide(first: int, end: int, decision: str, scope: str) -> None:
        with clean_app.app_context(), db.transaction() as conn:
            span = store_decisions.Span(project, doc, first, end)
            out = store_decisions.decide(conn, span, store_decisions.Scope(scope), decision, me, texts[first:end])
            apply_new_rules(conn, doc, out.changed_rule_ids + out.removed_rule_ids,
                            affected_annotation_ids=out.affected_annotation_ids)
        _assert_equivalent(clean_app, doc)

    novak = texts.index("Novák")
    decide(novak, novak + 1, "PRIVATE", "token")  # lookup rule "Novák"
    decide(0, 2, "PRIVATE", "word_type")  # "Karel Novák" −1 (+ its lookup rule)
    decide(novak, novak + 1, "PUBLIC", "token")  # drops the lookup rule again
    decide(0, 2, "PUBLIC", "word_type")  # flips the word-type rule
    praha = texts.index("Praha")
    decide(praha, praha + 1, "PRIVATE", "ne_type")
    decide(praha, praha + 1, "PRIVATE", "ne_type")  # unchanged confidence: nothing to apply


NAMES = ["Jan", "Novák", "Petra", "Svoboda", "Anna", "Smith", "Praha", "Brno", "ŠTĚPÁN", "štěpán", "Öl", "ÖL"]
FILL = "the a of and to in was he she it report hospital patient . , ( )".split()


def _random_text(rng: random.Random, sentences: int) -> str:
    out = []
    for _ in range(sentences):
        words = [rng.choice(NAMES) if rng.random() < 0.2 else rng.choice(FILL) for _ in range(rng.randint(3, 12))]
        out.append(" ".join(words).capitalize() + rng.choice([".", ".\n\n", "!", " ,"]))
    return " ".join(out)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_documents_and_rules(clean_app, seed):
    rng = random.Random(seed)
    docs = [add_document(clean_app, _random_text(rng, 60), [(n, "P") for n in NAMES[:4]] + [("Praha", "gu")],
                         name=f"d{i}.txt") for i in range(3)]
    author = make_account(clean_app, "person@example.org").id  # authored public word rules outrank a learned "P"
    for _ in range(4):
        ids = []
        for _ in range(3):
            n = rng.randint(1, 3)
            cond = " ".join(rng.choice(NAMES + FILL[:6]) for _ in range(n))
            try:
                ids.append(_rule(clean_app, cond, rng.choice([-1, 0, 0.5, 1, 0.1]),
                                 case_sensitive=rng.random() < 0.6,
                                 author=author if rng.random() < 0.5 else None))
            except Exception:  # noqa: BLE001 - duplicate condition drawn twice: skip it
                continue
        footprints: dict[int, list[int]] = {d: [] for d in docs}
        deleted: list[int] = []
        victim = sql(clean_app, "SELECT id FROM rule WHERE type = 'WORD_TYPE' ORDER BY random() LIMIT 1")
        if victim and rng.random() < 0.5:
            deleted = [victim[0]["id"]]
            with clean_app.app_context(), db.transaction() as conn:
                footprints = {d: rule_footprint(conn, d, deleted) for d in docs}
                db.execute("DELETE FROM rule WHERE id = %s", (deleted[0],), conn)
            ids = [i for i in ids if i not in deleted]
        sql(clean_app, "UPDATE rule SET confidence = %s WHERE type = 'NE_TYPE' AND condition = 'P'",
            (rng.choice([-1, 0, 1]),))
        person = sql(clean_app, "SELECT id FROM rule WHERE type = 'NE_TYPE' AND condition = 'P'")[0]["id"]
        for d in docs:
            if deleted and not footprints[d]:
                _apply(clean_app, d, ids + [person])  # the deleted rule never touched this document
            else:
                _apply(clean_app, d, ids + deleted + [person], footprints[d])
        _assert_equivalent(clean_app, *docs)


COVER_TEXT = "Mr. Jonathan Harper met Anna Smith. Harper and Smith left. Jonathan Harper came back."


def test_a_span_decided_private_covers_the_rule_spans_inside_it_until_it_is_no_longer_private(clean_app,
                                                                                              targeted_only):
    """A hand mark over a name leaves no suspicious span inside it, by the decision and by every re-annotation."""
    doc = add_document(clean_app, COVER_TEXT, [("Harper", "P"), ("Anna Smith", "P")])
    me = make_account(clean_app, "a@example.org").id
    project = default_project(clean_app)
    words = sql(clean_app, "SELECT idx, start_char, end_char FROM token WHERE document_id = %s ORDER BY idx", (doc,))
    texts = [COVER_TEXT[w["start_char"]:w["end_char"]] for w in words]

    def decide(first: int, end: int, decision: str, *, words_locked: bool = False) -> None:
        with clean_app.app_context(), db.transaction() as conn:
            span = store_decisions.Span(project, doc, first, end)
            out = store_decisions.decide(conn, span, store_decisions.Scope.TOKEN, decision, me, texts[first:end])
            assert out.changes_spans
            apply_new_rules(conn, doc, out.changed_rule_ids + out.removed_rule_ids,
                            affected_annotation_ids=out.affected_annotation_ids, covering=out.covering,
                            uncovered=out.uncovered, words_locked=words_locked)

    def inside(first: int, end: int) -> list[tuple[int, int]]:
        return [k for k, a in _spans(_assert_equivalent(clean_app, doc)[0]).items()
                if first <= k[0] and k[1] <= end and k != (first, end)]

    jonathan, smith = texts.index("Jonathan"), texts.index("Smith", texts.index("Smith") + 1)
    assert inside(jonathan, jonathan + 2) == [(jonathan + 1, jonathan + 2)]  # the recognized "Harper"
    # by hand over the name: the recognized "Harper" inside it is covered; decided under a lock of its own
    # words only, the decision needs the whole document (the inner span is another word's)
    with pytest.raises(NeedsWholeDocument):
        decide(jonathan, jonathan + 2, "PRIVATE", words_locked=True)
    decide(jonathan, jonathan + 2, "PRIVATE")
    assert inside(jonathan, jonathan + 2) == []
    # a lone "Smith" decided private: its lookup rule matches inside "Anna Smith", undecided so far ...
    decide(smith, smith + 1, "PRIVATE")
    assert inside(smith - 5, smith - 3) == [(smith - 4, smith - 3)]
    # ... and no more once a person decides "Anna Smith" private; a lookup applied again writes none there
    decide(smith - 5, smith - 3, "PRIVATE")
    assert inside(smith - 5, smith - 3) == []
    decide(smith, smith + 1, "PUBLIC")
    decide(smith, smith + 1, "PRIVATE")
    assert inside(smith - 5, smith - 3) == []
    # no longer private: what it covered is matched again (the full path), so nothing is left unasked
    targeted_only.append(1)
    decide(jonathan, jonathan + 2, "PUBLIC")
    assert inside(jonathan, jonathan + 2) == [(jonathan + 1, jonathan + 2)]
    assert sql(clean_app, "SELECT a.first_token FROM annotation a JOIN project p ON p.id = %s "
                          "WHERE a.document_id = %s AND a.first_token = %s AND a.end_token = %s AND " + SUSPICIOUS_SQL,
               (project, doc, jonathan + 1, jonathan + 2))  # suspicious again
