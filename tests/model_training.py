"""A project whose pipeline has no NER, its domain term and a real signed model trained in process.

Why: the per-project model tests (web and store) need the term "Projekt Kestrel" found by nothing but the model.
"""
from __future__ import annotations

import json

from psan.celery.model_tasks import model_key
from psan.runtime import db
from psan.store.annotation.decisions import Scope, Span, decide
from psan.store.corpus import project_model as store_model
from tests.documents import token_index
from tests.helpers import account_id, new_project, sql

PIPELINE = {"tokenizer": "regex", "ner": []}
TERM = ("Projekt", "Kestrel")
TRAINING = [
    "The committee discussed Projekt Kestrel on Monday. The budget was approved by the board.",
    "Funding for Projekt Kestrel was delayed. The report mentions the London office and the new budget.",
    "Our team reviewed the contract. Projekt Kestrel remains confidential until March.",
    "Minutes of the meeting: the chair opened the session. Projekt Kestrel staff joined later.",
    "The Board approved the annual plan. Work on Projekt Kestrel continues in Brno.",
    "Nobody outside the group may read about Projekt Kestrel. The Director signed the memo on Friday.",
]
#: more documents: a project model serves only after 500 decided training tokens and a held-out evaluation
#: (psan.tool.detection.classifier.gate), so the tests give it a project's worth of reviewed documents
_MORE = ("The auditors praised the careful accounts of the year.", "Lunch was served in the small hall at noon.",
         "Several members asked for the figures again.", "The printer on the second floor was repaired.",
         "A short break followed the long discussion.", "Everyone agreed to meet again next month.")
TRAINING += [f"{_MORE[n % len(_MORE)]} {TRAINING[n % 6]} {_MORE[(n + 3) % len(_MORE)]}" for n in range(42)]


def model_project(app, name: str = "Model project") -> int:
    pid = new_project(app, name)
    sql(app, "UPDATE project SET pipeline = %s WHERE id = %s", (json.dumps(PIPELINE), pid))
    return pid


def decide_term_private(app, pid: int, document_id: int, email: str) -> None:
    first = token_index(app, document_id, TERM[0])
    with app.app_context(), db.transaction() as conn:
        decide(conn, Span(pid, document_id, first, first + len(TERM)), Scope.TOKEN, "PRIVATE",
               account_id(app, email), list(TERM))


def train_in_process(app, pid: int) -> int:
    """A real signed model of the project, trained and stored without the worker."""
    from psan.tool.detection.classifier import TokenClassifier, examples_from_decisions  # loads the ML stack
    docs = []
    for text in TRAINING:
        start = text.index(" ".join(TERM))
        docs.append(examples_from_decisions(text, [(start, start + len(" ".join(TERM)))], undecided="negative"))
    model = TokenClassifier.train(docs, "en")
    with app.app_context(), db.transaction() as conn:
        # as if it had passed its held-out evaluation (psan.tool.detection.classifier.gate), so it serves
        return store_model.save_model(conn, pid, model, {**model.meta, "decision_log_id": 0, "decisions_count": 0,
                                                         "serves": True, "serve_reason": "test model"}, model_key())


#: five short reviewed documents: about 130 decided tokens for training, one held out (too few to beat the rules)
SMALL = [f"Projekt Kestrel was discussed on day {n}. The board met again. Nothing else was said about it."
         for n in range(6)]


def small_model_project(app, email: str, extra: tuple[str, ...] = ()) -> tuple[int, list[int], dict]:
    """A project whose model trained on :data:`SMALL` (about 130 decided tokens) and then predicted; ``extra``:
    texts of documents nobody decided, added before.  Returns the project, the extra documents, the model's meta."""
    from psan.celery.model_tasks import model_predictions_project, retrain_model
    from tests.documents import add_document
    pid = model_project(app, "Small model")
    for document_id in [add_document(app, text, (), project_id=pid, name=f"s{n}.txt") for n, text in enumerate(SMALL)]:
        decide_term_private(app, pid, document_id, email)
    others = [add_document(app, text, (), project_id=pid, name=f"new{n}.txt") for n, text in enumerate(extra)]
    with app.app_context():
        result = retrain_model.run(pid)
        model_predictions_project.run(pid)
    assert result["trained"] is True and result["serves"] is False, result
    return pid, others, sql(app, "SELECT meta FROM project_model WHERE project_id = %s", (pid,))[0]["meta"]
