"""Private regions of a stored document under the project's current settings: the annotations rebuilt
through :func:`psan.tool.decisions.voting.annotate`, person corrections, region labels and undecided spans masked.

Why a module of its own: every output (:mod:`psan.store.publish.output`), the single-document render
(:mod:`psan.store.publish.output_single`), QA sampling (:mod:`psan.store.publish.qa`) and the release
report (:mod:`psan.store.publish.release`) start from these regions; in ``output`` they made those modules
import each other.  How the regions are built and why: see :mod:`psan.store.publish.output`.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from psan.runtime import db
from psan.store.admin.rules import load_ruleset
from psan.store.annotation import entities as store_entities
from psan.store.publish.corrections import apply_corrections, fill_region_type
from psan.tool.decisions.rules import RuleMatch, RuleSet
from psan.tool.decisions.voting import (
    Annotation,
    PrivateRegion,
    Thresholds,
    TokenDecision,
    annotate,
    decided_regions,
    final_decision,
)
from psan.tool.surrogates import make_policy
from psan.tool.surrogates.policy import surrogate_policy
from psan.tool.text.document import Category, Decision, Document

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


def project_context(conn, project_id: int, document_id: int | None = None) -> ProjectOutputContext:
    """What every document's output of the project shares; ``document_id``: for that one document's output only
    (the rules bound to other documents are left out: :func:`psan.store.admin.rules.load_rules`)."""
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
    return ProjectOutputContext(load_ruleset(conn, project_id, document_id),
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
    mentions = {(r["first_token"], r["end_token"]): category
                for r in db.query("SELECT a.first_token, a.end_token, e.category FROM annotation a "
                                  "JOIN entity_mention m ON m.document_id = a.document_id "
                                  "AND m.first_token = a.first_token AND m.end_token = a.end_token "
                                  "JOIN entity e ON e.id = m.entity_id WHERE a.document_id = %s "
                                  "AND a.token_decision IS NOT NULL", (document_id,), conn)
                if (category := _category(r["category"])) is not None}
    return apply_corrections(doc, annotations, person_categories, mentions)


def entity_labels(conn, project_id: int) -> dict[int, int]:
    """Entity id → the label persons gave its mentions (:func:`psan.store.annotation.entities.entity_labels`)."""
    return store_entities.entity_labels(conn, project_id)


def _labelled_regions(conn, document_id: int, regions: list[PrivateRegion], annotations: list[Annotation],
                      ctx: ProjectOutputContext) -> list[PrivateRegion]:
    """Regions with the label of the entity they mention, else their own, else a labelled span's inside them.

    Why: the outermost span gives a region its label (:func:`psan.tool.decisions.voting.decided_regions`), so a
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
    """Undecided spans by category: every span still waiting for a person (its final decision SUSPICIOUS).

    Why every one, a span inside a decided private one too: it is the count the documents page, the
    keep confirmation, the dashboard and the release page's "by how decided" give (the SQL twin is
    :data:`psan.store.shared.document_status.SUSPICIOUS_SQL`); leaving the covered ones out here made
    ``MASKED.json`` say 24 where every other page said 25.  A covered span is masked either way.
    """
    counts = MaskedCounts(policy)
    for ann in annotations:
        if final_decision(ann, thresholds) is Decision.SUSPICIOUS:
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
