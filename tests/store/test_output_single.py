"""Rendering one document from the stored key alone (psan.store.publish.output_single)."""
from __future__ import annotations

from psan.runtime import db
from psan.store.corpus.reannotate import reannotate_document_now
from psan.store.publish import output as store_output
from psan.store.publish import pseudonym_key
from psan.store.publish.output_single import render_alone
from tests.documents import add_document
from tests.helpers import default_project, sql


def test_single_document_renders_from_the_stored_key_alone(clean_app, document):
    app = clean_app
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE'")
    other = add_document(app, "Jonathan Harper and Carl Smith met. Smith left.",
                         [("Jonathan Harper", "PERSON"), ("Carl Smith", "PERSON"), ("Smith", "PERSON")])
    sql(app, "UPDATE rule SET confidence = -1 WHERE type = 'NE_TYPE'")
    with app.app_context(), db.transaction() as conn:
        for doc in (document, other):
            reannotate_document_now(conn, doc)
        ctx = store_output.project_context(conn, default_project(app))
        assert render_alone(conn, other, ctx) is None          # no key yet: the project pass is needed
        full = {d.document_id: d for d in store_output.pseudonymize_project(conn, default_project(app), ctx)}
        alone = render_alone(conn, other, store_output.project_context(conn, default_project(app)))
        assert alone is not None and alone.text == full[other].text and alone.entries == full[other].entries
        # "Jonathan Harper" is one person in both documents
        surname = full[document].text.split()[1]
        assert full[other].text.split()[1] == surname and "Harper" not in full[other].text
        pseudonym_key.clear(conn, default_project(app))
        assert render_alone(conn, other, store_output.project_context(conn, default_project(app))) is None
