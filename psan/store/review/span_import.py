"""Spans from another tool's annotation file into stored documents: suspicious, or decided (a gold standard).

Why through ``named_entity``: an imported span is a recognized span like any other (source ``import``, its
type the file's label, its category from the label table of :mod:`psan.tool.formats.annotations.labels`), so
the project's NE-type rules vote on it, the annotate page shows it, the output masks it, learned type
decisions apply to it and its mentions are grouped into entities (one pseudonym per person).  With ``gold``
every imported span is also decided private by the admin who imported it (a ``decision_log`` row per span,
action ``span_import``; no lookup rule: a gold standard already marks every mention).  Nothing else
changes: psan's own spans stay as they were.

A span starting or ending inside a token is widened to whole tokens (masks more, never less) and counted;
a span over blanks only is skipped and counted.  A new import into a document replaces that document's
earlier imported spans (decisions made on them stay: they are the people's).  A re-recognition of the
document (a language change) drops imported spans like every recognized span: import again after it.
All of it runs in the caller's transaction: a file with one bad document imports nothing.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import psycopg2.extras

from psan.runtime import db
from psan.store.admin.rules import ensure_ne_type_rules, load_ruleset
from psan.store.annotation.decisions import Span as DecidedSpan
from psan.store.annotation.decisions import log_decision, set_token_decision
from psan.store.annotation.entities import update_document_entities_or_log
from psan.store.corpus.documents import load_document, load_document_cached
from psan.store.corpus.reannotate import reannotate_document_now, update_document_status
from psan.store.shared.document_status import ANNOTATED
from psan.tool.decisions.rules import RuleSet
from psan.tool.formats.annotations import AnnotatedText, AnnotationFormatError, attach, get_format, read_file
from psan.tool.formats.annotations.base import Span

#: ``named_entity.source`` of imported spans
IMPORT_SOURCE = "import"
#: longest label kept as an entity type
MAX_TYPE_CHARS = 100
#: documents one file may import into: an import runs in the web request, 40–90 ms per document (cnec-dtest,
#: 300 documents on a busy 2-core machine: 11.7 s suspicious, 26.9 s gold), so 1000 stay under uWSGI's 120 s;
#: a bigger file is refused with a message to split it, never cut off half-imported by the time limit
MAX_DOCUMENTS_PER_IMPORT = 1000


class SpanImportError(AnnotationFormatError):
    """A file that cannot be imported here (format error, unknown document, document not ready)."""


@dataclass(slots=True)
class ImportResult:
    """What an import did, per document id and in total (shown to the admin, returned by the API)."""

    documents: dict[int, int] = field(default_factory=dict)
    spans: int = 0
    widened: int = 0
    skipped: int = 0
    decided: int = 0


def _document(conn, document_id: int, project_id: int | None = None) -> dict:
    row = db.query_one("SELECT id, project_id, name, status::text AS status FROM document WHERE id = %s FOR UPDATE",
                       (document_id,), conn)
    if row is None or (project_id is not None and row["project_id"] != project_id):
        raise SpanImportError("no such document")
    if row["status"] not in ANNOTATED:
        raise SpanImportError(f"{row['name']}: not pre-processed yet (status {row['status']}); import once it is")
    return row


def import_spans(conn, document_id: int, given: AnnotatedText, *, gold: bool, account_id: int | None,
                 result: ImportResult | None = None, ruleset: RuleSet | None = None) -> ImportResult:
    """Put ``given`` (a document of an annotation file) on the stored document (see the module docstring).

    ``ruleset``: the project's rules when already loaded (a project import loads them once, after creating the
    NE-type rules of every label of the file); reloaded here if this document's labels needed new rules.
    """
    result = result if result is not None else ImportResult()
    row = _document(conn, document_id)
    doc = load_document(conn, document_id)
    if doc is None:
        raise SpanImportError("no such document")
    on_text = attach(given, doc.text, row["name"])
    starts = [t.start for t in doc.tokens]
    ends = [t.end for t in doc.tokens]
    ranges: dict[tuple[int, int], tuple[str, str, float]] = {}
    for sp in on_text.spans:
        first = bisect.bisect_right(ends, sp.start)
        last = bisect.bisect_left(starts, sp.end)
        if first >= last:
            result.skipped += 1
            continue
        if starts[first] != sp.start or ends[last - 1] != sp.end:
            result.widened += 1
        label = _type(sp)
        ranges.setdefault((first, last), (label, str(sp.category), 1.0 if sp.score is None else float(sp.score)))
    db.execute("DELETE FROM named_entity WHERE document_id = %s AND source = %s", (document_id, IMPORT_SOURCE), conn)
    if ranges:
        with conn.cursor() as cur:
            psycopg2.extras.execute_values(
                cur, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                     "VALUES %s",
                [(document_id, a, b, t, c, IMPORT_SOURCE, min(max(s, 0.0), 1.0)) for (a, b), (t, c, s) in
                 sorted(ranges.items())], page_size=1000)
    # per-process document caches reload the entities (as after new model predictions)
    db.execute("UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (document_id,), conn)
    if ensure_ne_type_rules(conn, row["project_id"], {t for t, _, _ in ranges.values()}):
        ruleset = None
    reannotate_document_now(conn, document_id, ruleset)
    # the imported mentions join the document's entities (one pseudonym per person), as after pre-processing
    updated = load_document_cached(conn, document_id)
    if updated is not None:
        update_document_entities_or_log(conn, document_id, updated)
    if gold and account_id is not None:
        for first, last in sorted(ranges):
            span = DecidedSpan(row["project_id"], document_id, first, last)
            set_token_decision(conn, span, "PRIVATE", None, account_id)
            log_decision(conn, span, account_id, "span_import", "PRIVATE", detail={"gold": True})
            result.decided += 1
        update_document_status(conn, document_id)
    result.documents[document_id] = len(ranges)
    result.spans += len(ranges)
    return result


def _type(span: Span) -> str:
    """The entity type an imported span is stored with: its label (its category if it has none)."""
    return (span.label or str(span.category))[:MAX_TYPE_CHARS]


def _stem(name: str) -> str:
    return PurePosixPath(name).stem


def match_documents(conn, project_id: int, docs: list[AnnotatedText]) -> list[tuple[int, AnnotatedText]]:
    """Pair the file's documents with the project's by name (exactly, else without suffix: ``a.ann`` ↔ ``a.txt``).

    SpanImportError naming the documents that match none or more than one: an import is all or nothing.
    """
    rows = db.query("SELECT id, name FROM document WHERE project_id = %s ORDER BY id", (project_id,), conn)
    exact = {r["name"]: r["id"] for r in rows}
    by_stem: dict[str, list[int]] = {}
    for r in rows:
        by_stem.setdefault(_stem(r["name"]), []).append(r["id"])
    pairs, missing, ambiguous = [], [], []
    for i, doc in enumerate(docs, start=1):
        name = doc.name or ""
        if name in exact:
            pairs.append((exact[name], doc))
            continue
        ids = by_stem.get(_stem(name), []) if name else []
        if len(ids) == 1:
            pairs.append((ids[0], doc))
        elif ids:
            ambiguous.append(name)
        else:
            missing.append(name or f"document {i} (unnamed)")
    if missing or ambiguous:
        parts = []
        if missing:
            parts.append(f"no document of this project is named {', '.join(missing[:5])}"
                         + (f" (and {len(missing) - 5} more)" if len(missing) > 5 else ""))
        if ambiguous:
            parts.append(f"several documents match {', '.join(ambiguous[:5])}")
        raise SpanImportError("; ".join(parts) + ": nothing was imported")
    seen: set[int] = set()
    for document_id, _ in pairs:
        if document_id in seen:
            raise SpanImportError("the file holds two documents for one document of the project: nothing was imported")
        seen.add(document_id)
    return pairs


def import_file(conn, *, project_id: int, format_name: str, data: bytes, filename: str, gold: bool,
                account_id: int | None, document_id: int | None = None) -> ImportResult:
    """Read an annotation file and import it into one document or, by document names, into the project.

    For one document, a file of one document is taken whatever its name; a file of several must name it.
    SpanImportError (a clear message) for every problem; the caller rolls back (nothing half-imported).
    """
    get_format(format_name)  # an unknown format is refused before the file is read
    docs = read_file(format_name, data, filename)
    result = ImportResult()
    if document_id is not None:
        row = _document(conn, document_id, project_id)
        if len(docs) == 1:
            chosen = docs[0]
        else:
            named = [d for d in docs if d.name in (row["name"], _stem(row["name"]))
                     or (d.name and _stem(d.name) == _stem(row["name"]))]
            if len(named) != 1:
                raise SpanImportError(f"the file holds {len(docs)} documents and {len(named)} of them are named "
                                      f"{row['name']}: import it on the project's page, or export one document")
            chosen = named[0]
        return import_spans(conn, document_id, chosen, gold=gold, account_id=account_id, result=result)
    if len(docs) > MAX_DOCUMENTS_PER_IMPORT:
        raise SpanImportError(f"the file holds {len(docs)} documents; import at most {MAX_DOCUMENTS_PER_IMPORT} at "
                              "once (split the file)")
    pairs = match_documents(conn, project_id, docs)
    # every label's NE-type rule first, then the rules read once for all documents
    ensure_ne_type_rules(conn, project_id, {_type(sp) for _, doc in pairs for sp in doc.spans})
    ruleset = load_ruleset(conn, project_id)
    for doc_id, doc in pairs:
        import_spans(conn, doc_id, doc, gold=gold, account_id=account_id, result=result, ruleset=ruleset)
    return result
