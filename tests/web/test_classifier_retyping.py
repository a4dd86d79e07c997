"""Migration 0045: the pre-trained classifier's spans stored as ``MODEL`` take the type it writes now, and are learned.

Why: before its spans were typed ``CLS_<CATEGORY>_<SHAPE>`` (psan.tool.detection.classifier.span_types) the
classifier stored them as ``MODEL``, which the app never decides by type: each cost a person a judgment until its
document was recognized again.  On the real database: a document stored as the old code stored it, people's
decisions on it, the migration's own step (as yoyo runs it), the project run it schedules, then the annotation API.
"""
from __future__ import annotations

import psycopg2
import pytest
from yoyo import read_migrations

from psan.runtime import db
from psan.runtime.paths import migrations_dir
from psan.store.annotation.suggestions import forget_statistics
from psan.store.corpus.processing import take_reannotation_requests
from psan.store.corpus.rule_changes import reannotate_changed
from psan.tool.decisions.suggest import LEARN_TYPE_AFTER
from psan.tool.detection.classifier.span_types import typed_spans
from psan.tool.text.document import Category, CharSpan, Document
from psan.tool.text.tokens import tokenize
from tests.documents import add_document, annotation
from tests.helpers import default_project, sql
from tests.web.helpers import annotator_client, api_decide, api_window

ANNOTATOR = "annotator@example.org"
#: names inside a sentence (CAP): enough to teach the type with decisions made before the migration and after it
NAMES = LEARN_TYPE_AFTER + 3
#: decided PRIVATE while still MODEL: they count for the new type once retyped
DECIDED_BEFORE = 4
#: a capital with a diacritic opening a sentence (INITIAL, a capital PostgreSQL's C locale does not know), one after
#: a quote (INITIAL: the sentence's first word), a lower-case word (LOWER), a number (NUM)
TAIL = "Čapek přišel. „Tatarčuk tu byl,“ řekl soused 12345. Brno je město."
TAIL_SPANS = {"Čapek": "CLS_PERSON_INITIAL", "Tatarčuk": "CLS_PERSON_INITIAL", "soused": "CLS_PERSON_LOWER",
              "12345": "CLS_PERSON_NUM"}


@pytest.fixture()
def annotator(clean_app):
    return annotator_client(clean_app, ANNOTATOR, window_size=1000)


def _migration_0045():
    """Migration 0045's module as yoyo loads it (its ``retype`` is the step ``flask db upgrade`` runs)."""
    migration = next(m for m in read_migrations(str(migrations_dir())) if m.id.startswith("0045."))
    migration.load()
    return migration.module


def _run_migration(app) -> dict[str, int]:
    """The migration's step on a plain connection, in one transaction (as yoyo runs it)."""
    conn = psycopg2.connect(app.config["DATABASE_URL"])
    try:
        with conn:
            return _migration_0045().retype(conn)
    finally:
        conn.close()


def _old_document(app) -> tuple[int, dict[str, int]]:
    """A document as the code before the types stored it: the classifier's spans ``MODEL``, source ``classifier``,
    category PERSON; "Brno" the project model's (source ``model``).  Its token index by word."""
    text = " ".join(f"Dnes Jméno{i} přišel." for i in range(NAMES)) + " " + TAIL
    tokens, _ = tokenize(text, "cs")
    index = {text[t.start:t.end]: t.id for t in tokens}
    words = [f"Jméno{i}" for i in range(NAMES)] + [*TAIL_SPANS, "Brno"]
    doc = add_document(app, text, spans=[(index[w], index[w] + 1, "MODEL") for w in words], language="cs")
    sql(app, "UPDATE named_entity SET source = CASE WHEN first_token = %s THEN 'model' ELSE 'classifier' END, "
             "category = 'PERSON' WHERE document_id = %s", (index["Brno"], doc))
    # stamped as a recognition stamps it (psan.store.corpus.documents.save_recognized): processes cache it by that
    sql(app, "UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (doc,))
    return doc, index


def _expected_types(app, doc: int) -> dict[int, str]:
    """What the classifier writes for these spans now, computed from the text alone (the pipeline's tokenizer)."""
    text = sql(app, "SELECT text FROM document WHERE id = %s", (doc,))[0]["text"]
    tokens, sentences = tokenize(text, "cs")
    rows = sql(app, "SELECT first_token FROM named_entity WHERE document_id = %s AND source = 'classifier' "
                    "ORDER BY first_token", (doc,))
    spans = [CharSpan(tokens[r["first_token"]].start, tokens[r["first_token"]].end, "MODEL", Category.PERSON,
                      "classifier") for r in rows]
    typed = typed_spans(text, Document(text, tokens, list(sentences), [], "cs"), spans)
    return {r["first_token"]: s.type for r, s in zip(rows, typed, strict=True)}


def _decide(app, client, doc: int, first: int, decision: str) -> None:
    assert api_window(client)[1]["window"]["document_id"] == doc
    assert api_decide(client, doc, first, first + 1, decision)[0] == 200


def _decisions(app, doc: int) -> list[dict]:
    return sql(app, "SELECT first_token, end_token, token_decision::text AS decision, token_label_id, decided_by, "
                    "decided_at FROM annotation WHERE document_id = %s AND token_decision IS NOT NULL "
                    "ORDER BY first_token", (doc,))


def test_old_classifier_spans_take_their_types_and_are_learned_with_every_decision_kept(clean_app, annotator):
    doc, index = _old_document(clean_app)
    names = [index[f"Jméno{i}"] for i in range(NAMES)]
    for first in names[:DECIDED_BEFORE]:
        _decide(clean_app, annotator, doc, first, "PRIVATE")
    _decide(clean_app, annotator, doc, index["soused"], "PUBLIC")
    _decide(clean_app, annotator, doc, index["Brno"], "PRIVATE")
    decided, logged = _decisions(clean_app, doc), sql(clean_app, "SELECT * FROM decision_log ORDER BY id")
    lookups = sql(clean_app, "SELECT * FROM rule WHERE annotation_id IS NOT NULL ORDER BY id")  # "these words"

    assert _run_migration(clean_app) == {"spans": NAMES + len(TAIL_SPANS), "documents": 1, "kept": 0}
    with clean_app.app_context():
        assert doc in reannotate_changed(db.transaction, default_project(clean_app)).documents  # scheduled run
    forget_statistics()  # a process started after the migration: it counts the decided spans by their new types

    types = {r["first_token"]: r["type"] for r in sql(
        clean_app, "SELECT first_token, type FROM named_entity WHERE document_id = %s AND source = 'classifier'",
        (doc,))}
    assert types == _expected_types(clean_app, doc)
    assert {types[index[w]] for w in TAIL_SPANS} == set(TAIL_SPANS.values())
    assert {types[i] for i in names} == {"CLS_PERSON_CAP"}
    assert sql(clean_app, "SELECT type FROM named_entity WHERE source = 'model'") == [{"type": "MODEL"}]
    # people's decisions are as they were; the annotations' rule links follow the new types
    assert _decisions(clean_app, doc) == decided
    assert sql(clean_app, "SELECT * FROM decision_log ORDER BY id") == logged
    assert sql(clean_app, "SELECT * FROM rule WHERE annotation_id IS NOT NULL ORDER BY id") == lookups != []
    links = sql(clean_app, "SELECT a.first_token, r.condition FROM annotation_rule ar JOIN annotation a "
                           "ON a.id = ar.annotation_id JOIN rule r ON r.id = ar.rule_id WHERE r.type = 'NE_TYPE'")
    assert {(r["first_token"], r["condition"]) for r in links} == {*types.items(), (index["Brno"], "MODEL")}

    # what the annotator's window shows (processes cache the document by its recognition: the migration moved it on)
    shown = {a["first_token"]: a["ne_types"] for a in api_window(annotator)[1]["annotations"]}
    assert shown[index["Tatarčuk"]] == ["CLS_PERSON_INITIAL"] and shown[index["Brno"]] == ["MODEL"]

    # the decisions made on the spans as MODEL count for their type: the rest of ten teaches it
    for first in names[DECIDED_BEFORE:LEARN_TYPE_AFTER]:
        _decide(clean_app, annotator, doc, first, "PRIVATE")
    assert sql(clean_app, "SELECT confidence FROM rule WHERE type = 'NE_TYPE' AND condition = 'CLS_PERSON_CAP'") == [
        {"confidence": -1.0}]
    for first in names[LEARN_TYPE_AFTER:]:
        row = annotation(clean_app, doc, first, first + 1)
        assert row["token_decision"] is None and row["rule_level"] == -1.0  # masked without a judgment
    assert annotation(clean_app, doc, index["Tatarčuk"], index["Tatarčuk"] + 1)["rule_level"] == 0  # another type


@pytest.mark.parametrize("choice", [
    "UPDATE rule SET confidence = -1 WHERE condition = 'MODEL'",  # the admin's rules page, or "by type"
    "UPDATE project SET sensitive_types = '{MODEL}'"])  # the admin's sensitive list
def test_a_project_that_chose_something_for_model_keeps_it(clean_app, choice):
    doc, _ = _old_document(clean_app)
    sql(clean_app, choice)
    before = sql(clean_app, "SELECT * FROM annotation ORDER BY id")

    assert _run_migration(clean_app) == {"spans": 0, "documents": 0, "kept": NAMES + len(TAIL_SPANS)}
    assert {r["type"] for r in sql(clean_app, "SELECT type FROM named_entity WHERE document_id = %s", (doc,))} == {
        "MODEL"}
    assert sql(clean_app, "SELECT * FROM rule WHERE condition LIKE 'CLS%%'") == []
    assert sql(clean_app, "SELECT * FROM annotation ORDER BY id") == before


def test_a_type_the_project_learned_already_masks_the_retyped_spans_at_the_next_run(clean_app):
    """Documents recognized since the types came made their rules; the classifier types private by the project's
    learning (CAP here) mask the old document's spans once the run the migration scheduled has re-annotated it."""
    doc, index = _old_document(clean_app)
    project = default_project(clean_app)
    for ne_type in ("CLS_PERSON_CAP", *TAIL_SPANS.values()):
        sql(clean_app, "INSERT INTO rule (project_id, type, condition, confidence) VALUES (%s, 'NE_TYPE', %s, %s) "
                       "ON CONFLICT DO NOTHING", (project, ne_type, -1.0 if ne_type == "CLS_PERSON_CAP" else 0.0))
    sql(clean_app, "DELETE FROM rule_change")  # those documents' runs are done

    _run_migration(clean_app)
    assert annotation(clean_app, doc, index["Jméno0"], index["Jméno0"] + 1)["rule_level"] == 0  # until the run
    with clean_app.app_context():
        with db.transaction() as conn:
            assert take_reannotation_requests(conn) == [project]  # the sweeper's next pass schedules it
        assert reannotate_changed(db.transaction, project).documents == [doc]
    for i in range(NAMES):
        row = annotation(clean_app, doc, index[f"Jméno{i}"], index[f"Jméno{i}"] + 1)
        assert row["token_decision"] is None and row["rule_level"] == -1.0
    assert annotation(clean_app, doc, index["Brno"], index["Brno"] + 1)["rule_level"] == 0  # the project model's
