"""The stored per-project model (psan.store.corpus.project_model): signature check, automatic retrain schedule."""
from __future__ import annotations

from psan.celery import scheduling
from psan.celery.model_tasks import model_key
from psan.runtime import db
from psan.store.corpus import project_model as store_model
from tests.documents import add_document, annotation
from tests.helpers import account_id, make_account, sql
from tests.model_training import TRAINING, decide_term_private, model_project, train_in_process


def test_model_signed_with_another_key_is_refused(clean_app):
    app = clean_app
    pid = model_project(app, "Foreign key")
    from psan.tool.detection.classifier import TokenClassifier
    model = TokenClassifier.train([(TRAINING[0], [(24, 39)])], "en")
    for data in (model.to_bytes(), model.to_bytes(b"another key")):
        sql(app, "INSERT INTO project_model (project_id, model) VALUES (%s, %s) RETURNING id", (pid, data))
        with app.app_context(), db.transaction() as conn:
            assert store_model.load_model(conn, pid, model_key()) is None


def test_retrain_is_scheduled_after_enough_decisions(clean_app, monkeypatch):
    app = clean_app
    pid = model_project(app, "Auto")
    make_account(app, "admin@example.org", "ADMIN")
    documents = [add_document(app, text, (), project_id=pid, name=f"d{n}.txt") for n, text in enumerate(TRAINING[:3])]
    queued: list[int] = []
    monkeypatch.setattr(scheduling, "schedule_retrain", lambda project_id, force=False: queued.append(project_id)
                        or True)
    monkeypatch.setitem(app.config, "MODEL_RETRAIN_AFTER_DECISIONS", 3)
    for n, document_id in enumerate(documents):
        decide_term_private(app, pid, document_id, "admin@example.org")
        with app.app_context(), db.transaction() as conn:
            scheduling.maybe_schedule_retrain(conn, pid)
        assert queued == ([pid] if n == 2 else [])
    # a model that saw these decisions resets the count; 0 turns automatic retraining off
    train_in_process(app, pid)
    sql(app, "UPDATE project_model SET meta = jsonb_set(meta, '{decision_log_id}', to_jsonb((SELECT max(id) "
             "FROM decision_log))) WHERE project_id = %s RETURNING id", (pid,))
    queued.clear()
    with app.app_context(), db.transaction() as conn:
        assert scheduling.maybe_schedule_retrain(conn, pid) is False
    monkeypatch.setitem(app.config, "MODEL_RETRAIN_AFTER_DECISIONS", 0)
    with app.app_context(), db.transaction() as conn:
        assert scheduling.maybe_schedule_retrain(conn, pid) is False
    assert queued == []


def test_retrain_keeps_model_spans_a_rule_makes_private(clean_app):
    """Fail closed: a model span masked by a rule (the person's NE-type decision on MODEL, say) is not dropped by
    a retrain or by switching the model off; a suspicious one (nobody finished its window) may be replaced."""
    app = clean_app
    pid = model_project(app, "Keep masked")
    document_id = add_document(app, TRAINING[0], (), project_id=pid, name="d.txt")
    for first, end, level in ((1, 3, -10.0), (4, 5, 0.0)):
        sql(app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                 "VALUES (%s, %s, %s, 'MODEL', 'PERSON', 'model', 0.9) RETURNING id", (document_id, first, end))
        sql(app, "INSERT INTO annotation (document_id, first_token, end_token, rule_level) VALUES (%s, %s, %s, %s) "
                 "ON CONFLICT (document_id, first_token, end_token) DO UPDATE SET rule_level = EXCLUDED.rule_level "
                 "RETURNING id", (document_id, first, end, level))
    with app.app_context(), db.transaction() as conn:
        assert [(r["first_token"], r["end_token"]) for r in store_model.masked_model_spans(conn, document_id)] \
            == [(1, 3)]
        assert store_model.refresh_document_predictions(conn, document_id, None) is True
    left = sql(app, "SELECT first_token, end_token, type, category, source FROM named_entity WHERE document_id = %s "
                    "AND source = 'model'", (document_id,))
    assert [(r["first_token"], r["end_token"], r["type"], r["category"]) for r in left] == [(1, 3, "MODEL", "PERSON")]
    with app.app_context(), db.transaction() as conn:  # nothing more to drop: no change, no reload
        assert store_model.refresh_document_predictions(conn, document_id, None) is False


def test_refresh_keeps_what_a_pretrained_classifier_found(clean_app):
    """Fail closed: a pre-trained classifier's spans (a pipeline recognizer, source ``classifier``) are detections
    found at pre-processing; retraining or switching off the project's own model replaces only that model's spans.
    (They once shared the source ``model`` and were deleted by the project's first retrain, in every document.)"""
    app = clean_app
    pid = model_project(app, "Keep pretrained")
    document_id = add_document(app, TRAINING[0], (), project_id=pid, name="d.txt")
    for first, end, source in ((1, 3, "classifier"), (4, 5, "model")):
        sql(app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                 "VALUES (%s, %s, %s, 'MODEL', 'PERSON', %s, 0.9) RETURNING id", (document_id, first, end, source))
    with app.app_context(), db.transaction() as conn:
        assert store_model.refresh_document_predictions(conn, document_id, None) is True
    left = sql(app, "SELECT first_token, end_token, source FROM named_entity WHERE document_id = %s AND type = 'MODEL' "
                    "ORDER BY first_token", (document_id,))
    assert [(r["first_token"], r["end_token"], r["source"]) for r in left] == [(1, 3, "classifier")]
    with app.app_context(), db.transaction() as conn:
        assert store_model.refresh_document_predictions(conn, document_id, None) is False


def test_model_proposes_no_new_span_once_people_decided_enough_of_them_public(clean_app):
    """Verdicts on spans only the model proposed are logged as such (a retrain replaces the entities) and, once
    twenty are public and none private, the serving model proposes no new span; a span a recognizer found too
    is no evidence."""
    from psan.store.annotation.decisions import Scope, Span, decide
    from psan.tool.detection.classifier.gate import MAX_NEW_SPANS_PER_WINDOW, NEW_SPAN_EVIDENCE
    app = clean_app
    pid = model_project(app, "New spans")
    make_account(app, "admin@example.org", "ADMIN")
    words = " ".join(f"Word{n}" for n in range(NEW_SPAN_EVIDENCE + 2))
    document_id = add_document(app, words, (), project_id=pid, name="d.txt")
    for n in range(NEW_SPAN_EVIDENCE + 1):
        sql(app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                 "VALUES (%s, %s, %s, 'MODEL', 'OTHER', 'model', 0.9) RETURNING id", (document_id, n, n + 1))
    sql(app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
             "VALUES (%s, 0, 1, 'ORG', 'ORGANIZATION', 'spacy', 0.9) RETURNING id", (document_id,))
    train_in_process(app, pid)
    who = account_id(app, "admin@example.org")

    def decide_public(first: int) -> None:
        with app.app_context(), db.transaction() as conn:
            decide(conn, Span(pid, document_id, first, first + 1), Scope.TOKEN, "PUBLIC", who, [f"Word{first}"])

    def limits() -> int:
        with app.app_context(), db.transaction() as conn:
            serving = store_model.serving_model(conn, pid, model_key())
            assert serving is not None
            return serving[1].new_spans

    for first in range(NEW_SPAN_EVIDENCE):  # token 0 also has a recognizer's span: not counted
        decide_public(first)
    with app.app_context(), db.transaction() as conn:
        assert store_model.new_span_verdicts(conn, pid) == (0, NEW_SPAN_EVIDENCE - 1)
    assert limits() == MAX_NEW_SPANS_PER_WINDOW
    sql(app, "DELETE FROM named_entity WHERE document_id = %s AND source = 'model' AND first_token < 5 RETURNING id",
        (document_id,))  # a retrain dropped some of them: their verdicts still count
    decide_public(NEW_SPAN_EVIDENCE)
    with app.app_context(), db.transaction() as conn:
        assert store_model.new_span_verdicts(conn, pid) == (0, NEW_SPAN_EVIDENCE)
    assert limits() == 0


def test_undecided_new_spans_are_withdrawn_once_the_model_stops_proposing_them(clean_app, monkeypatch):
    """The verdict that stops the model's new spans queues one refresh of its predictions at once (not at the next
    retrain), which drops the new spans nobody decided; decided ones and rule-private ones stay."""
    from psan.celery import model_tasks
    from psan.store.annotation.decisions import Scope, Span, decide
    from psan.tool.detection.classifier.gate import NEW_SPAN_EVIDENCE
    app = clean_app
    pid = model_project(app, "Withdraw")
    make_account(app, "admin@example.org", "ADMIN")
    count = NEW_SPAN_EVIDENCE + 3
    document_id = add_document(app, " ".join(f"Word{n}" for n in range(count)), (), project_id=pid, name="d.txt")
    for n in range(count):  # new spans; the last two undecided, one of them private by a rule
        sql(app, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                 "VALUES (%s, %s, %s, 'MODEL', 'OTHER', 'model', 0.9) RETURNING id", (document_id, n, n + 1))
    for n, level in ((count - 2, 0.0), (count - 1, -10.0)):
        sql(app, "INSERT INTO annotation (document_id, first_token, end_token, rule_level) VALUES (%s, %s, %s, %s) "
                 "RETURNING id", (document_id, n, n + 1, level))
    model_id = train_in_process(app, pid)
    who = account_id(app, "admin@example.org")
    queued: list[tuple] = []
    monkeypatch.setattr(model_tasks.model_predictions_project, "apply_async", lambda args: queued.append(args))

    def decide_public(first: int) -> bool:
        with app.app_context(), db.transaction() as conn:
            outcome = decide(conn, Span(pid, document_id, first, first + 1), Scope.TOKEN, "PUBLIC", who,
                             [f"Word{first}"])
        assert outcome.model_only
        with app.app_context(), db.transaction() as conn:
            return scheduling.maybe_withdraw_new_spans(conn, pid)

    assert not any(decide_public(first) for first in range(NEW_SPAN_EVIDENCE - 1))
    assert queued == []
    assert decide_public(NEW_SPAN_EVIDENCE - 1) is True
    assert queued == [(pid, model_id)]
    assert decide_public(NEW_SPAN_EVIDENCE) is False  # once per model
    assert queued == [(pid, model_id)]
    with app.app_context():
        model_tasks.model_predictions_project(pid, model_id)
    left = {r["first_token"] for r in sql(app, "SELECT first_token FROM named_entity WHERE document_id = %s "
                                               "AND source = 'model'", (document_id,))}
    assert count - 2 not in left and count - 1 in left
    assert annotation(app, document_id, count - 2, count - 1) is None
    assert annotation(app, document_id, 0, 1)["token_decision"] == "PUBLIC"
    sql(app, "DELETE FROM named_entity WHERE document_id = %s AND first_token = %s RETURNING id",
        (document_id, count - 1))  # (its masking rule is this test's stand-in: drop it)
    with app.app_context(), db.transaction() as conn:  # nothing left to withdraw
        assert store_model.new_spans_to_withdraw(conn, pid) is None
