"""Offered project-wide "public" rules: the offers from a project's decisions, their confirmation and its undo.

An offer is computed, not stored (:mod:`psan.tool.decisions.public_offers` says which forms qualify): it follows the
decisions as they change.  What a person did with one is stored in ``public_offer``: a confirmation makes a
case-insensitive WORD_TYPE rule of the form at +1, authored by the confirming person, so it decides every current
and future matching span public (:mod:`psan.tool.decisions.precedence`: a person's public word rule outranks a type the
project learned private) — except a span a person decided (``token_decision``, which beats every rule) or one
inside a span a person decided private (:func:`psan.tool.decisions.rules.drop_covered`).  A dismissal keeps the form
from
being offered again.  Undo (:func:`undo`) deletes the rule and the row: the rule's spans fall back to what the
other rules say, and the offer comes back while the decisions still support it.

Each offer shows up to :data:`MENTIONS_SHOWN` of the spans the rule would decide now, with
:data:`CONTEXT_TOKENS` tokens either side, one document after another: what a person reads before confirming.
The caller re-annotates the project after a confirmation or an undo (:func:`psan.web.reannotate.reannotate`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from psan.runtime import db
from psan.store.admin.rules import project_sensitive_types
from psan.store.corpus.document_text import document_text
from psan.tool.decisions import public_offers as rules_offered
from psan.tool.detection.classifier.model import MODEL_TYPE

#: mentions an offer shows, and the tokens of context either side of each (what the person reads)
MENTIONS_SHOWN = 5
CONTEXT_TOKENS = 10
#: the rule a confirmation makes votes like "decide by word type" public
CONFIRMED_CONFIDENCE = 1.0


class OfferError(Exception):
    """The offer cannot be confirmed, dismissed or undone (``status``: 404 unknown, 409 changed meanwhile)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


#: the project's decided spans (a public decision around a private span is not counted: it only re-draws a
#: boundary, as psan.store.annotation.suggestions counts it), with the entity types and categories on exactly them
_DECIDED = (
    "SELECT a.document_id, a.first_token, a.end_token, d.recognized_at, "
    "CASE WHEN a.token_decision = 'PUBLIC' AND EXISTS (SELECT 1 FROM annotation p "
    "WHERE p.document_id = a.document_id AND p.token_decision = 'PRIVATE' "
    "AND p.first_token > a.first_token - 50 AND p.first_token < a.end_token AND p.end_token > a.first_token "
    "AND (p.first_token > a.first_token OR p.end_token < a.end_token)) THEN NULL "
    "ELSE a.token_decision::text END AS decision, "
    "coalesce(array_agg(ne.type) FILTER (WHERE ne.type IS NOT NULL), '{}') AS types, "
    "coalesce(array_agg(ne.category) FILTER (WHERE ne.category IS NOT NULL), '{}') AS categories "
    "FROM document d JOIN annotation a ON a.document_id = d.id AND a.token_decision IS NOT NULL "
    "LEFT JOIN named_entity ne ON ne.document_id = a.document_id AND ne.first_token = a.first_token "
    "AND ne.end_token = a.end_token AND ne.type <> %(model)s "
    "WHERE d.project_id = %(project)s "
    "GROUP BY a.id, a.document_id, a.first_token, a.end_token, a.token_decision, d.recognized_at "
    "ORDER BY a.document_id, a.first_token")
#: the undecided spans of a length a rule of ``lengths`` tokens could match, not public already
_UNDECIDED = (
    "SELECT a.document_id, a.first_token, a.end_token, d.recognized_at FROM document d "
    "JOIN project p ON p.id = d.project_id "
    "JOIN annotation a ON a.document_id = d.id AND a.token_decision IS NULL "
    "AND a.rule_level < p.public_threshold AND a.end_token - a.first_token = ANY(%(lengths)s) "
    "WHERE d.project_id = %(project)s ORDER BY a.document_id, a.first_token")


@dataclass
class Offer:
    """One offered form: its evidence and the mentions a confirmation would decide now."""

    form: str
    tokens: tuple[str, ...]
    public: int
    documents: int
    bound: float
    undecided: int
    mentions: list[dict[str, Any]]

    def json(self) -> dict[str, Any]:
        return {"form": self.form, "tokens": list(self.tokens), "public_decisions": self.public,
                "documents": self.documents, "private_share_bound": round(self.bound, 4),
                "undecided_mentions": self.undecided, "mentions": self.mentions}


def _answered(conn, project_id: int) -> set[str]:
    """Forms confirmed or dismissed, and forms any project-level word rule already decides."""
    rows = db.query("SELECT form FROM public_offer WHERE project_id = %(p)s UNION "
                    "SELECT lower(condition) FROM rule WHERE project_id = %(p)s AND annotation_id IS NULL "
                    "AND type IN ('WORD_TYPE', 'LEMMA') AND confidence <> 0", {"p": project_id}, conn)
    return {rules_offered.normalise(r["form"].split(" ")) for r in rows}


def evidence(conn, project_id: int) -> dict[str, rules_offered.FormEvidence]:
    """The counted decisions of every form decided in the project."""
    rows = db.query(_DECIDED, {"project": project_id, "model": MODEL_TYPE}, conn)
    sensitive = project_sensitive_types(conn, project_id)
    spans = []
    for r in rows:
        doc = document_text(conn, r["document_id"], r["recognized_at"])
        if doc is None:
            continue
        private = None if r["decision"] is None else r["decision"] == "PRIVATE"
        spans.append((r["document_id"], doc.token_texts(r["first_token"], r["end_token"]), private,
                      list(r["types"]), list(r["categories"])))
    return rules_offered.collect(spans, sensitive)


def offers(conn, project_id: int, min_public: int = rules_offered.MIN_PUBLIC) -> list[Offer]:
    """The project's current offers, most public decisions first (then by form)."""
    answered = _answered(conn, project_id)
    chosen = sorted((e for e in evidence(conn, project_id).values()
                     if e.form not in answered and rules_offered.offerable(e, min_public)),
                    key=lambda e: (-e.public, e.form))
    if not chosen:
        return []
    by_form = {e.form: e for e in chosen}
    found: dict[str, list[tuple[int, int, int]]] = {e.form: [] for e in chosen}
    rows = db.query(_UNDECIDED, {"project": project_id, "lengths": sorted({len(e.tokens) for e in chosen})}, conn)
    texts: dict[int, Any] = {}
    for r in rows:
        doc_id = r["document_id"]
        if doc_id not in texts:
            texts[doc_id] = document_text(conn, doc_id, r["recognized_at"])
        doc = texts[doc_id]
        if doc is None:
            continue
        form = rules_offered.normalise(doc.token_texts(r["first_token"], r["end_token"]))
        if form in by_form:
            found[form].append((doc_id, r["first_token"], r["end_token"]))
    out = []
    for e in chosen:
        mentions = [_mention(texts[d], d, f, t) for d, f, t in _spread(found[e.form], MENTIONS_SHOWN)]
        out.append(Offer(e.form, e.tokens, e.public, len(e.documents), rules_offered.private_share_bound(e.public),
                         len(found[e.form]), mentions))
    return out


def _spread(spans: list[tuple[int, int, int]], n: int) -> list[tuple[int, int, int]]:
    """Up to ``n`` spans, one per document in turn (a form's mentions in several documents, not one's repeats)."""
    by_doc: dict[int, list[tuple[int, int, int]]] = {}
    for s in spans:
        by_doc.setdefault(s[0], []).append(s)
    out: list[tuple[int, int, int]] = []
    depth = 0
    while len(out) < n and any(len(v) > depth for v in by_doc.values()):
        for v in by_doc.values():
            if len(v) > depth and len(out) < n:
                out.append(v[depth])
        depth += 1
    return sorted(out)


def _mention(doc: Any, document_id: int, first: int, end: int) -> dict[str, Any]:
    lo, hi = max(0, first - CONTEXT_TOKENS), min(doc.token_count, end + CONTEXT_TOKENS)
    return {"document_id": document_id, "first_token": first, "end_token": end,
            "before": " ".join(doc.token_texts(lo, first)), "text": " ".join(doc.token_texts(first, end)),
            "after": " ".join(doc.token_texts(end, hi)), "context_first": lo, "context_end": hi}


def _log(conn, project_id: int, account_id: int, action: str, rule_id: int | None, form: str,
         decision: str | None) -> None:
    db.execute("INSERT INTO decision_log (project_id, account_id, action, rule_id, decision, detail) "
               "VALUES (%s, %s, %s, %s, %s, %s)",
               (project_id, account_id, action, rule_id, decision, json.dumps({"form": form})), conn)


def _lock(conn, project_id: int) -> None:
    """One answer to the project's offers at a time (two persons confirming the same form make one rule)."""
    db.execute("SELECT pg_advisory_xact_lock(hashtext('public_offer'), %s::int)", (project_id % 2**31,), conn)


def _current(conn, project_id: int, form: str) -> Offer:
    wanted = rules_offered.normalise(form.split())
    for offer in offers(conn, project_id):
        if offer.form == wanted:
            return offer
    raise OfferError(gettext("These words are not offered (any more)."), 409)


def confirm(conn, project_id: int, form: str, account_id: int) -> dict[str, Any]:
    """Make the offered form a project-wide public rule (a rule the confirming person made); its id and form.

    409 when the form is not offered now (answered meanwhile, a private decision came in, a rule exists).
    """
    _lock(conn, project_id)
    offer = _current(conn, project_id, form)
    row = db.query_one(
        "INSERT INTO rule (project_id, type, condition, case_sensitive, confidence, author_id) "
        "VALUES (%s, 'WORD_TYPE', %s, false, %s, %s) ON CONFLICT (project_id, type, condition, case_sensitive) "
        "WHERE annotation_id IS NULL DO NOTHING RETURNING id",
        (project_id, offer.form, CONFIRMED_CONFIDENCE, account_id), conn)
    if row is None:
        raise OfferError(gettext("A rule for these words exists already."), 409)
    rule_id = int(row["id"])
    db.execute("INSERT INTO public_offer (project_id, form, state, rule_id, account_id) "
               "VALUES (%s, %s, 'CONFIRMED', %s, %s)", (project_id, offer.form, rule_id, account_id), conn)
    _log(conn, project_id, account_id, "public_offer_confirm", rule_id, offer.form, "PUBLIC")
    return {"form": offer.form, "rule_id": rule_id, "state": "CONFIRMED", "undecided_mentions": offer.undecided}


def dismiss(conn, project_id: int, form: str, account_id: int) -> dict[str, Any]:
    """Keep the offered form from being offered again (no rule is made)."""
    _lock(conn, project_id)
    offer = _current(conn, project_id, form)
    db.execute("INSERT INTO public_offer (project_id, form, state, account_id) VALUES (%s, %s, 'DISMISSED', %s)",
               (project_id, offer.form, account_id), conn)
    _log(conn, project_id, account_id, "public_offer_dismiss", None, offer.form, None)
    return {"form": offer.form, "rule_id": None, "state": "DISMISSED"}


def answered(conn, project_id: int) -> list[dict[str, Any]]:
    """The project's confirmed and dismissed offers, newest first (what undo can take back)."""
    return db.query("SELECT o.form, o.state, o.rule_id, o.created_at, a.email AS account_email FROM public_offer o "
                    "LEFT JOIN account a ON a.id = o.account_id WHERE o.project_id = %s "
                    "ORDER BY o.created_at DESC, o.id DESC", (project_id,), conn)


def undo(conn, project_id: int, form: str, account_id: int) -> dict[str, Any]:
    """Take a confirmation (its rule goes, and with it its votes) or a dismissal back; 404 when there is none."""
    _lock(conn, project_id)
    wanted = rules_offered.normalise(form.split())
    row = db.query_one("DELETE FROM public_offer WHERE project_id = %s AND form = %s RETURNING state, rule_id",
                       (project_id, wanted), conn)
    if row is None:
        raise OfferError(gettext("No confirmed or dismissed offer of these words."), 404)
    if row["rule_id"] is not None:
        db.execute("DELETE FROM rule WHERE id = %s AND project_id = %s", (row["rule_id"], project_id), conn)
    _log(conn, project_id, account_id, "public_offer_undo", row["rule_id"], wanted, None)
    return {"form": wanted, "rule_id": row["rule_id"], "state": None, "undone": row["state"]}
