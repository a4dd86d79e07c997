"""Store functions the pages and the API call: import an annotation file, export the decided spans.

A gold standard of real documents imported and exported again gives its spans back (widened to whole
tokens where a span starts or ends inside one); a second import replaces the first one's spans but not the
decisions; a document still being processed refuses imports.
"""
from __future__ import annotations

import bisect
import json
from pathlib import Path

import pytest

from psan.runtime import db
from psan.store.publish.files import export_file, export_spans
from psan.store.review.span_import import SpanImportError, import_file
from psan.tool.formats.annotations import AnnotatedText, make_span, write_file
from psan.tool.formats.annotations.labels import category_for
from psan.tool.text.tokens import tokenize
from tests.documents import add_document
from tests.helpers import default_project, make_account, sql


def _widened(text: str, language: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    tokens = tokenize(text, language)[0]
    starts, ends = [t.start for t in tokens], [t.end for t in tokens]
    out = set()
    for s, e, label in spans:
        first, last = bisect.bisect_right(ends, s), bisect.bisect_left(starts, e)
        if first < last:
            out.add((starts[first], ends[last - 1], str(category_for(label))))
    return sorted(out)


def test_gold_standard_of_a_shared_corpus_comes_back_from_export(clean_app, shared_dir: Path) -> None:
    path = shared_dir / "data" / "sk-dev.jsonl"
    if not path.is_file():
        pytest.skip(f"shared corpus {path} not found")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:8]]
    project = default_project(clean_app)
    ids = [add_document(clean_app, r["text"], name=f"{r['id']}.txt", language="sk") for r in records]
    admin = make_account(clean_app, "gold@example.org", "ADMIN")
    docs = [AnnotatedText(r["id"], r["text"], [make_span(s["start"], s["end"], s["label"]) for s in r["spans"]])
            for r in records]
    data = write_file("webanno", docs).data  # a ZIP of one TSV per document, named like the documents
    with clean_app.app_context(), db.transaction() as conn:
        result = import_file(conn, project_id=project, format_name="webanno", data=data, filename="gold.zip",
                             gold=True, account_id=admin.id)
    assert result.spans == result.decided == sum(len(r["spans"]) for r in records) - result.skipped
    with clean_app.app_context(), db.transaction() as conn:
        for record, doc_id in zip(records, ids, strict=True):
            got = export_spans(conn, doc_id)
            assert sorted(s.key for s in got.spans) == _widened(
                record["text"], "sk", [(s["start"], s["end"], s["label"]) for s in record["spans"]])
        written = export_file(conn, "conllu", project_id=project)
    assert written.suffix == ".conllu" and written.data.count(b"# newdoc id") == len(records)


def test_second_import_replaces_imported_spans_but_keeps_decisions(clean_app) -> None:
    text = "Anna Malá and Petr Veselý went to Olomouc."
    doc = add_document(clean_app, text, name="trip.txt")
    admin = make_account(clean_app, "gold@example.org", "ADMIN")
    project = default_project(clean_app)

    def run(ann: str, gold: bool) -> None:
        with clean_app.app_context(), db.transaction() as conn:
            import_file(conn, project_id=project, document_id=doc, format_name="brat", data=ann.encode(),
                        filename="trip.ann", gold=gold, account_id=admin.id)

    run("T1\tPER 0 9\tAnna Malá\n", gold=True)
    run("T1\tLOC 34 41\tOlomouc\nT2\tPER 14 25\tPetr Veselý\n", gold=False)
    entities = sql(clean_app, "SELECT first_token, end_token, type FROM named_entity WHERE document_id = %s "
                              "AND source = 'import' ORDER BY first_token", (doc,))
    assert [e["type"] for e in entities] == ["PER", "LOC"]
    decided = sql(clean_app, "SELECT first_token, end_token, token_decision::text AS d FROM annotation "
                             "WHERE document_id = %s AND token_decision IS NOT NULL", (doc,))
    assert [(r["first_token"], r["end_token"], r["d"]) for r in decided] == [(0, 2, "PRIVATE")]


def test_span_inside_a_token_is_widened_and_counted(clean_app) -> None:
    doc = add_document(clean_app, "Contact Novákovi today.", name="c.txt")
    with clean_app.app_context(), db.transaction() as conn:
        result = import_file(conn, project_id=default_project(clean_app), document_id=doc, format_name="presidio",
                             data=b'[{"entity_type": "PERSON", "start": 8, "end": 13, "score": 0.5}]',
                             filename="c.json", gold=False, account_id=None)
    assert (result.spans, result.widened) == (1, 1)


def test_document_still_processing_refuses_an_import(clean_app) -> None:
    doc = add_document(clean_app, "Jan Novák.", name="n.txt")
    sql(clean_app, "UPDATE document SET status = 'PROCESSING' WHERE id = %s", (doc,))
    with clean_app.app_context(), db.transaction() as conn, pytest.raises(SpanImportError, match="not pre-processed"):
        import_file(conn, project_id=default_project(clean_app), document_id=doc, format_name="jsonl",
                    data=b'{"start": 0, "end": 3, "type": "PER"}', filename="n.jsonl", gold=False, account_id=None)


def test_file_of_too_many_documents_is_refused_before_anything_is_imported(clean_app, monkeypatch) -> None:
    from psan.store.review import span_import
    monkeypatch.setattr(span_import, "MAX_DOCUMENTS_PER_IMPORT", 1)
    add_document(clean_app, "Jan Novák.", name="a.txt")
    add_document(clean_app, "Eva Malá.", name="b.txt")
    data = (b'{"file": "a.txt", "start": 0, "end": 3, "type": "PER"}\n'
            b'{"file": "b.txt", "start": 0, "end": 3, "type": "PER"}')
    with clean_app.app_context(), db.transaction() as conn, pytest.raises(SpanImportError, match="split the file"):
        import_file(conn, project_id=default_project(clean_app), format_name="jsonl", data=data, filename="x.jsonl",
                    gold=False, account_id=None)
