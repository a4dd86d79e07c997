"""A project's documents in one ZIP, with the release report and what was masked.

Why apart from :mod:`psan.store.publish.output`: the ZIP carries the release report
(:mod:`psan.store.publish.release`), which itself renders regions; with ``project_zip`` in ``output``
the two modules imported each other.
"""
from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from typing import Any

from psan.runtime import db
from psan.store.publish.files import input_file, output_file
from psan.store.publish.output import pseudonymize_project, render_output, safe_filename
from psan.store.publish.regions import OUTPUT_MODES, ProjectOutputContext, project_context
from psan.store.publish.release import project_report, report_html
from psan.tool.formats.files import FormatError
from psan.tool.release.output import Output


def project_zip(conn, project_id: int, kind: str, progress: Callable[[int, int], None] | None = None) -> bytes:
    """All documents of a project in one ZIP: ``kind`` is ``input``, ``xml`` or an output mode.

    Documents not yet annotated are skipped for output modes (and lack XML until recognized).
    The pseudonymization key is never part of it (it holds the originals): see
    :mod:`psan.documents.key`.  Every ZIP carries the release report (``RELEASE_REPORT.html`` /
    ``.json``, counts only) and, for output modes, ``MASKED.json``: the undecided spans masked (or
    kept, with policy ``keep``) per document and category.  ``progress(done, total)``: called after each
    document (a background download shows it).
    """
    ctx = project_context(conn, project_id) if kind in OUTPUT_MODES else None
    pseudonymized = ({d.document_id: d for d in pseudonymize_project(conn, project_id, ctx, progress=progress)}
                     if kind == "pseudonymize" else {})
    # the text and the XML (tens of MB for a large document) only where this kind writes them
    docs = db.query("SELECT id, name, original_format, CASE WHEN %s = 'input' THEN text END AS text, "
                    "CASE WHEN %s = 'xml' THEN tagged_xml END AS tagged_xml "
                    "FROM document WHERE project_id = %s ORDER BY id", (kind, kind, project_id), conn)
    fallbacks: list[dict[str, Any]] = []
    buf = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for done, d in enumerate(docs, 1):
            out: Output | None = None
            if kind == "input":
                content, suffix = d["text"], ".txt"
            elif kind == "xml":
                content, suffix = d["tagged_xml"], ".xml"
            elif kind == "pseudonymize":
                got = pseudonymized.get(d["id"])
                out = None if got is None else Output(got.text, got.entries)
                content, suffix = (None if out is None else out.text), f".{kind}.txt"
            else:
                out = render_output(conn, d["id"], kind, ctx)
                content, suffix = (None if out is None else out.text), f".{kind}.txt"
            if content is None:
                continue
            data, name = content.encode("utf-8"), safe_filename(d["name"], suffix)
            if d["original_format"] is not None:  # an office file, page or PDF: in its own format
                data, name = _original_format(conn, d, kind, out, fallbacks) or (data, name)
            if name in used:
                name = f"{d['id']}-{name}"
            used.add(name)
            zf.writestr(name, data)
            if progress is not None and kind != "pseudonymize":  # pseudonyms reported their pass already
                progress(done, len(docs))
        report_ctx = ctx or project_context(conn, project_id)
        if kind in OUTPUT_MODES:
            zf.writestr("MASKED.json", json.dumps(masked_summary(report_ctx, docs), ensure_ascii=False, indent=2))
        if fallbacks:
            zf.writestr("FORMAT_FALLBACKS.json", json.dumps(fallbacks, ensure_ascii=False, indent=2))
        report = project_report(conn, project_id, report_ctx)
        zf.writestr("RELEASE_REPORT.json", json.dumps(report, ensure_ascii=False, indent=2))
        zf.writestr("RELEASE_REPORT.html", report_html(report))
    return buf.getvalue()


def _original_format(conn, doc: dict[str, Any], kind: str, out: Output | None,
                     fallbacks: list[dict[str, Any]]) -> tuple[bytes, str] | None:
    """The ZIP member of a document read from a file, in its own format; None (the text is written instead,
    and the reason listed in ``FORMAT_FALLBACKS.json``) when the file cannot be written back soundly."""
    try:
        if kind == "input":
            return input_file(conn, doc["id"])
        if kind in OUTPUT_MODES and out is not None:
            return output_file(conn, doc["id"], kind, out=out)
    except FormatError as err:
        fallbacks.append({"id": doc["id"], "name": doc["name"], "written_as": "text", "reason": str(err)})
    return None


def masked_summary(ctx: ProjectOutputContext, docs: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``MASKED.json`` says: the policy and the undecided spans per document and category."""
    names = {d["id"]: d["name"] for d in docs}
    rows = [{"id": doc_id, "name": names.get(doc_id, ""), "undecided": c.total, "by_category": c.by_category}
            for doc_id, c in sorted(ctx.masked.items())]
    return {"policy": ctx.undecided,
            "meaning": "undecided spans rendered like private spans" if ctx.undecided == "mask"
            else "undecided spans KEPT AS PUBLIC by the project's explicit setting",
            "total": sum(r["undecided"] for r in rows), "documents": rows}
