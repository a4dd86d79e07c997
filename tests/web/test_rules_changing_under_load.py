"""Rules that change while documents are annotated: a deleted or changed rule fails no run and makes no
decision, and the rule_change triggers record real changes only (re-annotation follows them).

Real PostgreSQL and Redis; the load test runs annotators in threads against one database.
"""
from __future__ import annotations

import threading
import time
from collections import Counter

from psan.runtime import db
from tests.documents import add_document
from tests.helpers import default_project, new_project, sql
from tests.web.helpers import add_rule, annotator_client


# --- a rule deleted while a document is annotated with it ---------------------------------------------------
def _full_reannotation_in_thread(app, doc: int, ruleset, errors: list) -> threading.Thread:
    from psan.store.corpus.reannotate import reannotate_document_now

    def run() -> None:
        try:
            with app.app_context(), db.transaction() as conn:
                reannotate_document_now(conn, doc, ruleset)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_rule_deleted_during_a_full_reannotation(clean_app, database_url):
    """The ForeignKeyViolation seen under load, made deterministic: the rule is deleted (not yet committed) when
    the re-annotation reads the rules, and committed while its links are written."""
    import psycopg2

    from psan.store.admin.rules import load_ruleset
    app = clean_app
    sentences = " ".join(f"Yesterday Svoboda met Novak at {n} o'clock." for n in range(400))
    doc = add_document(app, sentences, [("Novak", "P")])
    project = default_project(app)
    rule = add_rule(app, project, "Svoboda", confidence=-1)
    with app.app_context(), db.transaction() as conn:
        stale = load_ruleset(conn, project)  # a project run reads the rules once, then annotates for minutes
        from psan.store.corpus.reannotate import reannotate_document_now
        reannotate_document_now(conn, doc, stale)
    assert sql(app, "SELECT count(*) AS n FROM annotation_rule WHERE rule_id = %s", (rule,))[0]["n"] == 400
    deleter = psycopg2.connect(database_url)
    try:
        with deleter.cursor() as cur:
            cur.execute("DELETE FROM rule WHERE id = %s", (rule,))  # an annotator's change, not yet committed
        errors: list[BaseException] = []
        thread = _full_reannotation_in_thread(app, doc, stale, errors)
        time.sleep(1.5)  # the run has read the rules and waits for the deleted rule's links
        deleter.commit()
        thread.join(timeout=120)
    finally:
        deleter.close()
    assert not errors, errors
    assert sql(app, "SELECT count(*) AS n FROM annotation_rule WHERE rule_id = %s", (rule,))[0]["n"] == 0
    # the levels are those of the rules that exist: "Svoboda" is no longer private
    levels = sql(app, "SELECT rule_level FROM annotation a JOIN token t ON t.document_id = a.document_id "
                      "AND t.idx = a.first_token WHERE a.document_id = %s AND a.end_token = a.first_token + 1 "
                      "AND substr((SELECT text FROM document WHERE id = %s), t.start_char + 1, 7) = 'Svoboda'",
                 (doc, doc))
    assert all(r["rule_level"] == 0 for r in levels), levels


LOAD_SESSIONS = 12


LOAD_SECONDS = 12.0


#: the load lasts at least LOAD_SECONDS and until this much happened (a slow machine gets more time, up to
#: LOAD_LIMIT_SECONDS, instead of a verdict on a fixed clock)
LOAD_MIN_RUNS = 4


LOAD_MIN_DECISIONS = 51


LOAD_LIMIT_SECONDS = 180.0


def test_rules_changing_under_load_fail_no_run_and_no_decision(busy_app):
    """Annotators change their minds (each PRIVATE makes a lookup rule, each PUBLIC deletes it again)
    while project runs (full and targeted, batched) re-annotate the documents: no run fails, no decision
    answers 500."""
    from psan.store.corpus.reannotate import reannotate_project
    from psan.store.corpus.rule_changes import reannotate_changed
    app = busy_app
    names = ["Novak", "Svoboda", "Dvorak", "Cerny", "Prochazka", "Kucera"]
    docs = [add_document(app, " ".join(f"Yesterday {names[(n + d) % len(names)]} came home at {n} o'clock."
                                       for n in range(300)), [(name, "P") for name in names], name=f"d{d}.txt")
            for d in range(3)]
    clients = [annotator_client(app, f"load{i}@example.org", window_size=20,
                                environ={"REMOTE_ADDR": f"10.1.0.{i + 1}", "HTTP_X_FORWARDED_FOR": f"10.1.0.{i + 1}"})
               for i in range(LOAD_SESSIONS)]
    done = threading.Event()
    statuses: list[tuple[int, dict]] = []
    run_errors: list[BaseException] = []
    runs = [0]

    def annotate(client) -> None:
        window = client.get("/annotate/api/window").get_json()
        spans = [a for a in window["annotations"]]
        decision = "PRIVATE"
        while not done.is_set() and spans:
            span = spans[0]
            response = client.post("/annotate/api/decide", json={
                "document_id": window["window"]["document_id"], "first_token": span["first_token"],
                "end_token": span["end_token"], "decision": decision, "scope": "token"})
            statuses.append((response.status_code, response.get_json() or {}))
            decision = "PUBLIC" if decision == "PRIVATE" else "PRIVATE"

    def reannotate() -> None:
        while not done.is_set():
            try:
                with app.app_context():
                    if runs[0] % 2:
                        reannotate_changed(db.transaction, default_project(app))
                    else:
                        reannotate_project(db.transaction, default_project(app))
                runs[0] += 1
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                run_errors.append(exc)

    threads = [threading.Thread(target=annotate, args=(c,)) for c in clients]
    threads += [threading.Thread(target=reannotate) for _ in range(3)]
    for t in threads:
        t.start()
    started = time.monotonic()
    while time.monotonic() - started < LOAD_LIMIT_SECONDS and not run_errors and not (
            time.monotonic() - started >= LOAD_SECONDS and runs[0] >= LOAD_MIN_RUNS
            and sum(code == 200 for code, _ in statuses) >= LOAD_MIN_DECISIONS):
        time.sleep(0.2)
    done.set()
    for t in threads:
        t.join(timeout=120)
    assert not run_errors, (len(run_errors), runs[0], run_errors[:3])
    codes = Counter(code for code, _ in statuses)
    assert set(codes) <= {200, 409, 423}, codes
    assert all(body.get("error") for code, body in statuses if code != 200)
    assert codes[200] >= LOAD_MIN_DECISIONS and runs[0] >= LOAD_MIN_RUNS, (codes, runs)
    assert sql(app, "SELECT count(*) AS n FROM annotation_rule ar LEFT JOIN rule r ON r.id = ar.rule_id "
                    "WHERE r.id IS NULL")[0]["n"] == 0
    del docs


# --- the rule_change triggers -------------------------------------------------------------------------------
def test_rule_change_triggers_record_insert_matching_updates_and_delete_but_not_idle_updates(clean_app):
    app = clean_app
    pid = default_project(app)
    rule = add_rule(app, pid, "Praha", confidence=1)
    changes = "SELECT old_condition, new_condition FROM rule_change WHERE rule_id = %s ORDER BY id"
    assert sql(app, changes, (rule,)) == [{"old_condition": None, "new_condition": "Praha"}]
    sql(app, "UPDATE rule SET confidence = confidence WHERE id = %s", (rule,))  # nothing that matters changed
    assert len(sql(app, changes, (rule,))) == 1
    sql(app, "UPDATE rule SET condition = 'Brno' WHERE id = %s", (rule,))
    sql(app, "UPDATE rule SET confidence = -1 WHERE id = %s", (rule,))
    sql(app, "DELETE FROM rule WHERE id = %s", (rule,))
    assert sql(app, changes, (rule,)) == [{"old_condition": None, "new_condition": "Praha"},
                                          {"old_condition": "Praha", "new_condition": "Brno"},
                                          {"old_condition": "Brno", "new_condition": "Brno"},
                                          {"old_condition": "Brno", "new_condition": None}]
    other = new_project(app, "Gone")
    add_rule(app, other, "Olomouc")
    sql(app, "DELETE FROM project WHERE id = %s", (other,))  # a deleted project's changes go with it
    assert sql(app, "SELECT count(*) AS n FROM rule_change WHERE project_id = %s", (other,)) == [{"n": 0}]
