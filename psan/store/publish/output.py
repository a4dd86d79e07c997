"""Output of stored documents: private regions from annotations, rendered in every mode.

Why rebuild through :func:`psan.tool.decisions.voting.annotate`: the stored ``annotation_rule`` links are
the rule matches, so feeding them (with the person decisions) to the library gives exactly its
voting semantics — levels from the *current* rule confidences, labels, categories, nesting.
Spans still SUSPICIOUS fail closed: with the project's ``undecided_output = 'mask'`` (default)
they are rendered like private spans with their category and counted (:class:`MaskedCounts`);
``'keep'`` is the explicit choice of the thesis behaviour (written as public, 3.4.2).  A person's
decision that shrinks, splits or extends a recognizer's span replaces that span
(:mod:`psan.store.publish.corrections`).

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

import re
from collections.abc import Callable
from typing import Any

from psan.runtime import db
from psan.store.corpus.documents import load_document
from psan.store.publish.regions import (
    OUTPUT_MODES,
    ProjectOutputContext,
    PseudonymizedDocument,
    private_regions,
    project_context,
)
from psan.store.shared.document_status import ANNOTATED
from psan.tool.decisions.voting import PrivateRegion
from psan.tool.release import output as tool_output
from psan.tool.surrogates.combined import CombinedReplacer
from psan.tool.text.document import Document

#: a document of a pseudonymization pass: its row (id, name), text, private regions and manual entity keys
LoadedDocument = tuple[dict[str, Any], Document, list[PrivateRegion], dict[tuple[int, int], str]]


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
    from psan.store.annotation.entities import manual_keys  # annotators' merges and splits of entities
    loaded: list[LoadedDocument] = []
    for row in rows:
        doc = load_document(conn, row["id"])
        if doc is not None:
            loaded.append((row, doc, private_regions(conn, row["id"], doc, ctx), manual_keys(conn, row["id"], doc)))
    from psan.store.publish import pseudonym_key  # the project's stored identities (one surrogate per entity)
    # a pass that stores identities it drew is rendered again from the stored key: a pass starting from a key
    # with those identities may serve the entities differently (which entity owns a candidate depends on the
    # entities known when it is served; cnec-dtest whole: 57 of 900 documents' key did not fit the
    # ZIP downloaded before it), and the output must be what every later render of this state gives
    for attempt in range(MAX_KEY_PASSES):
        results, replacer = _pseudonymize_pass(conn, ctx, loaded, until, progress if attempt == 0 else None)
        if not pseudonym_key.remember(conn, ctx, replacer.surrogates):
            break
    return results


#: passes until the stored key reproduces the render (:func:`pseudonymize_project`); a second one stores nothing
#: new in practice: every entity it serves has its identity stored by the first
MAX_KEY_PASSES = 3


def _pseudonymize_pass(conn, ctx: ProjectOutputContext,
                       loaded: list[LoadedDocument], until: int | None,
                       progress: Callable[[int, int], None] | None
                       ) -> tuple[list[PseudonymizedDocument], CombinedReplacer]:
    """One render of the loaded documents (with their manual entity keys) from the stored identities (see
    :func:`pseudonymize_project`)."""
    from psan.store.publish import pseudonym_key
    replacer = CombinedReplacer(ctx.replacements, pseudonym_key.replacer_for(conn, ctx))
    for _, doc, regions, entity_keys in loaded:
        # entities are linked in the document's own language (Czech cases in an English project)
        replacer.surrogates.language = doc.language or ctx.language
        replacer.surrogates.observe(doc.text, regions, entity_keys=entity_keys)
    results: list[PseudonymizedDocument] = []
    for row, doc, regions, _ in loaded:
        replacer.start_document(doc.text, regions)
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
    return results, replacer


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
    from psan.store.publish.output_single import render_alone  # from the stored pseudonym key, when it suffices
    alone = render_alone(conn, document_id, ctx)
    if alone is not None:
        return alone
    done = pseudonymize_project(conn, row["project_id"], ctx, until=document_id)
    return done[-1] if done and done[-1].document_id == document_id else None


def render_output(conn, document_id: int, mode: str,
                  ctx: ProjectOutputContext | None = None) -> tool_output.Output | None:
    """The output of one document in ``mode`` with its standoff (``None`` if not annotated yet).

    The standoff says which text offsets each region replaced: a document read from an office file is
    written back through it (:mod:`psan.store.publish.files`).
    """
    if mode not in OUTPUT_MODES:
        raise ValueError(f"unknown output mode {mode!r}")
    row = db.query_one("SELECT project_id, status::text AS status FROM document WHERE id = %s",
                       (document_id,), conn)
    if row is None or row["status"] not in ANNOTATED:
        return None
    ctx = ctx or project_context(conn, row["project_id"])
    if mode == "pseudonymize":
        got = pseudonymized_document(conn, document_id, ctx)
        return None if got is None else tool_output.Output(got.text, got.entries)
    doc = load_document(conn, document_id)
    regions = private_regions(conn, document_id, doc, ctx)
    if mode == "remove":
        return tool_output.remove(doc.text, regions)
    return tool_output.tag(doc.text, regions, language=doc.language)


def render_document(conn, document_id: int, mode: str, ctx: ProjectOutputContext | None = None) -> str | None:
    """The output text of one document in ``mode`` (``None`` if the document is not annotated yet)."""
    out = render_output(conn, document_id, mode, ctx)
    return None if out is None else out.text


_UNSAFE_NAME = re.compile(r"[^\w.\- ]+", re.UNICODE)


def safe_filename(name: str, suffix: str) -> str:
    """A download file name without paths or odd characters, ending in ``suffix``."""
    base = _UNSAFE_NAME.sub("_", name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]).strip(" ._") or "document"
    if base.lower().endswith(".txt"):
        base = base[:-4]
    return base[:120] + suffix
