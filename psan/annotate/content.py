"""What an annotation window shows: tokens, sentences and annotations as plain JSON data.

Why plain data: the browser builds the DOM with ``textContent`` only, so document text, label
names and rule conditions can never become markup.  Label *replacements* are never selected here
(they are the pseudonymization key, annotators must not see them).

The rows come from :mod:`psan.store.annotation.window_content`, which reads only the window's own range.
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db
from psan.store.annotation import visibility, window_content
from psan.store.annotation.entities import mention_labels_read
from psan.store.annotation.suggestions import add_suggestions
from psan.store.annotation.windows import Window
from psan.tool.decisions.voting import Thresholds
from psan.web.code_names import status_name
from psan.web.ids import ascii_digits

#: whitespace between two tokens is shown up to this length (long runs add nothing)
MAX_GAP_CHARS = 200


def annotation_ref(first: int, end: int) -> str:
    """The id an annotator's page knows an annotation by: its token range, nothing the window does not show.

    Why not the row id: global sequential ids told an annotator how many spans the instance holds and how
    many lie between two of theirs (outside the window).
    """
    return f"{int(first)}-{int(end)}"


def parse_annotation_ref(ref: str) -> tuple[int, int] | None:
    """``(first, end)`` of :func:`annotation_ref`; ``None`` for anything else (a forged or old numeric id)."""
    first, sep, end = ref.partition("-")
    if not sep or not ascii_digits(first) or not ascii_digits(end) or len(first) > 9 or len(end) > 9:
        return None
    return int(first), int(end)


def tokens_json(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[dict[str, Any]]:
    """``[{"i": index, "text": token text, "after": whitespace up to the next token}]`` of ``[first, end)``."""
    words, gaps = window_content.token_texts(conn, document_id, first, end, stamp)
    lo = max(first, 0)
    return [{"i": lo + pos, "text": word, "after": gap[:MAX_GAP_CHARS]}
            for pos, (word, gap) in enumerate(zip(words, gaps, strict=True))]


def sentences_json(conn, document_id: int, first: int, end: int, stamp: Any = None) -> list[list[int]]:
    return [[max(r["first_token"], first), min(r["end_token"], end)]
            for r in window_content.sentence_rows(conn, document_id, first, end, stamp)]


def rule_label(rules: list[dict[str, Any]]) -> int | None:
    """The label of the strongest labelled rule (largest |confidence|, then oldest), as in voting."""
    labelled = [r for r in rules if r["label_id"] is not None]
    if not labelled:
        return None
    return min(labelled, key=lambda r: (-abs(r["confidence"]), r["id"]))["label_id"]


def final_decision(row: dict[str, Any], thresholds: Thresholds) -> str:
    """The voting semantics of :func:`psan.tool.decisions.voting.final_decision` on a database row."""
    if row["token_decision"]:
        return str(row["token_decision"])
    return str(thresholds.classify(row["rule_level"]))


def annotations_json(conn, window: Window, first: int, end: int) -> list[dict[str, Any]]:
    """Annotations lying inside ``[first, end)`` with their final decision, label name and rule summary."""
    # the annotations, the labels of the mentions among them and (document not cached here) its entities:
    # one round trip
    rows_row, mentions_row, entities_row = db.read_together(conn, [
        window_content.annotation_rows_read(window.document_id, first, end),
        mention_labels_read(window.project_id, window.document_id, first, end),
        window_content.entity_rows_read(window.document_id, first, end, window.recognized_at)])
    rows = rows_row["rows"] if rows_row else []
    entity_rows = entities_row["rows"] if entities_row is not None else \
        window_content.entity_rows(conn, window.document_id, first, end, window.recognized_at)
    entities = window_content.entity_types(entity_rows)
    thresholds = Thresholds(window.public_threshold, window.private_threshold)
    own = {r["id"]: (r["token_label_id"] if r["token_label_id"] is not None else rule_label(r["rules"]))
           for r in rows}
    mentions = [(int(f), int(e), int(label)) for f, e, label in (mentions_row["labels"] if mentions_row else [])]
    # the label of the entity a span mentions wins, as in the download (psan.store.publish.regions): after e on
    # "Jonathan Harper", "Harper" and "Mr. Harper" are labelled there, so they are here too
    label_of = {r["id"]: _longest_inside(r["first_token"], r["end_token"], mentions) or own[r["id"]] for r in rows}
    names = window_content.label_names(conn, {v for v in label_of.values() if v is not None})
    result = []
    for r in rows:
        decision = final_decision(r, thresholds)
        label_id = label_of[r["id"]] if decision == "PRIVATE" else None
        result.append({
            "id": annotation_ref(r["first_token"], r["end_token"]),
            "first_token": r["first_token"], "end_token": r["end_token"],
            "decision": decision, "source": "USER" if r["token_decision"] else "RULE",
            "rule_level": r["rule_level"], "has_label": label_id is not None,
            "label_id": label_id, "label": names.get(label_id) if label_id is not None else None,
            "ne_types": entities.get((r["first_token"], r["end_token"]), []),
            "rules": [{"type": x["type"], "condition": x["condition"], "confidence": x["confidence"],
                       "lookup": x["lookup"]} for x in r["rules"]],
        })
    add_suggestions(conn, window.project_id, window.document_id, result, entity_rows, window.recognized_at,
                    None if window.sensitive_types is None else frozenset(window.sensitive_types))
    return result


def _longest_inside(first: int, end: int, spans: list[tuple[int, int, int]]) -> int | None:
    """The label of the longest (then earliest) labelled mention inside ``[first, end)``."""
    inside = [s for s in spans if first <= s[0] and s[1] <= end]
    if not inside:
        return None
    return min(inside, key=lambda s: (s[0] - s[1], s[0]))[2]


def elided_range(window: Window, size: int | None) -> tuple[int, int] | None:
    """The middle of the window an annotator of ``size`` is not shown (:mod:`psan.store.annotation.visibility`)."""
    return visibility.elided_range(window.first_token, window.end_token, size)


def window_json(conn, window: Window, is_admin: bool, first: int | None = None,
                end: int | None = None, size: int | None = None) -> dict[str, Any]:
    """The whole window (or a sub-range of it, already checked by the caller) as JSON data.

    ``size``: the annotator's window size; a wider window's middle is left out (:func:`elided_range`),
    tokens and annotations alike, and named in ``elided``.
    """
    first = window.first_token if first is None else first
    end = window.end_token if end is None else end
    stamp = window.recognized_at
    elided = None if is_admin else elided_range(window, size)
    parts = visibility.shown_parts(first, end, elided)
    tokens = [t for a, b in parts for t in tokens_json(conn, window.document_id, a, b, stamp)]
    annotations = annotations_json(conn, window, first, end)
    if elided is not None:  # what lies wholly in the middle was not seen; the long span itself is decided
        annotations = [{**x, "rules": visibility.shown_rules(x["rules"], x["first_token"], x["end_token"], elided)}
                       for x in annotations if not visibility.hidden_span(x["first_token"], x["end_token"], elided)]
    return {
        "window": {"document_id": window.document_id, "project_id": window.project_id,
                   "first_token": window.first_token, "end_token": window.end_token,
                   "expires_at": window.expires_at.isoformat(), "decisions": window.decisions,
                   "forced": window.forced, "can_widen": is_admin},
        "document": {"id": window.document_id, "name": window.document_name, "status": window.document_status,
                     "status_name": status_name(window.document_status)},
        "project": {"id": window.project_id, "name": window.project_name, "ask_labels": window.ask_labels,
                    "public_threshold": window.public_threshold, "private_threshold": window.private_threshold},
        "range": [first, end],
        "elided": list(elided) if elided is not None else None,
        "tokens": tokens,
        "sentences": sentences_json(conn, window.document_id, first, end, stamp),
        "annotations": annotations,
    }
