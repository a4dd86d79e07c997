"""Files out: outputs of documents read from DOCX, ODT, HTML or PDF files, written back in their own format;
and the decided spans as another tool's annotation file (:func:`export_spans`, :func:`export_file`).

Why here: the output text and its standoff come from :mod:`psan.store.publish.output`; the original file
is stored with the document (migration 0032); :mod:`psan.tool.formats.files` writes the standoff's edits into the
file.  A file the format can no longer write (its reader changed and gives another text) is never released
half-done: :class:`~psan.tool.formats.files.FormatError` goes to the caller, which offers the text instead.
"""
from __future__ import annotations

from pathlib import PurePath
from typing import Any

from psan.runtime import db
from psan.store.corpus.documents import load_document, original_file
from psan.store.publish.output import render_output, safe_filename
from psan.store.publish.regions import ProjectOutputContext, document_annotations, project_context
from psan.store.shared.document_status import ANNOTATED
from psan.tool.decisions.voting import final_decision
from psan.tool.formats import files as formats
from psan.tool.formats.annotations import AnnotatedText, Written, make_span, write_file
from psan.tool.release import output as tool_output
from psan.tool.text.document import Decision


def format_options(report: dict[str, Any] | None) -> formats.Options:
    """The options the document's text was read with (the same must be used to write it back)."""
    mode = (report or {}).get("tracked_changes") or "accept"
    return formats.Options(tracked_changes=mode if mode in ("accept", "reject") else "accept")


def _suffix(fmt: str) -> str:
    return formats.formats()[fmt].suffixes[0]


def file_name(name: str, kind: str, fmt: str) -> str:
    """``case.docx`` → ``case.pseudonymize.docx`` (a PDF's output is text: ``case.pseudonymize.txt``)."""
    stem = name[:-len(PurePath(name).suffix)] if PurePath(name).suffix.lower() in formats.SUFFIXES() else name
    out_suffix = formats.formats()[fmt].output_suffix or _suffix(fmt)
    return safe_filename(stem, f".{kind}{out_suffix}")


#: content types of the files psan writes back (a PDF's output is text)
MIMETYPES = {".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
             ".odt": "application/vnd.oasis.opendocument.text", ".html": "text/html", ".txt": "text/plain",
             ".pdf": "application/pdf"}


def mimetype_of(name: str) -> str:
    return MIMETYPES.get(PurePath(name).suffix.lower(), "application/octet-stream")


def input_name(name: str, fmt: str) -> str:
    """The uploaded file's download name (its own suffix)."""
    suffix = _suffix(fmt)
    return safe_filename(name[:-len(suffix)] if name.lower().endswith(suffix) else name, suffix)


def write_back(stored: dict[str, Any], text: str, out: tool_output.Output) -> bytes:
    """The stored original with ``out``'s edits written in; FormatError when that cannot be done soundly."""
    fmt = stored["original_format"]
    return formats.write(stored["original"], f"document{_suffix(fmt)}", out.standoff,
                         format_options(stored["format_report"]), expected_text=text)


def output_file(conn, document_id: int, kind: str, ctx: ProjectOutputContext | None = None,
                out: tool_output.Output | None = None) -> tuple[bytes, str] | None:
    """(bytes, file name) of a document's output in its original format; None for a text document or one not
    annotated yet.  ``out``: the output already rendered (a project ZIP renders every document once)."""
    stored = original_file(conn, document_id)
    if stored is None:
        return None
    out = out or render_output(conn, document_id, kind, ctx)
    if out is None:
        return None
    text = db.query_one("SELECT text FROM document WHERE id = %s", (document_id,), conn)["text"]
    return write_back(stored, text, out), file_name(stored["name"], kind, stored["original_format"])


def input_file(conn, document_id: int) -> tuple[bytes, str] | None:
    """The uploaded file itself (for the ``input`` download); None for a text document."""
    stored = original_file(conn, document_id)
    if stored is None:
        return None
    return stored["original"], input_name(stored["name"], stored["original_format"])


def files_report(conn, project_id: int) -> list[dict[str, Any]]:
    """Per document read from a file: its format, the parts found, the metadata removed and the parts dropped
    or kept unread — for the release report (names of fields, never their values)."""
    rows = db.query("SELECT id, name, original_format, format_report FROM document "
                    "WHERE project_id = %s AND original_format IS NOT NULL ORDER BY id", (project_id,), conn)
    return [{"id": r["id"], "name": r["name"], "format": r["original_format"],
             "parts": (r["format_report"] or {}).get("parts", {}),
             "metadata_removed": (r["format_report"] or {}).get("removed", []),
             "parts_dropped": (r["format_report"] or {}).get("dropped", []),
             "kept_unread": (r["format_report"] or {}).get("unchecked", []),
             "tracked_changes": (r["format_report"] or {}).get("tracked_changes", "accept")} for r in rows]


#: the order the document page names parts in: where people write first, then what is inside
PART_ORDER = ["body", "page", "header", "footer", "footnote", "endnote", "comment", "tracked change", "table",
              "text box", "image", "alt text", "content control", "field", "hyperlink", "attribute text"]


def parts_summary(report: dict[str, Any] | None) -> str:
    """"body, 2 headers, 3 comments, 5 tracked changes, metadata" — what the document page shows."""
    if not report:
        return ""
    words = []
    parts = report.get("parts") or {}
    for kind, n in sorted(parts.items(), key=lambda kv: (PART_ORDER.index(kv[0]) if kv[0] in PART_ORDER
                                                           else len(PART_ORDER), kv[0])):
        words.append(kind if n == 1 and kind == "body" else f"{n} {kind}{'' if n == 1 else 's'}")
    if report.get("removed"):
        words.append("metadata")
    return ", ".join(words)


# --- annotation files of other tools ----------------------------------------------------------------
# The decided spans of stored documents in another tool's annotation format (to train or evaluate a model).
#
# "Decided" is what the output masks as decided: every span whose final decision is private, by a person
# or by a rule (:func:`psan.tool.decisions.voting.final_decision` under the project's thresholds), with its category
# as the label.  Undecided (suspicious) spans are left out: they are nobody's decision yet.  The file holds
# the documents' text and the spans' originals: it is personal data like the pseudonymization key.


def export_spans(conn, document_id: int, ctx: ProjectOutputContext | None = None) -> AnnotatedText | None:
    """One stored document with its decided private spans (None if it does not exist or is not pre-processed yet:
    a document nobody could decide yet has no spans to give, and must not look like one without any)."""
    row = db.query_one("SELECT project_id, name, status::text AS status FROM document WHERE id = %s",
                       (document_id,), conn)
    if row is None:
        return None
    if row["status"] not in ANNOTATED:
        return None
    doc = load_document(conn, document_id)
    if doc is None:
        return None
    spans = []
    ctx = ctx or project_context(conn, row["project_id"])
    for ann in document_annotations(conn, document_id, doc, ctx):
        if final_decision(ann, ctx.thresholds) is Decision.PRIVATE:
            start, end = doc.char_range(ann.first_token, ann.end_token)
            spans.append(make_span(start, end, str(ann.category), category=ann.category))
    return AnnotatedText(row["name"], doc.text, spans, tokens=[(t.start, t.end) for t in doc.tokens],
                         sentences=[doc.char_range(s.first_token, s.end_token) for s in doc.sentences
                                    if s.first_token < s.end_token])


def export_file(conn, format_name: str, *, project_id: int, document_id: int | None = None) -> Written:
    """One document (``document_id``) or every document of the project in the named format."""
    ctx = project_context(conn, project_id)
    if document_id is not None:
        ids = [document_id]
    else:
        ids = [r["id"] for r in db.query("SELECT id FROM document WHERE project_id = %s ORDER BY id",
                                         (project_id,), conn)]
    docs = [d for d in (export_spans(conn, i, ctx) for i in ids) if d is not None]
    return write_file(format_name, docs)
