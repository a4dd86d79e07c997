"""The dashboard's span counts agree with the release report, which renders the output itself."""
from __future__ import annotations

from psan.runtime import db
from psan.store.annotation.decisions import Scope, Span, decide
from psan.store.annotation.window_content import span_text
from psan.store.corpus.reannotate import reannotate_document_now
from psan.store.publish import release
from psan.store.review import dashboard
from tests.documents import add_document, plain_sentences
from tests.helpers import default_project, make_account


def test_spans_by_how_and_undecided_match_the_release_report(clean_app):
    app = clean_app
    project = default_project(app)
    me = make_account(app, "admin@example.org", "ADMIN").id
    text = "Karel met Jana in Brno. " + plain_sentences(0, 60) + " Karel and Eva left Brno for Praha."
    doc = add_document(app, text, [("Karel", "P"), ("Jana", "P"), ("Eva", "P"), ("Brno", "gu"), ("Praha", "gu")])
    with app.test_request_context(), db.transaction() as conn:
        db.execute("UPDATE rule SET confidence = 1 WHERE condition = 'gu'", None, conn)  # places: pre-annotation
        reannotate_document_now(conn, doc)
        decide(conn, Span(project, doc, 0, 1), Scope.WORD_TYPE, "PRIVATE", me, span_text(conn, doc, 0, 1))
        decide(conn, Span(project, doc, 2, 3), Scope.TOKEN, "PUBLIC", me, span_text(conn, doc, 2, 3))
        reannotate_document_now(conn, doc)
    with app.test_request_context(), db.transaction() as conn:
        summary = dashboard.span_summary(conn, project, 20)
        report = release.project_report(conn, project)
        left = dashboard.windows_left(conn, [project], 20)[project]
        listed = release.undecided_by_category(conn, project)  # the documents page and the keep confirmation
    by_how = {k: v for k, v in summary["by_how"].items() if v}
    assert by_how == report["totals"]["by_how"]
    assert set(by_how) == {"person", "rule", "pre-annotation", "undecided"}
    assert sum(d["total"] for d in summary["documents"]) == report["totals"]["undecided"]["total"]
    assert dashboard.undecided_by_category(summary["documents"]) == report["totals"]["undecided"]["by_category"]
    assert {d["id"]: d["by_category"] for d in summary["documents"]} == listed
    # the person's own decisions per category: the first Karel private (the second is the rule's), Jana public
    assert summary["by_category"] == [{"category": "PERSON", "public": 1, "private": 1}]
    assert summary["windows_left"] == left == 1  # only Eva waits: Karel by the word-type rule, Jana by token
