"""Recognized entities → private regions for fully automatic output.

Why: the command line (and any caller without people or rules) treats every recognized entity
as private.  Instead of re-implementing region merging, each entity becomes a person-style
PRIVATE :class:`~psan.tool.decisions.voting.Annotation` and :func:`~psan.tool.decisions.voting.decided_regions`
merges overlapping ones exactly as in the annotated workflow (outermost span gives the category).
"""
from __future__ import annotations

from collections.abc import Iterable

from psan.tool.text.document import Category, Decision, Document, Entity

from .voting import Annotation, PrivateRegion, decided_regions

__all__ = ["entity_annotations", "entity_regions"]

def entity_annotations(entities: Iterable[Entity], categories: Iterable[Category] | None = None) -> list[Annotation]:
    """One PRIVATE annotation per distinct entity span (types of equal spans are collected, first category kept)."""
    wanted = set(categories) if categories is not None else None
    spans: dict[tuple[int, int], Annotation] = {}
    for ent in entities:
        if wanted is not None and ent.category not in wanted:
            continue
        key = (ent.first_token, ent.end_token)
        ann = spans.get(key)
        if ann is None:
            spans[key] = Annotation(ent.first_token, ent.end_token, token_decision=Decision.PRIVATE,
                                    category=ent.category, types=(ent.type,))
        elif ent.type not in ann.types:
            ann.types = (*ann.types, ent.type)
    return [spans[k] for k in sorted(spans)]


def entity_regions(doc: Document, categories: Iterable[Category] | None = None) -> list[PrivateRegion]:
    """Sorted, non-overlapping private regions covering every (selected) entity of ``doc``; label is None."""
    return decided_regions(doc, entity_annotations(doc.entities, categories))
