"""Output of stored documents: private regions from annotations, rendered in every mode.

Why rebuild through :func:`psan.tool.voting.annotate`: the stored ``annotation_rule`` links are
the rule matches, so feeding them (with the person decisions) to the library gives exactly its
voting semantics — levels from the *current* rule confidences, labels, categories, nesting.
Spans still SUSPICIOUS fail closed: with the project's ``undecided_output = 'mask'`` (default)
they are rendered like private spans with their category and counted (:class:`MaskedCounts`);
``'keep'`` is the explicit choice of the thesis behaviour (written as public, 3.4.2).  A person's
decision that shrinks, splits or extends a recognizer's span replaces that span
(:mod:`psan.store.corrections`).

Label ids in tags are replaced by project-local numbers (1, 2, … in label creation order) so
``[PERSON-2]`` means "the same person" within the project without exposing database ids.

Pseudonymization (:func:`pseudonymize_project`) uses
:class:`~psan.tool.surrogates.combined.CombinedReplacer`: a label's
replacement string set by the admin wins; every other private region gets a surrogate from one
:class:`~psan.tool.surrogates.SurrogateReplacer` per project render (project seed, project language,
policy from ``project.pipeline->'surrogates'``), so one label is one surrogate in every document.

Why a single document is rendered by replaying the project: the surrogate draws are seeded by
(seed, entity), but the replacer is *stateful* — it rejects candidates equal to any observed
original and candidates another entity already owns, so a surrogate depends on which originals
were observed and which entities were served first.  Rendering a document alone would therefore
differ from the same document in the project ZIP.  Instead every render observes the private
originals of all annotated documents of the project and then replaces documents in id order up
to the one asked for; the result is identical to the ZIP member and to the exported key.  The
cost is one project pass per single-document download (no state is persisted, nothing can go
stale).  Output and key are a function of the project's *current* annotations, rules, labels,
seed and policy: a key fits the output downloaded with the same project state.
"""
from __future__ import annotations

import io
import json
import logging
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from psan import db
from psan.store.corrections import apply_corrections, fill_region_type
from psan.store.document_status import ANNOTATED
from psan.store.documents import load_document
from psan.store.rules import load_ruleset
from psan.tool import output as tool_output
from psan.tool.document import Category, Decision, Document
from psan.tool.rules import RuleMatch, RuleSet
from psan.tool.surrogates import make_policy
from psan.tool.surrogates.combined import CombinedReplacer
from psan.tool.surrogates.policy import surrogate_policy
from psan.tool.voting import (
    Annotation,
    PrivateRegion,
    Thresholds,
    TokenDecision,
    annotate,
    decided_regions,
    final_decision,
)

OUTPUT_MODES = ("remove", "tag", "pseudonymize")
#: what the output does with spans nobody decided: ``mask`` (default, fail closed) or ``keep``
UNDECIDED_POLICIES = ("mask", "keep")

log = logging.getLogger(__name__)


@dataclass(slots=True)
class ProjectOutputContext:
    """Everything per project that rendering needs, loaded once for a whole-project ZIP."""

    ruleset: RuleSet
    thresholds: Thresholds
    label_numbers: dict[int, int]
    replacements: dict[int, str]
    project_id: int = 0
    seed: str = ""
    language: str = "en"
    policy: dict[str, Any] = field(default_factory=lambda: make_policy(None))
    #: project-local label number → label name (for the key)
    label_names: dict[int, str] = field(default_factory=dict)
    #: ``mask`` or ``keep`` (``project.undecided_output``)
    undecided: str = "mask"
    #: per document id: undecided spans masked (or kept) by category, filled while rendering
    masked: dict[int, MaskedCounts] = field(default_factory=dict)
    #: per document id: voted spans and private regions of this render (the release report reuses them)
    rendered: dict[int, tuple[list[Annotation], list[PrivateRegion]]] = field(default_factory=dict)
    #: entity id → label id a person gave one of its mentions (read once per render: :func:`entity_labels`)
    entity_labels: dict[int, int] | None = None


@dataclass(slots=True)
class MaskedCounts:
    """Undecided (SUSPICIOUS) spans of one document and what the output did with them."""

    policy: str
    by_category: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.by_category.values())


def project_context(conn, project_id: int) -> ProjectOutputContext:
    project = db.query_one("SELECT public_threshold, private_threshold, seed, language, pipeline, undecided_output "
                           "FROM project WHERE id = %s", (project_id,), conn)
    labels = db.query("SELECT id, name, replacement FROM label WHERE project_id = %s ORDER BY id",
                      (project_id,), conn)
    numbers = {row["id"]: n for n, row in enumerate(labels, start=1)}
    replacements = {numbers[row["id"]]: row["replacement"] for row in labels if row["replacement"]}
    try:
        policy = surrogate_policy(project["pipeline"])
    except ValueError as exc:
        # a download must not fail on a stale setting; defaults are as safe (no original is reused)
        log.warning("project %s: invalid surrogate policy (%s); using the defaults", project_id, exc)
        policy = make_policy(None)
    return ProjectOutputContext(load_ruleset(conn, project_id),
                                Thresholds(project["public_threshold"], project["private_threshold"]),
                                numbers, replacements, project_id=project_id, seed=project["seed"],
                                language=project["language"], policy=policy,
                                label_names={numbers[row["id"]]: row["name"] for row in labels},
                                undecided=project["undecided_output"] if project["undecided_output"]
                                in UNDECIDED_POLICIES else "mask")


def _category(value: str | None) -> Category | None:
    try:
        return Category(value) if value else None
    except ValueError:
        return None


def document_annotations(conn, document_id: int, doc: Document, ctx: ProjectOutputContext) -> list[Annotation]:
    """The document's voted spans (stored matches, person decisions, current rules), corrections applied."""
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
    person_categories = {(d.first_token, d.end_token) for d in decisions if d.category is not None}
    return apply_corrections(doc, annotations, person_categories)


def entity_labels(conn, project_id: int) -> dict[int, int]:
    """Entity id → the label persons gave its mentions (the most used; ties: the oldest label).

    A labelled span labels the entity of the mention exactly at it, else of the longest mention
    inside it (a label on "Mr. Harper" labels the entity of "Harper").
    """
    rows = db.query(
        "WITH lab AS (SELECT a.document_id, a.first_token, a.end_token, a.token_label_id FROM annotation a "
        "JOIN document d ON d.id = a.document_id WHERE d.project_id = %s AND a.token_label_id IS NOT NULL "
        "AND a.token_decision = 'PRIVATE'), "
        "hit AS (SELECT DISTINCT ON (lab.document_id, lab.first_token, lab.end_token) m.entity_id, lab.token_label_id "
        "FROM lab JOIN entity_mention m ON m.document_id = lab.document_id AND m.first_token >= lab.first_token "
        "AND m.end_token <= lab.end_token ORDER BY lab.document_id, lab.first_token, lab.end_token, "
        "(m.first_token = lab.first_token AND m.end_token = lab.end_token) DESC, "
        "m.end_token - m.first_token DESC, m.first_token) "
        "SELECT DISTINCT ON (entity_id) entity_id, token_label_id FROM hit "
        "GROUP BY entity_id, token_label_id ORDER BY entity_id, count(*) DESC, token_label_id",
        (project_id,), conn)
    return {int(r["entity_id"]): int(r["token_label_id"]) for r in rows}


def _labelled_regions(conn, document_id: int, regions: list[PrivateRegion], annotations: list[Annotation],
                      ctx: ProjectOutputContext) -> list[PrivateRegion]:
    """Regions with the label of the entity they mention, else their own, else a labelled span's inside them.

    Why: the outermost span gives a region its label (:func:`psan.tool.voting.decided_regions`), so a
    wider unlabelled span over a labelled name (a model span, a word-type match) lost the label.
    """
    if ctx.entity_labels is None:
        ctx.entity_labels = entity_labels(conn, ctx.project_id)
    mentions = []
    if ctx.entity_labels:
        mentions = [(r["first_token"], r["end_token"], ctx.label_numbers.get(ctx.entity_labels[int(r["entity_id"])]))
                    for r in db.query("SELECT first_token, end_token, entity_id FROM entity_mention "
                                      "WHERE document_id = %s", (document_id,), conn)
                    if int(r["entity_id"]) in ctx.entity_labels]
    labelled_spans = [(a.first_token, a.end_token, a.label) for a in annotations
                      if a.label is not None and final_decision(a, ctx.thresholds) is not Decision.PUBLIC]
    out = []
    for region in regions:
        label = _longest_inside(region, mentions)
        if label is None:
            label = region.label if region.label is not None else _longest_inside(region, labelled_spans)
        out.append(region if label == region.label else replace(region, label=label))
    return out


def _longest_inside(region: PrivateRegion, spans: list[tuple[int, int, int | None]]) -> int | None:
    """The label of the longest (then earliest) labelled span inside the region."""
    best: tuple[int, int] | None = None
    label = None
    for first, end, lab in spans:
        if lab is None or not (region.first_token <= first and end <= region.end_token):
            continue
        key = (end - first, -first)
        if best is None or key > best:
            best, label = key, lab
    return label


def masked_counts(annotations: list[Annotation], thresholds: Thresholds, policy: str) -> MaskedCounts:
    """Undecided spans by category that no decided private span covers (what the policy acts on)."""
    counts = MaskedCounts(policy)
    decided_private: set[int] = set()
    for ann in annotations:
        if final_decision(ann, thresholds) is Decision.PRIVATE:
            decided_private.update(range(ann.first_token, ann.end_token))
    for ann in annotations:
        if final_decision(ann, thresholds) is Decision.SUSPICIOUS and \
                not decided_private.issuperset(range(ann.first_token, ann.end_token)):
            key = str(ann.category)
            counts.by_category[key] = counts.by_category.get(key, 0) + 1
    return counts


def private_regions(conn, document_id: int, doc: Document, ctx: ProjectOutputContext) -> list[PrivateRegion]:
    """The document's private regions; undecided spans masked or kept by the project's policy."""
    annotations = document_annotations(conn, document_id, doc, ctx)
    ctx.masked[document_id] = masked_counts(annotations, ctx.thresholds, ctx.undecided)
    suspicious_as = Decision.PRIVATE if ctx.undecided == "mask" else Decision.PUBLIC
    regions = [fill_region_type(doc, region)
               for region in decided_regions(doc, annotations, ctx.thresholds, suspicious_as=suspicious_as)]
    regions = _labelled_regions(conn, document_id, regions, annotations, ctx)
    ctx.rendered[document_id] = (annotations, regions)
    return regions


@dataclass(slots=True)
class PseudonymizedDocument:
    """One document's pseudonymized output and its key entries (personal data: keep apart)."""

    document_id: int
    name: str
    text: str
    entries: list[dict[str, Any]]


def pseudonymize_project(conn, project_id: int, ctx: ProjectOutputContext | None = None,
                         until: int | None = None,
                         progress: Callable[[int, int], None] | None = None) -> list[PseudonymizedDocument]:
    """Pseudonymize the annotated documents of a project in id order, with one shared replacer.

    All private originals of the project are observed first (no surrogate equals an original of
    any document); with ``until`` the pass stops after that document, which gives exactly the
    text it has in the full pass (see the module docstring).  ``progress(done, total)`` is called after
    each document (a background download shows it).
    """
    ctx = ctx or project_context(conn, project_id)
    rows = db.query("SELECT id, name FROM document WHERE project_id = %s AND status::text = ANY(%s) ORDER BY id",
                    (project_id, list(ANNOTATED)), conn)
    loaded: list[tuple[dict[str, Any], Document, list[PrivateRegion]]] = []
    for row in rows:
        doc = load_document(conn, row["id"])
        if doc is not None:
            loaded.append((row, doc, private_regions(conn, row["id"], doc, ctx)))
    from psan.store import pseudonym_key  # the project's stored identities (one surrogate per entity)
    replacer = CombinedReplacer(ctx.replacements, pseudonym_key.replacer_for(conn, ctx))
    from psan.store.entities import manual_keys  # annotators' merges and splits of entities
    for row, doc, regions in loaded:
        # entities are linked in the document's own language (Czech cases in an English project)
        replacer.surrogates.language = doc.language or ctx.language
        replacer.surrogates.observe(doc.text, regions, entity_keys=manual_keys(conn, row["id"], doc))
    results: list[PseudonymizedDocument] = []
    for row, doc, regions in loaded:
        replacer.start_document()
        # surrogates follow the document's language (a Czech document in an English project)
        replacer.surrogates.language = doc.language or ctx.language
        out = tool_output.pseudonymize(doc.text, regions, replacer, language=doc.language)
        entries = []
        for e in out.standoff:
            where = (e["original_start"], e["original_end"])
            entries.append({"document": str(row["id"]), "document_id": row["id"], "document_name": row["name"],
                            **e, "label_name": ctx.label_names.get(e["label"]) if e["label"] is not None else None,
                            "entity": replacer.entities.get(where, ""), "source": replacer.sources.get(where, "tag")})
        results.append(PseudonymizedDocument(row["id"], row["name"], out.text, entries))
        if progress is not None:
            progress(len(results), len(loaded))
        if until is not None and row["id"] == until:
            break
    pseudonym_key.remember(conn, ctx, replacer.surrogates)
    return results


def pseudonymized_document(conn, document_id: int,
                           ctx: ProjectOutputContext | None = None) -> PseudonymizedDocument | None:
    """One document's pseudonymized output and key, identical to its part of the project pass.

    ``None`` if the document does not exist or is not annotated yet.
    """
    row = db.query_one("SELECT project_id, status::text AS status FROM document WHERE id = %s",
                       (document_id,), conn)
    if row is None or row["status"] not in ANNOTATED:
        return None
    ctx = ctx or project_context(conn, row["project_id"])
    from psan.store.output_single import render_alone  # from the stored pseudonym key, when it suffices
    alone = render_alone(conn, document_id, ctx)
    if alone is not None:
        return alone
    done = pseudonymize_project(conn, row["project_id"], ctx, until=document_id)
    return done[-1] if done and done[-1].document_id == document_id else None


def render_document(conn, document_id: int, mode: str, ctx: ProjectOutputContext | None = None) -> str | None:
    """The output text of one document in ``mode`` (``None`` if the document is not annotated yet)."""
    if mode not in OUTPUT_MODES:
        raise ValueError(f"unknown output mode {mode!r}")
    row = db.query_one("SELECT project_id, status::text AS status FROM document WHERE id = %s",
                       (document_id,), conn)
    if row is None or row["status"] not in ANNOTATED:
        return None
    ctx = ctx or project_context(conn, row["project_id"])
    if mode == "pseudonymize":
        got = pseudonymized_document(conn, document_id, ctx)
        return None if got is None else got.text
    doc = load_document(conn, document_id)
    regions = private_regions(conn, document_id, doc, ctx)
    if mode == "remove":
        return tool_output.remove(doc.text, regions).text
    return tool_output.tag(doc.text, regions, language=doc.language).text


_UNSAFE_NAME = re.compile(r"[^\w.\- ]+", re.UNICODE)


def safe_filename(name: str, suffix: str) -> str:
    """A download file name without paths or odd characters, ending in ``suffix``."""
    base = _UNSAFE_NAME.sub("_", name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]).strip(" ._") or "document"
    if base.lower().endswith(".txt"):
        base = base[:-4]
    return base[:120] + suffix


def project_zip(conn, project_id: int, kind: str, progress: Callable[[int, int], None] | None = None) -> bytes:
    """All documents of a project in one ZIP: ``kind`` is ``input``, ``xml`` or an output mode.

    Documents not yet annotated are skipped for output modes (and lack XML until recognized).
    The pseudonymization key is never part of it (it holds the originals): see
    :mod:`psan.documents.key`.  Every ZIP carries the release report (``RELEASE_REPORT.html`` /
    ``.json``, counts only) and, for output modes, ``MASKED.json``: the undecided spans masked (or
    kept, with policy ``keep``) per document and category.  ``progress(done, total)``: called after each
    document (a background download shows it).
    """
    from psan.store.release import project_report, report_html
    ctx = project_context(conn, project_id) if kind in OUTPUT_MODES else None
    pseudonymized = ({d.document_id: d.text for d in pseudonymize_project(conn, project_id, ctx, progress=progress)}
                     if kind == "pseudonymize" else {})
    # the text and the XML (tens of MB for a large document) only where this kind writes them
    docs = db.query("SELECT id, name, CASE WHEN %s = 'input' THEN text END AS text, "
                    "CASE WHEN %s = 'xml' THEN tagged_xml END AS tagged_xml "
                    "FROM document WHERE project_id = %s ORDER BY id", (kind, kind, project_id), conn)
    buf = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for done, d in enumerate(docs, 1):
            if kind == "input":
                content, suffix = d["text"], ".txt"
            elif kind == "xml":
                content, suffix = d["tagged_xml"], ".xml"
            elif kind == "pseudonymize":
                content, suffix = pseudonymized.get(d["id"]), f".{kind}.txt"
            else:
                content, suffix = render_document(conn, d["id"], kind, ctx), f".{kind}.txt"
            if content is None:
                continue
            name = safe_filename(d["name"], suffix)
            if name in used:
                name = f"{d['id']}-{name}"
            used.add(name)
            zf.writestr(name, content.encode("utf-8"))
            if progress is not None and kind != "pseudonymize":  # pseudonyms reported their pass already
                progress(done, len(docs))
        report_ctx = ctx or project_context(conn, project_id)
        if kind in OUTPUT_MODES:
            zf.writestr("MASKED.json", json.dumps(masked_summary(report_ctx, docs), ensure_ascii=False, indent=2))
        report = project_report(conn, project_id, report_ctx)
        zf.writestr("RELEASE_REPORT.json", json.dumps(report, ensure_ascii=False, indent=2))
        zf.writestr("RELEASE_REPORT.html", report_html(report))
    return buf.getvalue()


def masked_summary(ctx: ProjectOutputContext, docs: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``MASKED.json`` says: the policy and the undecided spans per document and category."""
    names = {d["id"]: d["name"] for d in docs}
    rows = [{"id": doc_id, "name": names.get(doc_id, ""), "undecided": c.total, "by_category": c.by_category}
            for doc_id, c in sorted(ctx.masked.items())]
    return {"policy": ctx.undecided,
            "meaning": "undecided spans rendered like private spans" if ctx.undecided == "mask"
            else "undecided spans KEPT AS PUBLIC by the project's explicit setting",
            "total": sum(r["undecided"] for r in rows), "documents": rows}
