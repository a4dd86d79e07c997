"""A large document through the real worker as a chord of section tasks: stored exactly as the serial run."""
from __future__ import annotations

import json
import time

import pytest

from psan.tool.detection.pipeline import Pipeline
from tests.helpers import sql

pytestmark = pytest.mark.worker

CONFIG = {"tokenizer": "regex", "ner": [], "recognizers": ["patterns", "gazetteers"],
          "sections": {"min_chars": 3000, "chars": 1000}}


def _text() -> str:
    paragraphs = []
    for i in range(60):
        paragraphs.append(f"Paragraph {i}: John Smith wrote to jane.doe{i}@example.com from London.\n"
                          f"Call +44 20 7946 0{i:03d} or visit Mary Brown in Paris on 12 May 2021.")
    return "\n\n".join(paragraphs)


def _wait(app, document_id: int, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = sql(app, "SELECT status::text AS status, error FROM document WHERE id = %s", (document_id,))[0]
        if row["status"] in ("PRE_ANNOTATED", "DONE", "FAILED"):
            return row
        time.sleep(0.3)
    raise AssertionError(f"document {document_id} not finished: {row}")


def test_large_document_sections_run_as_a_chord_and_equal_the_serial_run(clean_app, celery_worker) -> None:
    from psan.celery.tasks import pre_process
    app = clean_app
    text = _text()
    pid = sql(app, "INSERT INTO project (name, pipeline) VALUES ('sections', %s) RETURNING id",
              (json.dumps(CONFIG),))[0]["id"]
    doc_id = sql(app, "INSERT INTO document (project_id, name, language, text) VALUES (%s, 'big', 'en', %s) "
                      "RETURNING id", (pid, text))[0]["id"]
    with app.app_context():
        started = pre_process.apply_async((doc_id,)).get(timeout=120)
    serial = Pipeline(dict(CONFIG, language="en")).process(text)
    assert started == {"document_id": doc_id, "sections": len(Pipeline(dict(CONFIG, language="en")).sections(text))}
    assert started["sections"] > 5
    row = _wait(app, doc_id)
    assert row["status"] == "PRE_ANNOTATED", row

    tokens = sql(app, "SELECT start_char, end_char FROM token WHERE document_id = %s ORDER BY idx", (doc_id,))
    assert [(t["start_char"], t["end_char"]) for t in tokens] == [(t.start, t.end) for t in serial.tokens]
    sentences = sql(app, "SELECT first_token, end_token FROM sentence WHERE document_id = %s ORDER BY idx", (doc_id,))
    assert [(s["first_token"], s["end_token"]) for s in sentences] == \
        [(s.first_token, s.end_token) for s in serial.sentences]
    entities = sql(app, "SELECT first_token, end_token, type, category::text AS category, source FROM named_entity "
                        "WHERE document_id = %s", (doc_id,))
    stored = sorted((e["first_token"], e["end_token"], e["type"], e["category"], e["source"]) for e in entities)
    expected = sorted((e.first_token, e.end_token, e.type, str(e.category), e.source) for e in serial.entities)
    assert stored == expected and len(expected) > 100
