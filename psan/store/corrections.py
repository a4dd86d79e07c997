"""Person corrections of recognizer spans, applied before the output is rendered (issue 10, item 4).

Why: the voting semantics treat every span on its own, so an annotator who shrinks a
recognizer's span ("Jonathan Harper\\nTel" → "Jonathan Harper") leaves the long span standing;
with undecided spans masked (fail closed) "Tel" would still be replaced.  Here a recognizer's
span (an entity is on it) that only the rules voted on gives way to the person's decisions that
overlap it (spans of word-type or lookup rules without an entity are left alone):

* a PRIVATE person decision overlapping a rule-only span replaces it (shrink, split, extend,
  crossing): the person re-drew the private span with the context in view;
* a PUBLIC person decision that contains an *undecided* rule-only span decides it too;
* a rule-decided PRIVATE span inside a person's PUBLIC span keeps the thesis semantics (it is a
  different span and stays private), and a PUBLIC person decision on a part of an undecided span
  does not open the rest (fail closed).

A person-decided span without a category (no label category) takes the category of the
recognizer entity overlapping it most, and a private region without a recognizer type on its
exact span takes the fine type of the entity covering most of it, so a postcode stays a postcode
(the surrogate kind follows the recognizer's type, not a label's category).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence

from psan import db
from psan.store.sql import prepared
from psan.tool.document import Category, Decision, Document, Entity
from psan.tool.voting import Annotation, PrivateRegion, Thresholds, final_decision


def _overlap(a_first: int, a_end: int, b_first: int, b_end: int) -> int:
    return max(0, min(a_end, b_end) - max(a_first, b_first))


def _superseded(ann: Annotation, persons: Sequence[Annotation], thresholds: Thresholds) -> bool:
    """Does a person's decision replace this rule-only span (see the module docstring)?"""
    if not ann.types:
        return False  # not a recognizer's span (a word-type or lookup rule match): never opened here
    undecided = final_decision(ann, thresholds) is Decision.SUSPICIOUS
    for p in persons:
        if (p.first_token, p.end_token) == (ann.first_token, ann.end_token):
            continue
        if not _overlap(ann.first_token, ann.end_token, p.first_token, p.end_token):
            continue
        if p.token_decision is Decision.PRIVATE:
            return True
        if undecided and p.first_token <= ann.first_token and ann.end_token <= p.end_token:
            return True
    return False


def _best_entity(entities: Sequence[Entity], first: int, end: int) -> Entity | None:
    """The entity covering most tokens of [first, end) (ties: the longer entity, then earlier)."""
    best: tuple[int, int, int] | None = None
    found: Entity | None = None
    for ent in entities:
        common = _overlap(first, end, ent.first_token, ent.end_token)
        if not common:
            continue
        key = (common, ent.end_token - ent.first_token, -ent.first_token)
        if best is None or key > best:
            best, found = key, ent
    return found


def apply_corrections(doc: Document, annotations: list[Annotation], thresholds: Thresholds,
                      person_categories: Collection[tuple[int, int]] = ()) -> list[Annotation]:
    """The annotations without the rule-only spans a person's decision replaced, categories filled.

    ``person_categories`` are the spans whose category the person chose (a label with a category);
    they are never overwritten.
    """
    persons = [a for a in annotations if a.token_decision is not None]
    if not persons:
        return annotations
    kept = [a for a in annotations if a.token_decision is not None or not _superseded(a, persons, thresholds)]
    for ann in persons:
        if ann.category is not Category.OTHER or (ann.first_token, ann.end_token) in person_categories:
            continue
        ent = _best_entity(doc.entities, ann.first_token, ann.end_token)
        if ent is not None and ent.category is not Category.OTHER:
            ann.category = ent.category
    return kept


def fill_region_type(doc: Document, region: PrivateRegion) -> PrivateRegion:
    """The region with the fine type of the entity covering most of it when its exact span has none."""
    if region.type or region.first_token < 0:
        return region
    ent = _best_entity(doc.entities, region.first_token, region.end_token)
    if ent is None:
        return region
    covered = _overlap(region.first_token, region.end_token, ent.first_token, ent.end_token)
    if 2 * covered < region.end_token - region.first_token:
        return region
    return dataclasses.replace(region, type=ent.type)


def category_needed(conn, document_id: int, first: int, end: int, label_id: int | None) -> bool:
    """Must the annotator be asked for a category of this PRIVATE span?

    No when the span's label has a category or a recognizer entity (not OTHER) overlaps it — the
    output then takes that category; otherwise it would come out as ``[OTHER]``.
    """
    if label_id is not None and db.query_one(prepared("SELECT 1 FROM label WHERE id = %s AND category IS NOT NULL "
                                                      "AND category <> 'OTHER'"), (label_id,), conn):
        return False
    return db.query_one(prepared("SELECT 1 FROM named_entity WHERE document_id = %s AND first_token < %s "
                                 "AND end_token > %s AND category <> 'OTHER' LIMIT 1"),
                        (document_id, end, first), conn) is None
