"""Output of stored documents: private regions from annotations, rendered in every mode.

Why rebuild through :func:`psan.tool.voting.annotate`: the stored ``annotation_rule`` links are
the rule matches, so feeding them (with the person decisions) to the library gives exactly its
voting semantics — levels from the *current* rule confidences, labels, categories, nesting.
Suspicious spans are output as public (thesis 3.4.2).

Label ids in tags are replaced by project-local numbers (1, 2, … in label creation order) so
``[PERSON-2]`` means "the same person" within the project without exposing database ids.
"""
from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

from psan import db
from psan.store.documents import load_document
from psan.store.rules import load_ruleset
from psan.tool import output as tool_output
from psan.tool.model import Category, Decision, Document
from psan.tool.rules import RuleMatch, RuleSet
from psan.tool.voting import PrivateRegion, Thresholds, TokenDecision, annotate, decided_regions

OUTPUT_MODES = ("remove", "tag", "pseudonymize")


@dataclass(slots=True)
class ProjectOutputContext:
    """Everything per project that rendering needs, loaded once for a whole-project ZIP."""

    ruleset: RuleSet
    thresholds: Thresholds
    label_numbers: dict[int, int]
    replacements: dict[int, str]


def project_context(conn, project_id: int) -> ProjectOutputContext:
    project = db.query_one("SELECT public_threshold, private_threshold FROM project WHERE id = %s",
                           (project_id,), conn)
    labels = db.query("SELECT id, replacement FROM label WHERE project_id = %s ORDER BY id", (project_id,), conn)
    numbers = {row["id"]: n for n, row in enumerate(labels, start=1)}
    replacements = {numbers[row["id"]]: row["replacement"] for row in labels if row["replacement"]}
    return ProjectOutputContext(load_ruleset(conn, project_id),
                                Thresholds(project["public_threshold"], project["private_threshold"]),
                                numbers, replacements)


def _category(value: str | None) -> Category | None:
    try:
        return Category(value) if value else None
    except ValueError:
        return None


def private_regions(conn, document_id: int, doc: Document, ctx: ProjectOutputContext) -> list[PrivateRegion]:
    """The document's private regions according to stored matches, decisions and current rules."""
    links = db.query("SELECT a.first_token, a.end_token, array_agg(ar.rule_id ORDER BY ar.rule_id) AS rule_ids "
                     "FROM annotation a JOIN annotation_rule ar ON ar.annotation_id = a.id "
                     "WHERE a.document_id = %s GROUP BY a.id ORDER BY a.first_token, a.end_token",
                     (document_id,), conn)
    matches = []
    for row in links:
        ids = tuple(rid for rid in row["rule_ids"] if rid in ctx.ruleset.rules)
        if ids:
            matches.append(RuleMatch(row["first_token"], row["end_token"], ids))
    decided = db.query("SELECT a.first_token, a.end_token, a.token_decision::text AS decision, a.token_label_id, "
                       "l.category FROM annotation a LEFT JOIN label l ON l.id = a.token_label_id "
                       "WHERE a.document_id = %s AND a.token_decision IS NOT NULL", (document_id,), conn)
    n = len(doc.tokens)
    decisions = [TokenDecision(r["first_token"], r["end_token"], Decision(r["decision"]), r["token_label_id"],
                               _category(r["category"])) for r in decided if r["end_token"] <= n]
    annotations = annotate(doc, ctx.ruleset, decisions, ctx.thresholds, matches=matches)
    for ann in annotations:
        if ann.token_label is not None:
            ann.token_label = ctx.label_numbers.get(ann.token_label)
        if ann.rule_label is not None:
            ann.rule_label = ctx.label_numbers.get(ann.rule_label)
    return decided_regions(doc, annotations, ctx.thresholds, suspicious_as=Decision.PUBLIC)


def render_document(conn, document_id: int, mode: str, ctx: ProjectOutputContext | None = None) -> str | None:
    """The output text of one document in ``mode`` (``None`` if the document is not annotated yet)."""
    if mode not in OUTPUT_MODES:
        raise ValueError(f"unknown output mode {mode!r}")
    row = db.query_one("SELECT project_id, status::text AS status FROM document WHERE id = %s",
                       (document_id,), conn)
    if row is None or row["status"] not in ("PRE_ANNOTATED", "DONE"):
        return None
    ctx = ctx or project_context(conn, row["project_id"])
    doc = load_document(conn, document_id)
    regions = private_regions(conn, document_id, doc, ctx)
    if mode == "remove":
        return tool_output.remove(doc.text, regions).text
    if mode == "tag":
        return tool_output.tag(doc.text, regions, language=doc.language).text
    return tool_output.pseudonymize(doc.text, regions, tool_output.LabelReplacer(ctx.replacements),
                                    language=doc.language).text


_UNSAFE_NAME = re.compile(r"[^\w.\- ]+", re.UNICODE)


def safe_filename(name: str, suffix: str) -> str:
    """A download file name without paths or odd characters, ending in ``suffix``."""
    base = _UNSAFE_NAME.sub("_", name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]).strip(" ._") or "document"
    if base.lower().endswith(".txt"):
        base = base[:-4]
    return base[:120] + suffix


def project_zip(conn, project_id: int, kind: str) -> bytes:
    """All documents of a project in one ZIP: ``kind`` is ``input``, ``xml`` or an output mode.

    Documents not yet annotated are skipped for output modes (and lack XML until recognized).
    """
    ctx = project_context(conn, project_id) if kind in OUTPUT_MODES else None
    docs = db.query("SELECT id, name, text, tagged_xml FROM document WHERE project_id = %s ORDER BY id",
                    (project_id,), conn)
    buf = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for d in docs:
            if kind == "input":
                content, suffix = d["text"], ".txt"
            elif kind == "xml":
                content, suffix = d["tagged_xml"], ".xml"
            else:
                content, suffix = render_document(conn, d["id"], kind, ctx), f".{kind}.txt"
            if content is None:
                continue
            name = safe_filename(d["name"], suffix)
            if name in used:
                name = f"{d['id']}-{name}"
            used.add(name)
            zf.writestr(name, content.encode("utf-8"))
    return buf.getvalue()
