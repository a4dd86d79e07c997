"""Categories for person-decided spans, filled before the output is rendered.

Why no span is dropped here any more: the output invariant is that a character is
released in clear only if every span covering it is finally PUBLIC.  A person's decision on a part
of a recognizer's span is a decision on *that part only*; it never opens the rest (the old
"shrink" rule dropped the whole rule-private span "Mr E. Cinmen" for a PRIVATE decision on its
".").  Shrinking is an explicit action (:func:`psan.store.annotation.decisions.shrink`): the person decides
the old span PUBLIC and the part to keep PRIVATE, both by token, so only exact person decisions
open anything.

A person-decided span without a category (no label category) takes the category of the
recognizer entity overlapping it most, and a private region without a recognizer type on its
exact span takes the fine type of the entity covering most of it, so a postcode stays a postcode
(the surrogate kind follows the recognizer's type, not a label's category).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence

from psan.runtime import db
from psan.runtime.sql import prepared
from psan.tool.decisions.voting import Annotation, PrivateRegion
from psan.tool.text.document import Category, Document, Entity


def _overlap(a_first: int, a_end: int, b_first: int, b_end: int) -> int:
    return max(0, min(a_end, b_end) - max(a_first, b_first))


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


def apply_corrections(doc: Document, annotations: list[Annotation],
                      person_categories: Collection[tuple[int, int]] = (),
                      mention_categories: Mapping[tuple[int, int], Category] | None = None) -> list[Annotation]:
    """The same annotations (none is dropped: see the module docstring), person spans' categories filled.

    ``person_categories`` are the spans whose category the person chose (a label with a category);
    they are never overwritten.  ``mention_categories``: the categories of the entities person-decided
    spans are mentions of, for a span no recognizer entity overlaps (a span marked by hand).
    """
    for ann in annotations:
        if ann.token_decision is None:
            continue
        if ann.category is not Category.OTHER or (ann.first_token, ann.end_token) in person_categories:
            continue
        ent = _best_entity(doc.entities, ann.first_token, ann.end_token)
        if ent is not None and ent.category is not Category.OTHER:
            ann.category = ent.category
        elif mention_categories and (ann.first_token, ann.end_token) in mention_categories:
            ann.category = mention_categories[(ann.first_token, ann.end_token)]
    return annotations


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


def category_needed_read(document_id: int, first: int, end: int, label_id: int | None) -> db.Read:
    """:func:`category_needed` as one read (``needed``) for :func:`psan.runtime.db.read_together`."""
    return ("SELECT NOT (EXISTS (SELECT 1 FROM label WHERE id = %(label)s AND category IS NOT NULL "
            "AND category <> 'OTHER') OR EXISTS (SELECT 1 FROM entity_mention m JOIN entity e ON e.id = m.entity_id "
            "WHERE m.document_id = %(doc)s AND m.first_token = %(first)s AND m.end_token = %(end)s "
            "AND e.category <> 'OTHER') OR EXISTS (SELECT 1 FROM named_entity WHERE document_id = %(doc)s "
            "AND first_token < %(end)s AND end_token > %(first)s AND category <> 'OTHER')) AS needed",
            {"label": label_id, "doc": document_id, "first": first, "end": end})


def category_needed(conn, document_id: int, first: int, end: int, label_id: int | None) -> bool:
    """Must the annotator be asked for a category of this PRIVATE span?

    No when the span's label has a category, a recognizer entity (not OTHER) overlaps it or the span is a
    mention of an entity of a category (a span marked by hand joins the entity it repeats:
    :func:`psan.store.annotation.entities.link_marked_span`) — the output then takes that category;
    otherwise it would come out as ``[OTHER]``.
    """
    if label_id is not None and db.query_one(prepared("SELECT 1 FROM label WHERE id = %s AND category IS NOT NULL "
                                                      "AND category <> 'OTHER'"), (label_id,), conn):
        return False
    if db.query_one(prepared("SELECT 1 FROM entity_mention m JOIN entity e ON e.id = m.entity_id "
                             "WHERE m.document_id = %s AND m.first_token = %s AND m.end_token = %s "
                             "AND e.category <> 'OTHER'"), (document_id, first, end), conn):
        return False
    return db.query_one(prepared("SELECT 1 FROM named_entity WHERE document_id = %s AND first_token < %s "
                                 "AND end_token > %s AND category <> 'OTHER' LIMIT 1"),
                        (document_id, end, first), conn) is None
