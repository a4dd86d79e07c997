"""In a real browser: one surrogate person per entity, correctly inflected, in a
single-document download that does not read the project's other documents.

An admin uploads an English and a Czech document into an English project through the upload page
(the real Celery worker detects each document's language, recognizes and pre-annotates it), marks
every mention of the person private in the annotation window as an annotator would (mouse
selection, ``s``), decides what else is undecided, downloads the project once (which stores the
pseudonym key) and then each document's pseudonymized output from the documents page.

"Does not read other documents" is checked on PostgreSQL's side, without timing: every statement
the single-document download requests run is recorded (a recording cursor on the app's pool, the
database is the real one) and each ``SELECT`` is run again in a rolled-back transaction after the
other documents were deleted; no result may change.
"""
from __future__ import annotations

import io
import os
import re
import threading
import zipfile
from pathlib import Path

import psycopg2
import psycopg2.extensions
import psycopg2.pool
import psycopg2.sql
import pytest

from psan.runtime import db
from tests.browser.helpers import ADMIN, ARTIFACTS, csp_violations, login, skip_without_browser, wait_js
from tests.documents import add_document, plain_sentences, wait_for_documents
from tests.helpers import make_account, new_project, sql
from tests.people import (
    CS,
    CS_MENTIONS,
    EN,
    EN_MENTIONS,
    expected_czech,
    expected_english,
    mention_spans,
    token_span,
)

skip_without_browser()
pytestmark = pytest.mark.worker


def _answer_category(page, first: int) -> None:
    """A private span nothing recognized: the window asks for a label with a category; it is a person."""
    if page.locator("#ann-label-dialog:not(.d-none)").count():
        page.fill("#ann-label-name", f"person {first}")
        page.select_option("#ann-label-category", "PERSON")
        page.keyboard.press("Enter")
        page.wait_for_selector("#ann-label-dialog.d-none", state="attached")


def _mark_private(page, first: int, end: int) -> None:
    """Select the tokens first..end-1 with the mouse (token mode) and press s."""
    page.click(f'.tok[data-i="{first}"]')
    if end - first > 1:
        page.click(f'.tok[data-i="{end - 1}"]', modifiers=["Shift"])
    wait_js(page, f"document.querySelectorAll('.tok.sel').length === {end - first}")
    page.keyboard.press("s")
    wait_js(page, f"document.querySelector('.tok[data-i=\"{first}\"] [class*=\"dec-private\"]') !== null")
    _answer_category(page, first)


def _annotate(page, app, document: int, spans: list[tuple[int, int]]) -> None:
    page.goto(f"/annotate/document/{document}")
    page.wait_for_selector(".tok.sel")
    page.keyboard.press("m")  # select by tokens
    for first, end in spans:
        _mark_private(page, first, end)
    page.keyboard.press("m")  # back to whole annotations
    page.click('.tok[data-i="0"]')
    names = {i for first, end in spans for i in range(first, end)}
    # the rest with n: a name of the person (e.g. the surname inside the full name, suspicious through
    # the word-type rule the decisions made) is private, everything else public
    while page.locator(".dec-suspicious").count():
        page.keyboard.press("n")
        first = int(page.get_attribute(".tok.sel", "data-i"))
        page.keyboard.press("s" if first in names else "p")
        wait_js(page, f"!document.querySelector('.tok[data-i=\"{first}\"] .dec-suspicious')")
        _answer_category(page, first)
    assert page.errors == [] and csp_violations(page) == []


class _Recorder:
    """Statements run by requests whose path matches, per request path (a cursor hook, real database)."""

    def __init__(self, path_pattern: str) -> None:
        self.pattern = re.compile(path_pattern)
        self.statements: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()

    def record(self, cursor, query, params) -> None:
        from flask import has_request_context, request
        if has_request_context() and self.pattern.fullmatch(request.path):
            with self.lock:
                self.statements.append((request.path, cursor.mogrify(query, params)))

    def connection_factory(self):
        recorder, classes = self, {}

        def recording(base):
            if base not in classes:
                def execute(cur, query, params=None):
                    recorder.record(cur, query, params)
                    return base.execute(cur, query, params)

                def copy_expert(cur, query, file, *args, **kwargs):  # token rows are read with COPY ... TO
                    recorder.record(cur, query, None)
                    return base.copy_expert(cur, query, file, *args, **kwargs)
                classes[base] = type(f"Recording{base.__name__}", (base,),
                                     {"execute": execute, "copy_expert": copy_expert})
            return classes[base]

        class Connection(db.TrackedConnection):  # the app's own connection class (deferred statements)
            def cursor(self, *args, **kwargs):
                base = kwargs.get("cursor_factory") or self.cursor_factory or psycopg2.extensions.cursor
                kwargs["cursor_factory"] = recording(base)
                return super().cursor(*args, **kwargs)

        return Connection


def _move_away(cur, others: list[int]) -> None:
    """Take the ``others`` documents out of their project and change their text, and move every row of a
    table with a ``document_id`` (tokens, sentences, recognized spans, annotations, entity mentions ...)
    onto a throw-away document of another project: any statement that reads them now reads something else.
    (Deleting them would not do: deletions cascade into project-level rows such as rules.)"""
    cur.execute("SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND column_name = 'document_id' AND table_name <> 'document' ORDER BY 1")
    tables = [r[0] for r in cur.fetchall()]
    assert {"token", "sentence", "named_entity", "annotation", "entity_mention"} <= set(tables), tables
    cur.execute("INSERT INTO project (name) VALUES ('elsewhere') RETURNING id")
    elsewhere = cur.fetchone()[0]
    for other in others:
        cur.execute("INSERT INTO document (project_id, name, language, status, text) VALUES (%s, 'moved', 'en', "
                    "'NEW', '') RETURNING id", (elsewhere,))
        moved = cur.fetchone()[0]
        for table in tables:
            cur.execute(psycopg2.sql.SQL("UPDATE {} SET document_id = %s WHERE document_id = %s").format(
                psycopg2.sql.Identifier(table)), (moved, other))
        cur.execute("UPDATE document SET project_id = %s, text = 'moved away', name = 'moved' WHERE id = %s",
                    (elsewhere, other))
        assert cur.rowcount == 1


def _independent_of(app, statements: list[bytes], others: list[int]) -> list[str]:
    """The reads whose result changes when the ``others`` documents are moved away (rolled back after)."""
    changed = []
    conn = psycopg2.connect(app.config["DATABASE_URL"])
    try:
        with conn.cursor() as cur:
            # every document locked first, as psan's own writers do: a background re-annotation still
            # scheduled by the labels above finishes before (or starts after) this transaction, so it can
            # neither change the rows between the two reads nor deadlock with the move
            cur.execute("SELECT id FROM document ORDER BY id FOR UPDATE")

            def run(statement: bytes):
                if statement.upper().startswith(b"COPY"):
                    buf = io.StringIO()
                    cur.copy_expert(statement.decode(), buf)
                    return buf.getvalue()
                cur.execute(statement)
                return cur.fetchall()

            reads = [s.lstrip() for s in statements if s.lstrip().upper().startswith((b"SELECT", b"WITH", b"COPY ("))]
            before = [run(s) for s in reads]
            _move_away(cur, others)
            for s, rows in zip(reads, before, strict=True):
                if run(s) != rows:
                    changed.append(s.decode())
    finally:
        conn.rollback()
        conn.close()
    return changed


def test_one_inflected_surrogate_person_per_entity_in_a_single_document_download(clean_app, page, celery_worker):
    app = clean_app
    make_account(app, ADMIN, "ADMIN")
    pid = new_project(app, "People")  # an English project: the Czech document's language is detected
    login(page, ADMIN)
    for name, text in (("harper.txt", EN), ("novak.txt", CS)):
        page.goto(f"/documents/upload?project={pid}")
        page.fill('textarea[name="text"]', text)
        page.fill('input[name="name"]', name)
        page.click('main form [type="submit"]')
        page.wait_for_url(re.compile(r".*/documents/\?project=\d+$"))
    rows = wait_for_documents(app)
    assert [r["status"] for r in rows] == ["PRE_ANNOTATED", "PRE_ANNOTATED"], rows
    en, cs = rows[0]["id"], rows[1]["id"]
    assert [r["language"] for r in sql(app, "SELECT language FROM document ORDER BY id")] == ["en", "cs"]

    for doc, text, table in ((en, EN, EN_MENTIONS), (cs, CS, CS_MENTIONS)):
        _annotate(page, app, doc, [token_span(app, doc, s, e) for s, e in mention_spans(text, table)])
    # another, larger document of the project with the same names (inserted, not recognized again)
    big = add_document(app, "Jonathan Harper and Jan Novák signed. " + plain_sentences(0, 700)
                       + " Mr. Harper and Jana Nováka were thanked.\n",
                       [("Jonathan Harper", "PERSON"), ("Harper", "PERSON"), ("Jan Novák", "PERSON")],
                       project_id=pid, name="big.txt")

    # the admin downloads the project once (this stores the pseudonym key), then each document alone
    admin = page
    admin.goto(f"/documents/?project={pid}")
    with admin.expect_download() as info:
        admin.locator(f'a[href="/documents/project/{pid}/download/pseudonymize"]').click()
    zipped = zipfile.ZipFile(info.value.path())
    recorder = _Recorder(r"/documents/\d+/download/pseudonymize")
    key = (os.getpid(), app.config["DATABASE_URL"])
    saved = db._pools[key]
    db._pools[key] = psycopg2.pool.ThreadedConnectionPool(1, 4, app.config["DATABASE_URL"],
                                                          connection_factory=recorder.connection_factory())
    outputs = {}
    try:
        for doc in (en, cs):
            row = admin.locator(f'tr[data-document-id="{doc}"]')
            with admin.expect_download() as info:
                row.locator(f'a[href="/documents/{doc}/download/pseudonymize"]').click()
            outputs[doc] = Path(info.value.path()).read_text(encoding="utf-8")
    finally:
        db._pools[key].closeall()
        db._pools[key] = saved
    for doc, out in outputs.items():
        (ARTIFACTS / f"release-{doc}.pseudonymize.txt").write_text(out, encoding="utf-8")
        member = next(n for n in zipped.namelist() if n.endswith(f"{'harper' if doc == en else 'novak'}"
                                                                 ".pseudonymize.txt"))
        assert zipped.read(member).decode("utf-8") == out  # the document alone = its part of the project

    # no statement of the single downloads depends on the other documents' rows
    statements = [s for _, s in recorder.statements]
    assert any(b"FROM token" in s for s in statements), statements  # the recorder saw the token reads
    for doc in (en, cs):
        others = [d for d in (en, cs, big) if d != doc]
        mine = [s for path, s in recorder.statements if path == f"/documents/{doc}/download/pseudonymize"]
        assert _independent_of(app, mine, others) == []

    # English: one identity, every mention from it (the title stays)
    assert outputs[en] == expected_english(app, pid), outputs[en]
    assert "Harper" not in outputs[en] and "Jonathan" not in outputs[en]
    # Czech: one male identity, each mention in its own case (the table), stems alternating correctly
    expected, forms = expected_czech(app, pid)
    assert outputs[cs] == expected, (outputs[cs], forms)
    assert "Novák" not in outputs[cs] and " Jan" not in outputs[cs] and len(set(forms)) == 4
