"""A project's learned model: training from decisions, signed storage, predictions as named entities.

* **Storage** – table ``project_model`` (migration 0006): the :class:`TokenClassifier` in its safe
  byte format (no pickle), signed with an HMAC key derived from the app's ``SECRET_KEY``
  (:func:`hmac_key`), so only models this app wrote load; a row that fails verification is refused
  with a logged error and documents are processed without it.  The latest :data:`KEEP_MODELS` rows
  of a project are kept.
* **Training examples** (:func:`training_docs`) – the project's decided spans: PRIVATE/PUBLIC by the
  person's token decision, else by the rule level against the project thresholds.  The MODEL rule's
  own vote is left out of that level, so the model never learns from its own predictions.  Documents
  in status DONE were reviewed completely: words nobody marked are negatives
  (``undecided="negative"``); in others only decided spans are examples (``"exclude"``).
* **Predictions enter the vote as an NE type** – they are stored as ``named_entity`` rows with
  type :data:`MODEL_TYPE` (``MODEL``), source ``model`` and score = p(private), during
  pre-processing (the worker's ``predictions_for_new_document``) and after each retrain
  (:func:`refresh_document_predictions`).  The project's NE_TYPE rule with condition ``MODEL``
  (created with confidence 0 = suspicious, editable on the rules page like any rule) turns them
  into annotations through the ordinary matching of :mod:`psan.store.corpus.reannotate`.  A pre-trained
  classifier run as a pipeline recognizer writes the same type with its own source ``classifier``: its spans are
  detections, never replaced here (replacing them unmasked what only it had found, in text nobody had read).
* **Serving** (:mod:`psan.tool.detection.classifier.gate`) – a stored model serves (its predictions
  become MODEL entities) only while the admin's switch (``project.model_enabled``) is on and its
  held-out evaluation (``meta.serves``) beat the project's rule-based suggestions
  (:func:`serving_model`); its spans are filtered (no punctuation or stop-word spans, none longer
  than the longest decided private span of its category, a cap of new spans per window).
* **Automatic retraining** – the web app's ``maybe_schedule_retrain`` after each decision queues
  ``psan.retrain_model`` once ``MODEL_RETRAIN_AFTER_DECISIONS`` decisions were logged since the
  latest model (0 = never; :func:`retrain_due`), and a project's first model after ``MODEL_FIRST_AFTER_DECISIONS``
  (default 20) decisions.  Training runs on a worker outside any transaction; annotation goes on
  meanwhile and the previous model serves until the new one is stored.
"""
from __future__ import annotations

import bisect
import hashlib
import hmac
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import psycopg2
import psycopg2.extras

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.store.corpus.documents import load_document_cached
from psan.store.shared.document_status import ANNOTATABLE, ANNOTATED_SQL, DocumentStatus
from psan.tool.decisions.voting import Thresholds
from psan.tool.detection.classifier import (
    ModelFormatError,
    TokenClassifier,
    TrainingDoc,
    examples_from_decisions,
)
from psan.tool.detection.classifier.gate import (
    MAX_NEW_SPANS_PER_WINDOW,
    allowed_span,
    cap_new_spans,
    drop_redrawn_spans,
    proposes_new_spans,
)
from psan.tool.detection.classifier.model import CLASSIFIER_SOURCES, MODEL_SOURCE, MODEL_TYPE
from psan.tool.text.document import Category, Document, Entity

log = logging.getLogger(__name__)

#: model rows kept per project (the latest and the previous one)
KEEP_MODELS = 2
#: the condition of the project rule that votes with the model's predictions
MODEL_RULE_CONDITION = MODEL_TYPE
#: the sources of classifier proposals (this project's model and a pre-trained one): no recognizer's finding
_CLASSIFIERS = list(CLASSIFIER_SOURCES)
#: processes keep this many verified models in memory
_CACHE_SIZE = 8


def hmac_key(secret: str | bytes) -> bytes:
    """The models' signing key ``HMAC-SHA256(SECRET_KEY, "psan-model")``: pass the app's ``SECRET_KEY``."""
    raw = secret if isinstance(secret, bytes) else str(secret).encode("utf-8")
    return hmac.new(raw, b"psan-model", hashlib.sha256).digest()


# --- storage -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LoadedModel:
    """A verified model of a project and the id of its row."""

    id: int
    model: TokenClassifier


_cache: OrderedDict[tuple[int, str, str], TokenClassifier | None] = OrderedDict()
_cache_lock = threading.Lock()


def latest_model_row(conn, project_id: int) -> dict[str, Any] | None:
    """Id, meta, creation time, size and MD5 of the project's newest model (without the bytes)."""
    return db.query_one("SELECT id, meta, created_at, length(model) AS size, md5(model) AS digest "
                        "FROM project_model WHERE project_id = %s ORDER BY id DESC LIMIT 1", (project_id,), conn)


def save_model(conn, project_id: int, model: TokenClassifier, meta: dict[str, Any], key: bytes) -> int:
    """Store a model signed with ``key`` (:func:`hmac_key`) as the project's latest.

    Older rows beyond :data:`KEEP_MODELS` are deleted.
    """
    data = model.to_bytes(key)
    row = db.query_one("INSERT INTO project_model (project_id, model, meta) VALUES (%s, %s, %s) RETURNING id",
                       (project_id, psycopg2.Binary(data), json.dumps(meta)), conn)
    db.execute("DELETE FROM project_model WHERE project_id = %s AND id NOT IN (SELECT id FROM project_model "
               "WHERE project_id = %s ORDER BY id DESC LIMIT %s)", (project_id, project_id, KEEP_MODELS), conn)
    return int(row["id"])


def load_model(conn, project_id: int, key: bytes) -> LoadedModel | None:
    """The project's latest model, verified with ``key`` (:func:`hmac_key`); ``None`` without a (valid) model.

    A row that fails verification (tampered, corrupted, or written with another ``SECRET_KEY``) is
    refused with an error in the log, once per process and row content; callers carry on without
    a model.  Verified models are cached per process by row id and content digest.
    """
    row = latest_model_row(conn, project_id)
    if row is None:
        return None
    entry = (int(row["id"]), str(row["digest"]), hashlib.sha256(key).hexdigest())
    with _cache_lock:
        if entry in _cache:
            _cache.move_to_end(entry)
            cached = _cache[entry]
            return LoadedModel(entry[0], cached) if cached is not None else None
    data = db.query_one("SELECT model FROM project_model WHERE id = %s", (entry[0],), conn)
    model: TokenClassifier | None = None
    if data is not None:
        try:
            model = TokenClassifier.from_bytes(bytes(data["model"]), key)
        except ModelFormatError as exc:
            log.error("project %s: stored model %s refused (%s); documents are processed without a model",
                      project_id, entry[0], exc)
    with _cache_lock:
        _cache[entry] = model
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return LoadedModel(entry[0], model) if model is not None else None


def model_status(conn, project_id: int, key: bytes) -> dict[str, Any] | None:
    """What the project page shows about the latest model (``None`` when there is none); ``key`` verifies it."""
    row = latest_model_row(conn, project_id)
    if row is None:
        return None
    meta = dict(row["meta"] or {})
    loaded = load_model(conn, project_id, key)
    return {"id": row["id"], "created_at": row["created_at"], "size": row["size"],
            "valid": loaded is not None and loaded.id == row["id"], "trained_at": meta.get("trained_at"),
            "documents": meta.get("documents"), "tokens": meta.get("tokens"),
            "positive_tokens": meta.get("positive_tokens"), "train_seconds": meta.get("train_seconds"),
            "decisions_count": meta.get("decisions_count"), "threshold": meta.get("threshold"),
            "serves": bool(meta.get("serves")), "serve_reason": meta.get("serve_reason") or
            "trained before models were evaluated; retrain it", "model_f1": meta.get("model_f1"),
            "baseline_f1": meta.get("baseline_f1"), "held_out_tokens": meta.get("held_out_tokens"),
            "training_tokens": meta.get("training_tokens")}


def model_enabled(conn, project_id: int) -> bool:
    """The admin's switch on the projects page (``project.model_enabled``)."""
    row = db.query_one("SELECT model_enabled FROM project WHERE id = %s", (project_id,), conn)
    return bool(row and row["model_enabled"])


def set_model_enabled(conn, project_id: int, enabled: bool) -> None:
    db.execute("UPDATE project SET model_enabled = %s WHERE id = %s", (enabled, project_id), conn)


@dataclass(frozen=True, slots=True)
class SpanLimits:
    """What the model may propose in this project (:func:`psan.tool.detection.classifier.gate.allowed_span`)."""

    language: str
    longest: dict[str, int]
    #: new spans (no recognizer's) per window: 0 once they clearly do not pay (:func:`new_span_verdicts`)
    new_spans: int = MAX_NEW_SPANS_PER_WINDOW


def longest_private_spans(conn, project_id: int) -> dict[str, int]:
    """Per category: the most tokens of a span people decided private (or rules, without the model's vote)."""
    rows = db.query(
        "SELECT coalesce(l.category, (SELECT n.category FROM named_entity n WHERE n.document_id = a.document_id "
        "AND n.first_token = a.first_token AND n.end_token = a.end_token AND NOT n.source = ANY(%(classifiers)s) "
        "LIMIT 1), "
        "'OTHER') AS category, max(a.end_token - a.first_token) AS n FROM annotation a "
        "JOIN document d ON d.id = a.document_id JOIN project p ON p.id = d.project_id "
        "LEFT JOIN label l ON l.id = a.token_label_id WHERE d.project_id = %(project)s "
        "AND (a.token_decision = 'PRIVATE' OR (a.token_decision IS NULL AND a.rule_level <= p.private_threshold "
        "AND NOT EXISTS (SELECT 1 FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "
        "WHERE ar.annotation_id = a.id AND r.type = 'NE_TYPE' AND r.condition = %(model)s))) GROUP BY 1",
        {"project": project_id, "classifiers": _CLASSIFIERS, "model": MODEL_RULE_CONDITION}, conn)
    return {r["category"]: int(r["n"]) for r in rows}


def new_span_verdicts(conn, project_id: int) -> tuple[int, int]:
    """(private, public): people's latest verdicts on spans only the model had proposed (decision log).

    Why the log: a retrain replaces the model's entities, so a span decided public is usually no model
    entity any more; :func:`psan.store.annotation.decisions.decide` marks such verdicts ``model_only``.
    """
    row = db.query_one(prepared(
        "SELECT count(*) FILTER (WHERE decision = 'PRIVATE') AS private, "
        "count(*) FILTER (WHERE decision = 'PUBLIC') AS public FROM (SELECT DISTINCT ON "
        "(document_id, first_token, end_token) decision FROM decision_log WHERE project_id = %s "
        "AND detail @> '{\"model_only\": true}' ORDER BY document_id, first_token, end_token, id DESC) s"),
        (project_id,), conn)
    return (int(row["private"]), int(row["public"])) if row else (0, 0)


def new_spans_to_withdraw(conn, project_id: int) -> int | None:
    """The latest model's id when its undecided new spans are to be withdrawn now, else ``None``.

    Why: people's verdicts on the model's new spans stop further ones (:func:`new_span_verdicts`,
    :func:`psan.tool.detection.classifier.gate.proposes_new_spans`), but the spans it proposed before stayed
    suspicious until the next retrain, each a judgment that finds nothing (ELITR: a third of them came
    after the stop).  Due when the latest model serves, its new spans are stopped, and a span only the
    model proposed is still undecided: not a person's decision, not made private by a rule (those stay:
    :func:`masked_model_spans`), no recognizer's span.  Refreshing the predictions
    (``psan.model_predictions_project``) then drops them, as a retrain would.
    """
    row = latest_model_row(conn, project_id)
    if row is None or not (row["meta"] or {}).get("serves") or not model_enabled(conn, project_id):
        return None
    if proposes_new_spans(*new_span_verdicts(conn, project_id)):
        return None
    pending = db.query_one(prepared(
        "SELECT EXISTS (SELECT 1 FROM named_entity n JOIN document d ON d.id = n.document_id "
        "JOIN project p ON p.id = d.project_id "
        "JOIN annotation a ON a.document_id = n.document_id AND a.first_token = n.first_token "
        "AND a.end_token = n.end_token WHERE d.project_id = %(project)s AND n.source = %(source)s "
        "AND a.token_decision IS NULL AND a.rule_level > p.private_threshold "
        "AND NOT EXISTS (SELECT 1 FROM named_entity o WHERE o.document_id = n.document_id "
        "AND o.first_token = n.first_token AND o.end_token = n.end_token AND NOT o.source = ANY(%(classifiers)s))) "
        "AS pending"),
        {"project": project_id, "source": MODEL_SOURCE, "classifiers": _CLASSIFIERS}, conn)
    return int(row["id"]) if pending and pending["pending"] else None


def serving_model(conn, project_id: int, key: bytes) -> tuple[TokenClassifier, SpanLimits] | None:
    """The project's model and its span limits when it may serve (switch on, evaluation passed), else ``None``."""
    loaded = load_model(conn, project_id, key)
    if loaded is None or not model_enabled(conn, project_id):
        return None
    row = latest_model_row(conn, project_id)
    if row is None or not (row["meta"] or {}).get("serves"):
        return None
    project = db.query_one("SELECT language FROM project WHERE id = %s", (project_id,), conn)
    new_spans = MAX_NEW_SPANS_PER_WINDOW if proposes_new_spans(*new_span_verdicts(conn, project_id)) else 0
    return loaded.model, SpanLimits(project["language"] if project else "", longest_private_spans(conn, project_id),
                                    new_spans)


def baseline_spans(conn, document_id: int, project_id: int) -> list[tuple[int, int]]:
    """Character spans the project's rule-based suggestions make private (the model's yardstick).

    The recognizers' spans (not the model's) whose entity-type rule decides them private, or that
    are suggested private by their category (:data:`psan.tool.decisions.suggest.PRIVATE_CATEGORIES`).
    """
    from psan.tool.decisions.suggest import PRIVATE_CATEGORIES
    rows = db.query(
        "SELECT ts.start_char, te.end_char FROM named_entity n JOIN project p ON p.id = %(project)s "
        "JOIN token ts ON ts.document_id = n.document_id AND ts.idx = n.first_token "
        "JOIN token te ON te.document_id = n.document_id AND te.idx = n.end_token - 1 "
        "LEFT JOIN rule r ON r.project_id = p.id AND r.type = 'NE_TYPE' AND r.condition = n.type "
        "AND r.annotation_id IS NULL WHERE n.document_id = %(doc)s AND NOT n.source = ANY(%(classifiers)s) "
        "AND (n.category = ANY(%(categories)s) OR coalesce(r.confidence, 0) <= p.private_threshold)",
        {"project": project_id, "doc": document_id, "classifiers": _CLASSIFIERS,
         "categories": [str(c) for c in PRIVATE_CATEGORIES]}, conn)
    return [(int(r["start_char"]), int(r["end_char"])) for r in rows]


# --- training examples -----------------------------------------------------------------------------------
#: decided spans of a document with character offsets; the MODEL rule's vote is subtracted from the level
_SPANS_SQL = (
    "SELECT a.token_decision::text AS token_decision, ts.start_char, te.end_char, l.category AS label_category, "
    "a.rule_level - coalesce((SELECT sum(r.confidence) FROM annotation_rule ar JOIN rule r ON r.id = ar.rule_id "
    "WHERE ar.annotation_id = a.id AND r.type = 'NE_TYPE' AND r.condition = %(model)s "
    "AND r.annotation_id IS NULL), 0) AS level, "
    "(SELECT n.category FROM named_entity n WHERE n.document_id = a.document_id AND n.first_token = a.first_token "
    "AND n.end_token = a.end_token AND NOT n.source = ANY(%(classifiers)s) ORDER BY n.score DESC, n.id LIMIT 1) "
    "AS ne_category "
    "FROM annotation a JOIN token ts ON ts.document_id = a.document_id AND ts.idx = a.first_token "
    "JOIN token te ON te.document_id = a.document_id AND te.idx = a.end_token - 1 "
    "LEFT JOIN label l ON l.id = a.token_label_id WHERE a.document_id = %(doc)s ORDER BY a.first_token")


def _category_name(*values: str | None) -> str:
    for value in values:
        if value and value in Category.__members__:
            return value
    return Category.OTHER.value


def decided_spans(conn, document_id: int, private_threshold: float,
                  public_threshold: float) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """(private, public) character spans of a document's decided annotations (see module docstring)."""
    private: list[tuple[int, int, str]] = []
    public: list[tuple[int, int, str]] = []
    thresholds = Thresholds(public_threshold, private_threshold)
    params = {"doc": document_id, "model": MODEL_RULE_CONDITION, "classifiers": _CLASSIFIERS}
    for r in db.query(_SPANS_SQL, params, conn):
        decision = r["token_decision"]
        if decision is None:
            decision = thresholds.classify(float(r["level"]))
        span = (int(r["start_char"]), int(r["end_char"]))
        if decision == "PRIVATE":
            private.append((*span, _category_name(r["label_category"], r["ne_category"])))
        elif decision == "PUBLIC":
            public.append((*span, ""))
    return private, public


def decision_log_position(conn, project_id: int) -> tuple[int, int]:
    """(number of decisions, newest decision id) of the project's decision log."""
    row = db.query_one("SELECT count(*) AS n, coalesce(max(id), 0) AS last FROM decision_log WHERE project_id = %s",
                       (project_id,), conn)
    return int(row["n"]), int(row["last"])


def retrain_due(conn, project_id: int, every: int, first: int) -> bool:
    """Whether ``every`` decisions (``first`` before a project's first model) were logged since the latest model.

    New = decision_log rows newer than the latest model's ``decision_log_id`` (all of them before a
    first model).  Counting stops at the limit, so the check costs at most that many index entries.
    A limit of 0 means never (``first`` 0: the first model also waits for ``every``).
    """
    read = retrain_due_read(project_id, every, first)
    return read is not None and retrain_due_from(db.query_one(prepared(read[0]), read[1], conn))


def retrain_due_from(row: dict[str, Any] | None) -> bool:
    """:func:`retrain_due` from its read's row (:func:`retrain_due_read`)."""
    return row is not None and int(row["limit"]) > 0 and int(row["n"]) >= int(row["limit"])


def retrain_due_read(project_id: int, every: int, first: int) -> db.Read | None:
    """The one-row read of :func:`retrain_due` (``None``: never due), for :func:`psan.runtime.db.read_together`."""
    limits = {"with": every, "without": every if first <= 0 else (first if every <= 0 else min(first, every))}
    if limits["with"] <= 0 and limits["without"] <= 0:
        return None
    # one statement (it runs after every decision): the latest model's log id, then count up to the limit
    return (
        "WITH m AS (SELECT coalesce((meta->>'decision_log_id')::bigint, 0) AS since FROM project_model "
        "WHERE project_id = %(project)s ORDER BY id DESC LIMIT 1), "
        "l AS (SELECT CASE WHEN EXISTS (SELECT 1 FROM m) THEN %(with)s::integer "
        "ELSE %(without)s::integer END AS n) "
        "SELECT (SELECT n FROM l) AS limit, (SELECT count(*) FROM (SELECT 1 FROM decision_log "
        "WHERE project_id = %(project)s AND id > coalesce((SELECT since FROM m), 0) AND decision IS NOT NULL "
        "LIMIT greatest((SELECT n FROM l), 0)) s) AS n", {"project": project_id, **limits})


def training_docs(conn, project_id: int) -> list[TrainingDoc]:
    """Training documents of a project: every DONE document, and others with at least one decided span."""
    return [doc for _, doc in training_set(conn, project_id)]


def training_set(conn, project_id: int) -> list[tuple[int, TrainingDoc]]:
    """(document id, training document) of :func:`training_docs`, in document id order."""
    project = db.query_one("SELECT public_threshold, private_threshold FROM project WHERE id = %s",
                           (project_id,), conn)
    if project is None:
        return []
    docs: list[tuple[int, TrainingDoc]] = []
    for d in db.query("SELECT id, text, status::text AS status FROM document WHERE project_id = %s "  # noqa: S608  # nosec B608
                      "AND status IN " + ANNOTATED_SQL + " ORDER BY id", (project_id,), conn):
        private, public = decided_spans(conn, d["id"], project["private_threshold"], project["public_threshold"])
        if d["status"] == DocumentStatus.DONE:
            docs.append((int(d["id"]), examples_from_decisions(d["text"], private, public, undecided="negative")))
        elif private or public:
            docs.append((int(d["id"]), examples_from_decisions(d["text"], private, public, undecided="exclude")))
    return docs


# --- predictions -------------------------------------------------------------------------------------------
def predicted_entities(model: TokenClassifier, doc: Document, threshold: float | None = None,
                       limits: SpanLimits | None = None) -> list[Entity]:
    """The model's private spans on ``doc`` as entities over ``doc``'s tokens (type MODEL, score = p).

    The model tokenizes the text itself (as in training); its character spans are mapped to the
    tokens of the document they overlap.  With ``limits`` (what serving uses) only the spans
    :mod:`psan.tool.detection.classifier.gate` allows are kept.
    """
    if not doc.tokens:
        return []
    starts = [t.start for t in doc.tokens]
    ends = [t.end for t in doc.tokens]
    out: dict[tuple[int, int], Entity] = {}
    for span in model.predict_spans(doc.text, None, threshold):
        first = bisect.bisect_right(ends, span.start)  # first token ending after the span's start
        end = bisect.bisect_left(starts, span.end)  # tokens before this one start before the span's end
        if first >= end:
            continue
        entity = Entity(doc.tokens[first].id, doc.tokens[end - 1].id + 1, MODEL_TYPE, Category(span.category),
                        MODEL_SOURCE, float(span.score))
        key = (entity.first_token, entity.end_token)
        if key not in out or out[key].score < entity.score:
            out[key] = entity
    if limits is not None:
        out = {k: e for k, e in out.items()
               if allowed_span([doc.text[t.start:t.end] for t in doc.tokens[e.first_token:e.end_token]],
                               str(e.category), limits.language, limits.longest)}
        known = {(e.first_token, e.end_token) for e in doc.entities if e.source not in CLASSIFIER_SOURCES}
        kept = drop_redrawn_spans(cap_new_spans([(e.first_token, e.end_token, e.score) for e in out.values()], known,
                                                cap=limits.new_spans), known)
        out = {(f, e): out[(f, e)] for f, e, _ in kept}
    return sorted(out.values(), key=lambda e: (e.first_token, e.end_token))


def ensure_model_rule(conn, project_id: int) -> None:
    """The project's NE_TYPE rule for ``MODEL`` (confidence 0 = suspicious) unless it exists."""
    from psan.store.admin.rules import ensure_ne_type_rules
    ensure_ne_type_rules(conn, project_id, [MODEL_RULE_CONDITION])


def masked_model_spans(conn, document_id: int) -> list[dict[str, Any]]:
    """The document's model entities that a rule alone (no person's decision) makes private today.

    Why: such a span is masked in every download without anyone having released it; a retrain or the
    switch turning the model off must not drop it and print its words in clear (fail closed: what psan
    found and nobody released stays masked).  A person's decision lives on its annotation and survives
    anyway; suspicious spans lie in windows nobody finished and may be replaced.
    """
    return db.query(
        "SELECT n.first_token, n.end_token, n.type, n.category, n.score FROM named_entity n "
        "JOIN document d ON d.id = n.document_id JOIN project p ON p.id = d.project_id "
        "JOIN annotation a ON a.document_id = n.document_id AND a.first_token = n.first_token "
        "AND a.end_token = n.end_token "
        "WHERE n.document_id = %s AND n.source = %s AND a.token_decision IS NULL "
        "AND a.rule_level <= p.private_threshold", (document_id, MODEL_SOURCE), conn)


def refresh_document_predictions(conn, document_id: int, model: TokenClassifier | None,
                                 threshold: float | None = None, limits: SpanLimits | None = None) -> bool | None:
    """Replace a document's model entities with ``model``'s predictions (none when ``model`` is None),
    keeping the ones a rule makes private (:func:`masked_model_spans`).

    Locks the document; ``None`` for documents without tokens, else whether anything changed.
    A change bumps ``recognized_at`` so per-process document caches reload the entities.
    """
    row = db.query_one("SELECT status::text AS status FROM document WHERE id = %s FOR UPDATE", (document_id,), conn)
    if row is None or row["status"] not in ANNOTATABLE:
        return None
    new: list[Entity] = []
    if model is not None:
        doc = load_document_cached(conn, document_id)
        new = predicted_entities(model, doc, threshold, limits) if doc is not None else []
    old = db.query("SELECT first_token, end_token, type, category, score FROM named_entity "
                   "WHERE document_id = %s AND source = %s", (document_id, MODEL_SOURCE), conn)
    predicted = {(e.first_token, e.end_token) for e in new}
    new += [Entity(r["first_token"], r["end_token"], r["type"], Category(r["category"]), MODEL_SOURCE,
                   float(r["score"]))
            for r in masked_model_spans(conn, document_id) if (r["first_token"], r["end_token"]) not in predicted]
    as_set = {(r["first_token"], r["end_token"], r["category"], round(float(r["score"]), 4)) for r in old}
    if as_set == {(e.first_token, e.end_token, str(e.category), round(e.score, 4)) for e in new} \
            and len(old) == len(new):
        return False
    db.execute("DELETE FROM named_entity WHERE document_id = %s AND source = %s", (document_id, MODEL_SOURCE), conn)
    if new:
        with conn.cursor() as cur:
            psycopg2.extras.execute_values(
                cur, "INSERT INTO named_entity (document_id, first_token, end_token, type, category, source, score) "
                     "VALUES %s",
                [(document_id, e.first_token, e.end_token, e.type, str(e.category), e.source, e.score) for e in new],
                page_size=1000)
    db.execute("UPDATE document SET recognized_at = clock_timestamp() WHERE id = %s", (document_id,), conn)
    return True
