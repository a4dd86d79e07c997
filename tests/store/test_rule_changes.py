"""Targeted project runs (psan.store.corpus.rule_changes) leave exactly what a full project run leaves.

The property test builds a project of documents, changes its rules at random (word-type, NE-type and
lookup rules created, re-weighted, re-worded, switched case-insensitive, bound to their annotation's document
or freed again, deleted; decisions through the store with their rules applied to their own document, as a
window's request does) with targeted runs at
random points, then snapshots every annotation, rule link, level and document status of the project
after a final targeted run, runs the full run (:func:`psan.store.corpus.reannotate.reannotate_project`) on top
and requires the identical snapshot.  The full run's result depends only on the documents, the rules and
the decisions, so equal snapshots mean the targeted run left exactly the full run's annotations.
"""
from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from psan.runtime import db
from psan.store.annotation import decisions as store_decisions
from psan.store.annotation.apply_rule import apply_new_rules
from psan.store.corpus.documents import load_document
from psan.store.corpus.reannotate import reannotate_project
from psan.store.corpus.rule_changes import reannotate_changed
from psan.store.corpus.vocabulary import save_vocabulary
from tests.documents import add_document
from tests.helpers import make_account, project_snapshot, sql

DOCUMENTS = [
    ("Jonathan Harper joined the accounting department in March. Colleagues describe Harper as careful. "
     "After the audit the board thanked Mr. Harper and Mrs. Eva Smith from London.",
     [("Jonathan Harper", "PERSON"), ("Harper", "PERSON"), ("Eva Smith", "PERSON"), ("London", "GPE")]),
    ("Jan Novák pracuje v Praze. Bez Jana Nováka by firma audit nezvládla. NOVÁK a novák podepsali. "
     "Firma Stavby Novák s.r.o. sídlí v Brně.",
     [("Jan Novák", "PERSON"), ("Jana Nováka", "PERSON"), ("Praze", "GPE"), ("Stavby Novák s.r.o.", "ORG"),
      ("Brně", "GPE")]),
    ("The court in London heard Eva Smith. Smith said that Harper was absent. The Straße and STRASSE "
     "signs stood in Praha. I met Karel\n\nNovák came at noon.",
     [("London", "GPE"), ("Eva Smith", "PERSON"), ("Smith", "PERSON"), ("Harper", "PERSON"), ("Praha", "GPE"),
      ("Karel", "PERSON"), ("Novák", "PERSON")]),
    ("Nothing personal is written here. The weather was fine and the meeting ended at noon.", []),
    ("Acme Corp. paid the invoice 2024/17 to Jan Novák on 1. 1. 2020 in Brno; Novák confirmed it.",
     [("Acme Corp.", "ORG"), ("Jan Novák", "PERSON"), ("Novák", "PERSON"), ("Brno", "GPE")]),
]

#: word sequences the random rules are made of: words of the documents (some in other case) and absent ones
CONDITIONS = ["Harper", "Mr. Harper", "Novák", "novák", "NOVÁK", "Jan Novák", "Eva Smith", "Smith", "London",
              "Praha", "Praze", "the", "The", ".", "strasse", "Karel Novák", "Acme Corp.", "noon", "absent word",
              "Brno", "s.r.o.", "Jana Nováka"]
TYPES = ["PERSON", "GPE", "ORG", "MISC"]
CONFIDENCES = [-2.0, -1.0, -0.5, 0.0, 0.25, 1.0]

_projects = itertools.count(1)




def _build(app, indexed: list[bool]) -> tuple[int, list[int], int]:
    n = next(_projects)
    project_id = sql(app, "INSERT INTO project (name) VALUES (%s) RETURNING id", (f"changes {n}",))[0]["id"]
    account = make_account(app, f"changes{n}@example.org", "ADMIN").id
    docs = [add_document(app, text, ents, project_id=project_id, name=f"d{i}.txt")
            for i, (text, ents) in enumerate(DOCUMENTS)]
    with app.app_context(), db.transaction() as conn:
        for doc, index in zip(docs, indexed, strict=True):
            if index:  # as save_recognized does; the others are documents recognized before migration 0027
                save_vocabulary(conn, doc, load_document(conn, doc))
    return project_id, docs, account


def _targeted(app, project_id: int):
    with app.app_context():
        return reannotate_changed(db.transaction, project_id)


op = st.one_of(
    st.tuples(st.just("word"), st.sampled_from(CONDITIONS), st.sampled_from(CONFIDENCES), st.booleans()),
    st.tuples(st.just("ne"), st.sampled_from(TYPES), st.sampled_from(CONFIDENCES), st.booleans()),
    st.tuples(st.just("confidence"), st.integers(0, 50), st.sampled_from(CONFIDENCES)),
    st.tuples(st.just("reword"), st.integers(0, 50), st.sampled_from(CONDITIONS)),
    st.tuples(st.just("case"), st.integers(0, 50)),
    st.tuples(st.just("delete"), st.integers(0, 50)),
    st.tuples(st.just("rescope"), st.integers(0, 50)),  # a lookup rule widened or narrowed (a new label)
    st.tuples(st.just("decide"), st.integers(0, len(DOCUMENTS) - 1), st.integers(0, 40), st.integers(1, 2),
              st.sampled_from(["PUBLIC", "PRIVATE"]), st.sampled_from(["token", "word_type", "ne_type"])),
    st.tuples(st.just("run")),
)


def _apply_op(app, project_id: int, docs: list[int], account: int, o: tuple) -> None:
    kind = o[0]
    if kind == "run":
        _targeted(app, project_id)
        return
    rules = [r["id"] for r in sql(app, "SELECT id FROM rule WHERE project_id = %s ORDER BY id", (project_id,))]
    if kind == "word":
        sql(app, "INSERT INTO rule (project_id, type, condition, confidence, case_sensitive) VALUES "
                 "(%s, 'WORD_TYPE', %s, %s, %s) ON CONFLICT DO NOTHING", (project_id, o[1], o[2], o[3]))
    elif kind == "ne":
        # a second rule of a type (other case flag) is shadowed by the older one, in both runs
        sql(app, "INSERT INTO rule (project_id, type, condition, confidence, case_sensitive) VALUES "
                 "(%s, 'NE_TYPE', %s, %s, %s) ON CONFLICT DO NOTHING", (project_id, o[1], o[2], o[3]))
    elif kind in ("confidence", "reword", "case", "delete", "rescope") and rules:
        rule = rules[o[1] % len(rules)]
        if kind == "confidence":
            sql(app, "UPDATE rule SET confidence = %s WHERE id = %s", (o[2], rule))
        elif kind == "reword":
            sql(app, "UPDATE rule r SET condition = %s WHERE id = %s AND type = 'WORD_TYPE' AND NOT EXISTS "
                     "(SELECT 1 FROM rule o WHERE o.project_id = r.project_id AND o.type = r.type AND o.condition = %s "
                     "AND o.case_sensitive = r.case_sensitive AND o.annotation_id IS NULL)", (o[2], rule, o[2]))
        elif kind == "case":
            sql(app, "UPDATE rule r SET case_sensitive = NOT case_sensitive WHERE id = %s AND NOT EXISTS "
                     "(SELECT 1 FROM rule o WHERE o.project_id = r.project_id AND o.type = r.type "
                     "AND o.condition = r.condition AND o.case_sensitive <> r.case_sensitive "
                     "AND o.annotation_id IS NULL)", (rule,))
        elif kind == "rescope":
            sql(app, "UPDATE rule SET document_only = NOT document_only WHERE id = %s AND annotation_id IS NOT NULL",
                (rule,))
        else:
            sql(app, "DELETE FROM rule WHERE id = %s", (rule,))
    elif kind == "decide":
        _, d, first, length, decision, scope = o
        doc = docs[d]
        count = sql(app, "SELECT token_count FROM document WHERE id = %s", (doc,))[0]["token_count"]
        first = first % count
        end = min(first + length, count)
        with app.app_context(), db.transaction() as conn:
            document = load_document(conn, doc)
            tokens = [document.text[t.start:t.end] for t in document.tokens[first:end]]
            span = store_decisions.Span(project_id, doc, first, end)
            try:
                out = store_decisions.decide(conn, span, store_decisions.Scope(scope), decision, account, tokens)
            except store_decisions.DecisionError:
                conn.rollback()
                return
            # as psan.annotate.workflow.write: this document gets the rules at once, the others from the run
            apply_new_rules(conn, doc, out.changed_rule_ids + out.removed_rule_ids,
                            affected_annotation_ids=out.affected_annotation_ids)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=st.lists(op, min_size=1, max_size=14), indexed=st.lists(st.booleans(), min_size=len(DOCUMENTS),
                                                                   max_size=len(DOCUMENTS)))
def test_targeted_run_leaves_what_the_full_run_leaves(clean_app, ops, indexed):
    app = clean_app
    project_id, docs, account = _build(app, indexed)
    _targeted(app, project_id)  # brings the documents in line with the project's NE-type rules
    for o in ops:
        _apply_op(app, project_id, docs, account, o)
    _targeted(app, project_id)
    assert sql(app, "SELECT count(*) AS n FROM rule_change WHERE project_id = %s", (project_id,))[0]["n"] == 0
    _assert_a_full_run_changes_nothing(app, project_id)


def _assert_a_full_run_changes_nothing(app, project_id: int) -> None:
    """The targeted runs left what a full run of every rule over every document leaves."""
    targeted = project_snapshot(app, project_id)
    with app.app_context():
        reannotate_project(db.transaction, project_id)
    assert project_snapshot(app, project_id) == targeted


def test_a_word_rule_re_annotates_only_the_documents_with_its_words(clean_app):
    app = clean_app
    project_id, docs, _ = _build(app, [True] * len(DOCUMENTS))
    _targeted(app, project_id)
    sql(app, "INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'WORD_TYPE', 'Harper', -1)",
        (project_id,))
    result = _targeted(app, project_id)
    assert sorted(result.documents) == [docs[0], docs[2]] and result.changes == 1 and not result.full
    # case-insensitive "harper" is looked up case-folded: the same documents
    sql(app, "INSERT INTO rule (project_id, type, condition, case_sensitive) VALUES (%s, 'WORD_TYPE', 'harper', "
             "false)", (project_id,))
    assert sorted(_targeted(app, project_id).documents) == [docs[0], docs[2]]
    # an NE-type rule: the documents with entities of the type
    sql(app, "UPDATE rule SET confidence = -1 WHERE project_id = %s AND type = 'NE_TYPE' AND condition = 'ORG'",
        (project_id,))
    assert sorted(_targeted(app, project_id).documents) == [docs[1], docs[4]]
    # deleted: the documents where it matched; a word no document has: none
    sql(app, "DELETE FROM rule WHERE project_id = %s AND condition = 'Harper'", (project_id,))
    sql(app, "INSERT INTO rule (project_id, type, condition) VALUES (%s, 'WORD_TYPE', 'Zzyzx')", (project_id,))
    assert sorted(_targeted(app, project_id).documents) == [docs[0], docs[2]]
    # nothing pending: nothing done; a queued run after it is a no-op
    assert _targeted(app, project_id).documents == []
    # a LEMMA rule needs every document (the lemmatizer runs over all tokens)
    sql(app, "INSERT INTO rule (project_id, type, condition) VALUES (%s, 'LEMMA', 'novák')", (project_id,))
    result = _targeted(app, project_id)
    assert result.full and sorted(result.documents) == sorted(docs)


def test_a_decision_marks_its_own_document_and_the_run_leaves_it_out(clean_app):
    app = clean_app
    project_id, docs, account = _build(app, [True] * len(DOCUMENTS))
    _targeted(app, project_id)
    # "Novák" PRIVATE by word type in document 1: its rule reaches documents 1, 2 and 4; 1 has it already
    _apply_op(app, project_id, docs, account, ("decide", 1, 1, 1, "PRIVATE", "word_type"))
    marked = sql(app, "SELECT DISTINCT applied_document_id AS d FROM rule_change WHERE project_id = %s", (project_id,))
    assert [r["d"] for r in marked] == [docs[1]]
    before = project_snapshot(app, project_id)
    result = _targeted(app, project_id)
    assert sorted(result.documents) == [docs[2], docs[4]]
    assert [r for r in project_snapshot(app, project_id) if r[0] == docs[1]] == [r for r in before if r[0] == docs[1]]
    _assert_a_full_run_changes_nothing(app, project_id)


def test_a_deleted_project_leaves_no_pending_changes(clean_app):
    app = clean_app
    project_id, _, _ = _build(app, [False] * len(DOCUMENTS))
    assert sql(app, "SELECT count(*) AS n FROM rule_change WHERE project_id = %s", (project_id,))[0]["n"] > 0
    sql(app, "DELETE FROM project WHERE id = %s", (project_id,))
    assert sql(app, "SELECT count(*) AS n FROM rule_change WHERE project_id = %s", (project_id,))[0]["n"] == 0


def test_the_sweeper_takes_projects_whose_changes_no_run_applied(clean_app):
    from psan.store.corpus.processing import take_reannotation_requests
    app = clean_app
    project_id = sql(app, "INSERT INTO project (name) VALUES ('stale changes') RETURNING id")[0]["id"]
    sql(app, "INSERT INTO rule (project_id, type, condition) VALUES (%s, 'WORD_TYPE', 'Harper')", (project_id,))
    with app.app_context(), db.transaction() as conn:
        assert project_id not in take_reannotation_requests(conn)
    sql(app, "UPDATE rule_change SET created_at = now() - interval '1 hour' WHERE project_id = %s", (project_id,))
    with app.app_context(), db.transaction() as conn:
        assert project_id in take_reannotation_requests(conn)


def test_a_decision_while_a_run_works_keeps_its_rules_on_its_document(clean_app, monkeypatch):
    """A run whose rules are older than a decision on a document does not write them over the decision's.

    A decision applies its changed rules to its own document at once and marks its change rows with
    that document, so runs leave the document out for them (MARK_APPLIED).  A run that had loaded the
    rules just before (here: an annotator's "by NE type" on "London" while the run's rules were read)
    and re-annotated the document just after wrote the older levels back, and no later run took the
    document again: "London" stayed suspicious after the decision had made it private.  Seen as a
    flaky web test (test_a_persons_public_word_type_rule_beats_a_learned_private_type, the session's
    Celery worker running the debounced run while the type was learned).
    """
    import psan.store.corpus.rule_changes as rule_changes
    app = clean_app
    project_id, docs, account = _build(app, [True] * len(DOCUMENTS))
    _targeted(app, project_id)
    london = [r["first_token"] for r in sql(app, "SELECT first_token FROM annotation a JOIN rule r ON r.type = "
                                                 "'NE_TYPE' AND r.condition = 'GPE' AND r.project_id = %s JOIN "
                                                 "annotation_rule ar ON ar.annotation_id = a.id AND ar.rule_id = r.id "
                                                 "WHERE a.document_id = %s ORDER BY 1", (project_id, docs[2]))]
    assert london  # "London" and "Praha": suspicious entities of a type nobody decided yet
    # a pending change the run re-annotates document 2 for ("Harper" is there)
    sql(app, "INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'WORD_TYPE', 'Harper', -1)",
        (project_id,))
    loaded = rule_changes.load_ruleset
    decided: list[bool] = []

    def rules_then_a_decision(conn, project):
        ruleset = loaded(conn, project)
        if not decided:  # the annotator's request commits between the run's reading of the rules and its writing
            decided.append(True)
            _apply_op(app, project_id, docs, account, ("decide", 2, london[0], 1, "PRIVATE", "ne_type"))
        return ruleset

    monkeypatch.setattr(rule_changes, "load_ruleset", rules_then_a_decision)
    _targeted(app, project_id)
    assert decided
    levels = sql(app, "SELECT first_token, rule_level FROM annotation WHERE document_id = %s AND first_token = "
                      "ANY(%s) ORDER BY 1", (docs[2], london))
    assert [r["rule_level"] for r in levels] == [-1.0] * len(london)  # the decision's type rule, on every GPE
    monkeypatch.setattr(rule_changes, "load_ruleset", loaded)
    _assert_a_full_run_changes_nothing(app, project_id)
