"""Why a span is decided (thesis Figure 4.10): its rules, the person's decision and the history.

Authors are shown by name (the thesis records the last author of every decision so annotators
can check each other); label replacements are never selected.
"""
from __future__ import annotations

from typing import Any

from flask_babel import gettext

from psan.annotate.content import annotation_ref, final_decision, rule_label
from psan.annotate.entity_view import annotator_entity
from psan.store.annotation import annotation_detail as store_detail
from psan.store.annotation import visibility
from psan.store.annotation.window_content import label_names
from psan.store.annotation.windows import Window
from psan.tool.decisions.voting import Thresholds
from psan.tool.detection.classifier.model import MODEL_TYPE
from psan.web.code_names import action_name, decision_name, ne_type_name, rule_type_name, vote_name

#: history entries shown for one span
HISTORY_LIMIT = 50


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def _is_model_rule(rule: dict[str, Any]) -> bool:
    """The project rule voting with the model's suggestions (NE_TYPE ``MODEL``)."""
    return rule["type"] == "NE_TYPE" and rule["condition"] == MODEL_TYPE and not rule["lookup"]


def special_category_name(topic: str) -> str:
    """The annotator's name of a special-category topic (psan.tool.detection.recognizers.sensitive), translated."""
    names = {"HEALTH": gettext("health"), "RELIGION": gettext("religion"),
             "POLITICS": gettext("political opinion"), "SEXUAL_ORIENTATION": gettext("sexual orientation"),
             "ETHNICITY": gettext("ethnicity"), "FAMILY": gettext("family relations"), "GENDER": gettext("gender")}
    return names.get(topic, topic.lower())


def annotation_detail(conn, window: Window, annotation_id: int,
                      elided: tuple[int, int] | None = None) -> dict[str, Any]:
    """Why the span is decided; ``elided``: the middle of the window the caller is not shown
    (:mod:`psan.store.annotation.visibility`), whose text no rule condition may carry."""
    a = store_detail.annotation_row(conn, annotation_id)
    rules = store_detail.annotation_rules(conn, annotation_id)
    history = store_detail.span_history(conn, a["document_id"], a["first_token"], a["end_token"], HISTORY_LIMIT)
    found = store_detail.span_entities(conn, a["document_id"], a["first_token"], a["end_token"])
    entities = sorted({r["type"] for r in found})
    topics = [special_category_name(r["type"]) for r in found if r["category"] == "SENSITIVE"]
    model_score = store_detail.model_span_score(conn, a["document_id"], a["first_token"], a["end_token"])
    thresholds = Thresholds(window.public_threshold, window.private_threshold)
    by_rule = rule_label(rules)
    names = label_names(conn, {x for x in [a["token_label_id"], by_rule, *(r["label_id"] for r in rules)]
                               if x is not None})
    decision = final_decision(a, thresholds)
    label_id = (a["token_label_id"] if a["token_label_id"] is not None else by_rule) if decision == "PRIVATE" else None
    return {
        "id": annotation_ref(a["first_token"], a["end_token"]), "first_token": a["first_token"],
        "end_token": a["end_token"],
        "decision": decision, "rule_level": a["rule_level"], "rule_decision": str(thresholds.classify(a["rule_level"])),
        "label": names.get(label_id) if label_id is not None else None, "label_id": label_id,
        "token_decision": a["token_decision"] and {
            "decision": a["token_decision"], "decision_name": decision_name(a["token_decision"]),
            "label": names.get(a["token_label_id"]),
            "author": a["decided_by_name"] or "?", "at": _iso(a["decided_at"])},
        "ne_types": entities,
        "ne_type_names": sorted({ne_type_name(t) for t in entities}),
        "topics": topics,
        "model_score": model_score,
        # (no rule ids: they are numbered across projects, so they would count the rules made elsewhere)
        "rules": [{**r, "reason": _reason(r)} for r in visibility.shown_rules([{
                   "type": r["type"], "condition": r["condition"], "confidence": r["confidence"],
                   "lookup": r["lookup"], "case_sensitive": r["case_sensitive"],
                   "vote": _vote(r["confidence"]), "vote_name": vote_name(_vote(r["confidence"])),
                   "label": names.get(r["label_id"]) if r["label_id"] is not None else None,
                   # rules without an author were made by the system (NE_TYPE rules of pre-processing)
                   "author": r["author_name"] or gettext("system"),
                   "model_score": model_score if _is_model_rule(r) else None} for r in rules
                   # a span's own lookup rule only repeats the person's decision shown above it
                   if not (r["lookup"] and a["token_decision"])],
            a["first_token"], a["end_token"], elided)],
        "history": [{"action": h["action"], "action_name": action_name(h["action"]), "decision": h["decision"],
                     "decision_name": decision_name(h["decision"]) if h["decision"] else "", "label": h["label_name"],
                     "author": h["author_name"] or "?", "at": _iso(h["created_at"])} for h in history],
        "entity": _entity(conn, window, a["first_token"], a["end_token"], elided),
    }


def _vote(confidence: float) -> str:
    return "P" if confidence > 0 else ("S" if confidence < 0 else "C")


def _reason(rule: dict[str, Any]) -> str:
    """A rule's reason in words: "entity type: country, city or state", "word type: Xxxx", "this place"."""
    if rule["lookup"]:
        return action_name("lookup")
    condition = ne_type_name(rule["condition"]) if rule["type"] == "NE_TYPE" else rule["condition"]
    return f"{rule_type_name(rule['type'])}: {condition}"


def _entity(conn, window: Window, first_token: int, end_token: int,
            elided: tuple[int, int] | None) -> dict[str, Any] | None:
    """The span's entity (psan.store.annotation.entities), so the panel can show it and the dialog propose its label;
    its mentions counted in the window as the caller is shown it (without the ``elided`` middle)."""
    from psan.store.annotation.entities import entity_of_span
    within = (window.first_token, window.end_token)
    return annotator_entity(entity_of_span(conn, window.document_id, first_token, end_token, within=within,
                                           hidden=elided))
