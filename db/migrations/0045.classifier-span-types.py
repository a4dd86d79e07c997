"""The pre-trained classifier's spans stored as ``MODEL`` get the type the classifier writes now.

Why: since the pre-trained classifier (``classifier-<lang>.bin``, source ``classifier``) types its spans
``CLS_<CATEGORY>_<SHAPE>`` (:mod:`psan.tool.detection.classifier.span_types`) the app learns them per type,
private only; a span it stored before still says ``MODEL``, which the app never decides by type, so every one of
them cost a person a judgment until its document was recognized again.  Each such span now takes the type
:func:`~psan.tool.detection.classifier.span_types.typed_spans` gives it on its document as stored (text, tokens,
sentences: the same Document the app loads), with its stored category.  Python, not SQL: the shape reads the
first character with Python's ``isdigit``/``isalpha``/``isupper`` and a sentence's first word with ``isalnum``,
which PostgreSQL's character classes follow only in some locales (in ``C`` only for ASCII: ``Č`` is no capital).

What stays:

* the project model's own spans (source ``model``) and, in a project that has a model, the classifier's spans
  0044 could not tell from them: ``MODEL``;
* the projects where somebody chose something for the type ``MODEL`` (its rule's confidence changed, or given
  by a person, or ``MODEL`` on the admin's sensitive list): their choice decides those spans, so they keep it;
* every decision: no annotation is written here.  The decisions people made on retyped spans count for their new
  type (the per-type counts read ``named_entity``; each process recounts at least every 30 s).

The new types get the project's NE_TYPE rules (:func:`psan.store.admin.rules.ensure_ne_type_rules`, as a
recognition does) and a rule change each, and the project asks for its run, which the worker's sweeper schedules
at its next pass (as for a run Redis could not take): the run (:mod:`psan.store.corpus.rule_changes`) re-annotates
every document with spans of those types, so the annotations' rule links and levels follow the new types, by the
app's own matching; a type the project learned already masks its retyped spans then.  The retyped documents'
``recognized_at`` moves on, so no process keeps their old entities cached.

Where the stored span differs from the one the classifier typed (the pipeline extends a mention after typing it)
the type follows the stored span: 2 of 1,525 spans on Czech and Slovak texts (``bench/classifier_retype_parity.py``).

Rollback changes nothing: the code before this migration writes these very types itself (rolling back to it
leaves valid data), and a span retyped here cannot be told from one the classifier typed when it was recognized.
"""
from __future__ import annotations

import logging
from collections import defaultdict

from yoyo import step

__depends__ = {"0044.pretrained-classifier-source"}

log = logging.getLogger("psan.migrations")

#: projects whose choice for the type ``MODEL`` keeps their classifier spans ``MODEL``
_CHOSEN_MODEL_TYPE = (
    "SELECT p.id FROM project p WHERE %(model)s = ANY(p.sensitive_types) OR EXISTS (SELECT 1 FROM rule r "
    "WHERE r.project_id = p.id AND r.type = 'NE_TYPE' AND r.condition = %(model)s AND r.annotation_id IS NULL "
    "AND (r.confidence <> 0 OR r.author_id IS NOT NULL))")
_DOCUMENTS = (
    "SELECT DISTINCT n.document_id, d.project_id FROM named_entity n JOIN document d ON d.id = n.document_id "
    "WHERE n.source = %(source)s AND n.type = %(model)s ORDER BY n.document_id")
_SPANS = ("SELECT id, first_token, end_token, category FROM named_entity "
          "WHERE document_id = %(doc)s AND source = %(source)s AND type = %(model)s ORDER BY id")
_RETYPE = ("UPDATE named_entity n SET type = v.type FROM unnest(%(ids)s::bigint[], %(types)s::text[]) AS v (id, type) "
           "WHERE n.id = v.id AND n.source = %(source)s AND n.type = %(model)s")
#: a rule change per NE_TYPE rule of the new types, as the admin's sensitive list writes them
#: (psan.store.admin.projects.note_blocking_changes): the project run re-annotates their documents
_NOTE_CHANGES = (
    "INSERT INTO rule_change (project_id, rule_id, old_type, old_condition, new_type, new_condition) "
    "SELECT r.project_id, r.id, 'NE_TYPE', r.condition, 'NE_TYPE', r.condition FROM rule r "
    "WHERE r.project_id = %(project)s AND r.type = 'NE_TYPE' AND r.annotation_id IS NULL "
    "AND r.condition = ANY(%(types)s)")
#: the worker's sweeper schedules the project's run at its next pass (psan.store.corpus.processing.request_reannotation)
_ASK_FOR_RUN = ("UPDATE project SET reannotate_pending_since = coalesce(reannotate_pending_since, now()) "
                "WHERE id = %(project)s")


def span_types(conn, document_id: int) -> dict[int, str]:
    """The type :func:`~psan.tool.detection.classifier.span_types.typed_spans` gives each of the document's
    classifier spans stored as ``MODEL``, by ``named_entity`` id (none for a span outside the stored tokens)."""
    from psan.store.corpus.documents import load_document
    from psan.tool.detection.classifier.model import MODEL_TYPE, PRETRAINED_SOURCE
    from psan.tool.detection.classifier.span_types import typed_spans
    from psan.tool.text.document import Category, CharSpan

    doc = load_document(conn, document_id)
    if doc is None:
        return {}
    with conn.cursor() as cur:
        cur.execute(_SPANS, {"doc": document_id, "source": PRETRAINED_SOURCE, "model": MODEL_TYPE})
        rows = [r for r in cur.fetchall() if 0 <= r[1] < r[2] <= len(doc.tokens)]
    spans = [CharSpan(doc.tokens[first].start, doc.tokens[end - 1].end, MODEL_TYPE,
                      Category(category) if category in Category.__members__ else Category.OTHER, PRETRAINED_SOURCE)
             for _, first, end, category in rows]
    return {r[0]: s.type for r, s in zip(rows, typed_spans(doc.text, doc, spans), strict=True)}


def retype(conn) -> dict[str, int]:
    """Apply: every classifier span stored as ``MODEL`` outside the projects that chose that type takes its type
    (see the module docstring); returns how many spans were retyped and kept, and in how many documents."""
    from psan.store.admin.rules import ensure_ne_type_rules
    from psan.tool.detection.classifier.model import MODEL_TYPE, PRETRAINED_SOURCE

    params = {"source": PRETRAINED_SOURCE, "model": MODEL_TYPE}
    with conn.cursor() as cur:
        cur.execute(_CHOSEN_MODEL_TYPE, params)
        chosen = {r[0] for r in cur.fetchall()}
        cur.execute(_DOCUMENTS, params)
        documents = cur.fetchall()
    counts = {"spans": 0, "documents": 0, "kept": 0}
    new_types: dict[int, set[str]] = defaultdict(set)
    for document_id, project_id in documents:
        if project_id in chosen:
            continue
        types = span_types(conn, document_id)
        if not types:
            continue
        ids = sorted(types)
        with conn.cursor() as cur:
            cur.execute(_RETYPE, {**params, "ids": ids, "types": [types[i] for i in ids]})
            cur.execute("UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (document_id,))
        new_types[project_id].update(types.values())
        counts["spans"] += len(types)
        counts["documents"] += 1
    for project_id, types in sorted(new_types.items()):
        ensure_ne_type_rules(conn, project_id, types)
        with conn.cursor() as cur:
            cur.execute(_NOTE_CHANGES, {"project": project_id, "types": sorted(types)})
            cur.execute(_ASK_FOR_RUN, {"project": project_id})
    with conn.cursor() as cur:
        cur.execute("SELECT count(*) FROM named_entity WHERE source = %(source)s AND type = %(model)s", params)
        counts["kept"] = int(cur.fetchone()[0])
    log.info("0045: %s classifier spans in %s documents retyped; %s kept MODEL (projects that chose it: %s)",
             counts["spans"], counts["documents"], counts["kept"], sorted(chosen) or "none")
    return counts


def keep(conn) -> None:
    """Rollback: nothing to undo (see the module docstring)."""


steps = [step(retype, keep)]
