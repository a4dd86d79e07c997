"""Output of stored documents: private regions from annotations, rendered in every mode.

Why rebuild through :func:`psan.tool.voting.annotate`: the stored ``annotation_rule`` links are
the rule matches, so feeding them (with the person decisions) to the library gives exactly its
voting semantics — levels from the *current* rule confidences, labels, categories, nesting.
Suspicious spans are output as public (thesis 3.4.2).

Label ids in tags are replaced by project-local numbers (1, 2, … in label creation order) so
``[PERSON-2]`` means "the same person" within the project without exposing database ids.

Pseudonymization (:func:`pseudonymize_project`) uses :class:`CombinedReplacer`: a label's
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
import logging
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from psan import db
from psan.store.documents import load_document
from psan.store.rules import load_ruleset
from psan.tool import output as tool_output
from psan.tool.model import Category, Decision, Document
from psan.tool.rules import RuleMatch, RuleSet
from psan.tool.surrogates import SurrogateReplacer, make_policy
from psan.tool.voting import PrivateRegion, Thresholds, TokenDecision, annotate, decided_regions

OUTPUT_MODES = ("remove", "tag", "pseudonymize")
#: document statuses that have private regions (annotated at least by the rules)
ANNOTATED = ("PRE_ANNOTATED", "DONE")

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


def surrogate_policy(pipeline: Mapping[str, Any] | None) -> dict[str, Any]:
    """The validated surrogate policy of a project's ``pipeline`` JSON (``ValueError`` if invalid).

    ``pipeline["surrogates"]`` is a JSON object of :func:`psan.tool.surrogates.make_policy`
    overrides, optionally with ``"preset": "default" | "polish" | "swell"``; absent → defaults.
    Public so the project settings form can validate what the admin enters.
    """
    raw = (pipeline or {}).get("surrogates")
    if raw is None:
        return make_policy(None)
    if not isinstance(raw, Mapping):
        raise ValueError("the surrogate policy (pipeline key 'surrogates') must be a JSON object")
    overrides = dict(raw)
    preset = overrides.pop("preset", "default")
    if not isinstance(preset, str):
        raise ValueError("the surrogate policy preset must be a string")
    return make_policy(overrides, preset)


def project_context(conn, project_id: int) -> ProjectOutputContext:
    project = db.query_one("SELECT public_threshold, private_threshold, seed, language, pipeline FROM project "
                           "WHERE id = %s", (project_id,), conn)
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
                                label_names={numbers[row["id"]]: row["name"] for row in labels})


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


class CombinedReplacer:
    """``Replacer`` for the app: the admin's label replacement wins, else a project surrogate.

    Why both: an admin who typed a replacement for a label ("the client") wants exactly that
    string; everything else must still become a realistic, consistent surrogate instead of a
    tag.  ``None`` from the surrogate replacer (policy ``tag`` or nothing safe found) makes the
    output module write the category tag.  ``sources``/``entities`` record, per region, who
    produced the text and the consistency key, for the pseudonymization key.
    """

    def __init__(self, replacements: Mapping[int, str], surrogates: SurrogateReplacer) -> None:
        self.replacements = dict(replacements)
        self.surrogates = surrogates
        for text in set(self.replacements.values()):
            # a surrogate equal to an admin's replacement would merge two entities in the output
            surrogates.observe(text, [PrivateRegion(0, len(text))])
        self.sources: dict[tuple[int, int], str] = {}
        self.entities: dict[tuple[int, int], str] = {}

    def observe(self, text: str, regions: list[PrivateRegion]) -> None:
        """Forbid the document's originals as surrogates (see ``SurrogateReplacer.observe``)."""
        self.surrogates.observe(text, regions)

    def start_document(self) -> None:
        """Forget the per-region records of the previous document (offsets are per document)."""
        self.sources = {}
        self.entities = {}
        self.surrogates.entities = {}

    def replacement(self, region: PrivateRegion, original: str) -> str | None:
        where = (region.start, region.end)
        if region.label is not None and region.label in self.replacements:
            self.sources[where] = "label"
            self.entities[where] = f"label:{region.label}"
            return self.replacements[region.label]
        got = self.surrogates.replacement(region, original)
        self.sources[where] = "surrogate" if got is not None else "tag"
        self.entities[where] = self.surrogates.entities.get(where, "")
        return got


@dataclass(slots=True)
class PseudonymizedDocument:
    """One document's pseudonymized output and its key entries (personal data: keep apart)."""

    document_id: int
    name: str
    text: str
    entries: list[dict[str, Any]]


def pseudonymize_project(conn, project_id: int, ctx: ProjectOutputContext | None = None,
                         until: int | None = None) -> list[PseudonymizedDocument]:
    """Pseudonymize the annotated documents of a project in id order, with one shared replacer.

    All private originals of the project are observed first (no surrogate equals an original of
    any document); with ``until`` the pass stops after that document, which gives exactly the
    text it has in the full pass (see the module docstring).
    """
    ctx = ctx or project_context(conn, project_id)
    rows = db.query("SELECT id, name FROM document WHERE project_id = %s AND status::text = ANY(%s) ORDER BY id",
                    (project_id, list(ANNOTATED)), conn)
    loaded: list[tuple[dict[str, Any], Document, list[PrivateRegion]]] = []
    for row in rows:
        doc = load_document(conn, row["id"])
        if doc is not None:
            loaded.append((row, doc, private_regions(conn, row["id"], doc, ctx)))
    replacer = CombinedReplacer(ctx.replacements, SurrogateReplacer(ctx.policy, ctx.language, ctx.seed))
    for _, doc, regions in loaded:
        replacer.observe(doc.text, regions)
    results: list[PseudonymizedDocument] = []
    for row, doc, regions in loaded:
        replacer.start_document()
        out = tool_output.pseudonymize(doc.text, regions, replacer, language=doc.language)
        entries = []
        for e in out.standoff:
            where = (e["original_start"], e["original_end"])
            entries.append({"document": str(row["id"]), "document_id": row["id"], "document_name": row["name"],
                            **e, "label_name": ctx.label_names.get(e["label"]) if e["label"] is not None else None,
                            "entity": replacer.entities.get(where, ""), "source": replacer.sources.get(where, "tag")})
        results.append(PseudonymizedDocument(row["id"], row["name"], out.text, entries))
        if until is not None and row["id"] == until:
            break
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


def project_zip(conn, project_id: int, kind: str) -> bytes:
    """All documents of a project in one ZIP: ``kind`` is ``input``, ``xml`` or an output mode.

    Documents not yet annotated are skipped for output modes (and lack XML until recognized).
    The pseudonymization key is never part of it (it holds the originals): see
    :mod:`psan.documents.key`.
    """
    ctx = project_context(conn, project_id) if kind in OUTPUT_MODES else None
    pseudonymized = ({d.document_id: d.text for d in pseudonymize_project(conn, project_id, ctx)}
                     if kind == "pseudonymize" else {})
    # the text and the XML (tens of MB for a large document) only where this kind writes them
    docs = db.query("SELECT id, name, CASE WHEN %s = 'input' THEN text END AS text, "
                    "CASE WHEN %s = 'xml' THEN tagged_xml END AS tagged_xml "
                    "FROM document WHERE project_id = %s ORDER BY id", (kind, kind, project_id), conn)
    buf = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for d in docs:
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
    return buf.getvalue()
